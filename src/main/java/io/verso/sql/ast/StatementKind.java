package io.verso.sql.ast;

/**
 * Every kind of statement, and what it does, in one table: the words results and refusals name it by, whether
 * it changes anything (a request that holds one makes a commit), what it does to the table it names, and
 * whether it acts on the shared namespace (the names every caller shares, and access itself). Each statement
 * says its kind ({@link Statement#kind}), so a new kind of statement is a row here, and the switches over a
 * kind's {@link Use} (the privileges a plan needs) are exhaustive: the compiler names any they miss.
 */
public enum StatementKind {
    SELECT("SELECT", false, Use.READS, false),
    EXPLAIN("EXPLAIN", false, Use.READS, false),
    SHOW_TABLES("SHOW TABLES", false, Use.NONE, false),
    DESCRIBE("DESCRIBE", false, Use.READS, false),
    SHOW_CREATE_TABLE("SHOW CREATE TABLE", false, Use.READS, false),
    SHOW_DERIVED_TABLES("SHOW DERIVED TABLES", false, Use.NONE, false),
    START_TRANSACTION("START TRANSACTION", false, Use.NONE, false),
    COMMIT("COMMIT", false, Use.NONE, false),
    ROLLBACK("ROLLBACK", false, Use.NONE, false),

    INSERT("INSERT", true, Use.WRITES, false),
    UPSERT("UPSERT", true, Use.WRITES, false),
    /** UPDATE reads the rows its WHERE and values name before it writes them. */
    UPDATE("UPDATE", true, Use.READS_AND_WRITES, false),
    /** DELETE ... WHERE: reads the rows its WHERE matches. */
    DELETE("DELETE", true, Use.READS_AND_WRITES, false),
    /** DELETE of keys named outright: their tombstones are written, nothing is read. */
    DELETE_KEYS("DELETE", true, Use.WRITES, false),

    CREATE_TABLE("CREATE TABLE", true, Use.DEFINES, true),
    DROP_TABLE("DROP TABLE", true, Use.DEFINES, false),
    ALTER_TABLE("ALTER TABLE", true, Use.DEFINES, false),
    ERASE("ERASE", true, Use.DEFINES, false),
    DELETE_HISTORY("DELETE HISTORY", true, Use.DEFINES, false),
    CREATE_INDEX("CREATE INDEX", true, Use.DEFINES, false),
    DROP_INDEX("DROP INDEX", true, Use.DEFINES, false),
    CREATE_VIEW("CREATE VIEW", true, Use.DEFINES, true),
    DROP_VIEW("DROP VIEW", true, Use.DEFINES, true),
    /** Reads its sources (SELECT on each) to create a table in the shared namespace. */
    CREATE_DERIVED_TABLE("CREATE DERIVED TABLE", true, Use.READS, true),

    CREATE_ROLE("CREATE ROLE", true, Use.DEFINES, true),
    DROP_ROLE("DROP ROLE", true, Use.DEFINES, true),
    /** On named tables: ADMIN on each; on ALL TABLES: on the namespace (the planner tells them apart). */
    GRANT("GRANT", true, Use.DEFINES, false),
    REVOKE("REVOKE", true, Use.DEFINES, false),
    SHOW_GRANTS("SHOW GRANTS", false, Use.NONE, true);

    /** What a statement does to the table it names, from which the privilege it needs there follows. */
    public enum Use {
        /** Reads it. */
        READS,
        /** Reads rows of it, then writes them. */
        READS_AND_WRITES,
        /** Writes rows without reading any. */
        WRITES,
        /** Changes its definition, or what may be done with it. */
        DEFINES,
        /** Names no table. */
        NONE
    }

    private final String words;
    private final boolean writes;
    private final Use use;
    private final boolean sharedNamespace;

    StatementKind(String words, boolean writes, Use use, boolean sharedNamespace) {
        this.words = words;
        this.writes = writes;
        this.use = use;
        this.sharedNamespace = sharedNamespace;
    }

    /** How results and refusals name the statement: {@code ALTER TABLE}, {@code UPSERT}, ... */
    public String words() {
        return words;
    }

    /** Whether the statement makes a commit: everything but reads, listings and transaction framing. */
    public boolean writes() {
        return writes;
    }

    public Use use() {
        return use;
    }

    /** Whether it acts on the names every caller shares, or on access itself: it needs ADMIN on ALL TABLES. */
    public boolean sharedNamespace() {
        return sharedNamespace;
    }
}
