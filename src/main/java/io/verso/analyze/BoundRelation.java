package io.verso.analyze;

import io.verso.catalog.TableDef;
import java.util.List;

/**
 * A relation of a statement bound to its table: the name it is visible under, how it is read, the
 * commit it is read at (null for current reads and plain history), and the columns it exposes.
 */
public record BoundRelation(String alias, TableDef table, RelationKind kind, Long asOf, List<String> columns,
                            Long rangeFrom) {

    public BoundRelation(String alias, TableDef table, RelationKind kind, Long asOf, List<String> columns) {
        this(alias, table, kind, asOf, columns, null);
    }

    /** Pseudo-columns of {@code history(t)}, after the table's own columns. */
    public static final List<String> HISTORY_COLUMNS =
            List.of("_group", "_commit", "_current_from", "_current_to", "_deleted");

    /** Pseudo-columns of {@code changes(t)}, after the table's own columns (the row after the change). */
    public static final List<String> CHANGES_COLUMNS = List.of("_commit", "_op", "_before");
}
