package io.verso.catalog;

/**
 * What a table keeps: every row, the latest row per key, or the latest row per key and every version.
 * SYSTEM is a table of MariaDB's semantics (plain INSERT/UPDATE/DELETE, rows with a hidden identity,
 * keys as unique constraints on current rows), system-versioned while its {@link TableDef#period()} is set.
 */
public enum TableMode {
    APPEND, UPSERT, VERSIONED, SYSTEM;

    /** Whether rows are identified by a primary key of ordered versions (UPSERT and VERSIONED). */
    public boolean keyed() {
        return this == UPSERT || this == VERSIONED;
    }
}
