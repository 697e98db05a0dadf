package io.verso.catalog;

/** What a table keeps: every row, the latest row per key, or the latest row per key and every version. */
public enum TableMode {
    APPEND, UPSERT, VERSIONED;

    public boolean keyed() {
        return this != APPEND;
    }
}
