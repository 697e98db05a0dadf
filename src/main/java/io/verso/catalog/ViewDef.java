package io.verso.catalog;

import java.util.List;

/** A view as the catalog keeps it: its name, column names (empty: the query's own) and query text. */
public record ViewDef(String name, List<String> columns, String query) {
}
