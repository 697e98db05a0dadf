package io.verso.derive;

import java.util.List;

/** A derived table's definition: its table, the query's text and the tables the query reads. */
public record DerivedDef(long tableId, String name, String query, List<String> sources, long createdCommit) {
}
