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

    /** Batches of one group of one table, written as one: their rows one after another. */
    public static GroupBatch concat(List<GroupBatch> batches) {
        if (batches.size() == 1) {
            return batches.get(0);
        }
        GroupBatch first = batches.get(0);
        int size = batches.stream().mapToInt(GroupBatch::size).sum();
        String[][] values = new String[first.values().length][size];
        Integer[] positions = new Integer[size];
        int at = 0;
        for (GroupBatch batch : batches) {
            if (batch.group().id() != first.group().id() || !batch.columns().equals(first.columns())
                    || batch.tombstone() != first.tombstone()) {
                throw new IllegalArgumentException("batches of different groups or columns cannot be written as one");
            }
            for (int c = 0; c < values.length; c++) {
                System.arraycopy(batch.values()[c], 0, values[c], at, batch.size());
            }
            System.arraycopy(batch.positions(), 0, positions, at, batch.size());
            at += batch.size();
        }
        return new GroupBatch(first.table(), first.group(), first.columns(), values, positions, first.tombstone());
    }
}
