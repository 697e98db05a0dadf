package io.verso.catalog;

/**
 * What a column does in the order of a table's versions, spelled once for every surface that describes a
 * table ({@code DESCRIBE} on /v1/sql, REST's table description): in the dialect's own words, as a CREATE TABLE
 * writes them (REST's table description spelled them VALID_BY and REVISION_BY before).
 */
public enum Ordering {
    VALID_BY("VALID BY"), REVISION_BY("REVISION BY"), ROW_START("ROW START"), ROW_END("ROW END");

    private final String spelling;

    Ordering(String spelling) {
        this.spelling = spelling;
    }

    /** The words DESCRIBE prints. */
    public String spelling() {
        return spelling;
    }

    /** A column's role in its table's ordering, or null for a column that orders nothing. */
    public static Ordering of(TableDef table, ColumnDef column) {
        if (!table.isOrderingColumn(column)) {
            return null;
        }
        return table.group(column.groupId()).validBy().contains(column.name()) ? VALID_BY : REVISION_BY;
    }

    /** The spelling of {@link #of(TableDef, ColumnDef)}, or null. */
    public static String spelled(TableDef table, ColumnDef column) {
        Ordering ordering = of(table, column);
        return ordering == null ? null : ordering.spelling;
    }
}
