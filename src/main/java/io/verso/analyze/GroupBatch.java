package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import java.util.List;

/**
 * A resolved write of one attribute group: the versions (or tombstones) a statement writes, checked
 * against the table, as column arrays the compiler turns into one set-based statement.
 *
 * @param columns   key columns then the group's columns, matching {@code values}
 * @param values    one array per column, text for PostgreSQL to parse (null elements are NULL)
 * @param positions position in the commit of each row
 */
public record GroupBatch(TableDef table, GroupDef group, List<ColumnDef> columns, String[][] values,
                         Integer[] positions, boolean tombstone) {
    public int size() {
        return positions.length;
    }
}
