package io.verso.security;

/** What a grant allows on a table (spec: Access control). */
public enum Privilege {
    /** Reads: current rows, AS OF, history, changes. */
    SELECT,
    /** UPSERT, INSERT, UPDATE, DELETE. */
    WRITE,
    /** DDL, DELETE HISTORY, ERASE, retention, and granting on the table. */
    ADMIN
}
