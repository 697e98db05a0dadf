package io.verso.api.graphql;

import java.util.Map;

/**
 * One row of a result as the GraphQL types read it: column (and history pseudo-column) values in
 * the engine's JSON-safe forms, and the commit its relation was read at, which nested fields read
 * at too.
 */
record Row(Map<String, Object> values, long commit) {
}
