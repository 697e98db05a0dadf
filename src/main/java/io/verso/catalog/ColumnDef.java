package io.verso.catalog;

/**
 * One column of a user table. {@code physical} is its stable storage name, so renames touch only
 * the catalog. {@code keyPosition} is its place in the primary key or -1; {@code groupId} is the
 * attribute group it belongs to (-1 for key columns, 0 for the default group). {@code defaultValue}
 * is the DEFAULT as text, or null.
 */
public record ColumnDef(String name, String physical, ColumnType type, boolean notNull, String defaultValue,
                        int keyPosition, int groupId) {

    public boolean isKey() {
        return keyPosition >= 0;
    }

    public ColumnDef renamed(String newName) {
        return new ColumnDef(newName, physical, type, notNull, defaultValue, keyPosition, groupId);
    }
}
