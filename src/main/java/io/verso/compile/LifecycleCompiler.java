package io.verso.compile;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.IndexDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import java.util.ArrayList;
import java.util.List;

/** Physical SQL for ALTER TABLE, indexes, DELETE HISTORY and erasure. */
public final class LifecycleCompiler {


    private LifecycleCompiler() {
    }

    /** The tables holding a user table's rows: current (or APPEND rows), then history if any. */
    static List<String> physicalTables(TableDef table) {
        return table.mode() == TableMode.VERSIONED ? List.of(table.currentTable(), table.historyTable())
                : List.of(table.currentTable());
    }

    /**
     * Adds a column to every physical table. {@code quotedDefault} is a literal PostgreSQL itself quoted
     * ({@code quote_literal}) from the validated DEFAULT, or null: PostgreSQL takes no bind parameters
     * in DDL, so this is the one place a value is inlined, and only in that server-quoted form. The
     * default fills existing rows and versions (without rewriting them) and is dropped at once, so
     * later writes, which always supply the column, never pick it up for other groups' rows.
     */
    public static List<CompiledSql> addColumn(TableDef table, ColumnDef column, String quotedDefault) {
        List<CompiledSql> statements = new ArrayList<>();
        for (String physical : physicalTables(table)) {
            SqlBuilder b = new SqlBuilder().sql("ALTER TABLE ").table(physical).sql(" ADD COLUMN ")
                    .ident(column.physical()).sql(" ").sql(column.type().sql());
            if (quotedDefault != null) {
                b.sql(" DEFAULT CAST(").sql(quotedDefault).sql(" AS ").sql(column.type().sql()).sql(")");
            }
            if (column.notNull() && table.mode() == TableMode.SYSTEM) {
                // A SYSTEM table's rows are whole rows, so PostgreSQL holds its NOT NULL as CREATE TABLE gave it
                // (SystemCompiler.createTable); the default has filled every existing version first.
                b.sql(" NOT NULL");
            }
            if (quotedDefault != null) {
                statements.add(b.build());
                statements.add(new SqlBuilder().sql("ALTER TABLE ").table(physical).sql(" ALTER COLUMN ")
                        .ident(column.physical()).sql(" DROP DEFAULT").build());
            } else {
                statements.add(b.build());
            }
        }
        if (quotedDefault != null && table.mode().keyed() && table.groups().size() > 1) {
            // Keys whose group has no live winner read its columns as NULL, not as the new default.
            GroupDef group = table.group(column.groupId());
            statements.add(new SqlBuilder().sql("UPDATE ").table(table.currentTable()).sql(" SET ")
                    .ident(column.physical()).sql(" = NULL WHERE ")
                    .ident(RelationCompiler.deletedColumn(group.id())).sql(" IS NOT FALSE").build());
        }
        return statements;
    }

    public static List<CompiledSql> dropColumn(TableDef table, ColumnDef column) {
        List<CompiledSql> statements = new ArrayList<>();
        for (String physical : physicalTables(table)) {
            statements.add(new SqlBuilder().sql("ALTER TABLE ").table(physical).sql(" DROP COLUMN ")
                    .ident(column.physical()).build());
        }
        return statements;
    }

    public static List<CompiledSql> createIndex(TableDef table, IndexDef index) {
        List<CompiledSql> statements = new ArrayList<>();
        if (table.mode() != TableMode.VERSIONED || index.coversCurrent()) {
            SqlBuilder b = new SqlBuilder().sql(index.unique() ? "CREATE UNIQUE INDEX " : "CREATE INDEX ")
                    .ident(indexName(table, index, "cur")).sql(" ON ").table(table.currentTable()).sql(" (");
            columns(b, index.columns());
            b.sql(")");
            if (index.unique() && (table.mode() == TableMode.SYSTEM || table.mode() == TableMode.APPEND)) {
                // Unique among current versions (rows): closed versions (ended rows) are history.
                b.sql(" WHERE ").ident("_to").sql(" IS NULL");
            } else if (index.unique()) {
                // Unique among current rows: a deleted key's row stays behind as a tombstone.
                b.sql(" WHERE ");
                RelationCompiler.liveFilter(b, table, null);
            }
            statements.add(b.build());
        }
        if (table.mode() == TableMode.VERSIONED && index.coversHistory()) {
            // Versions by the indexed columns, then the commit they became current: a filtered AS OF
            // read visits only the matching keys' versions.
            SqlBuilder b = new SqlBuilder().sql("CREATE INDEX ").ident(indexName(table, index, "hist")).sql(" ON ")
                    .table(table.historyTable()).sql(" (");
            columns(b, index.columns());
            statements.add(b.sql(", ").ident("_from").sql(")").build());
        }
        return statements;
    }

    public static List<CompiledSql> dropIndex(TableDef table, IndexDef index) {
        return List.of(new SqlBuilder().sql("DROP INDEX IF EXISTS ").table(indexName(table, index, "cur"))
                        .build(),
                new SqlBuilder().sql("DROP INDEX IF EXISTS ").table(indexName(table, index, "hist")).build());
    }

    static String indexName(TableDef table, IndexDef index, String suffix) {
        return "t" + table.id() + "_" + index.physical() + "_" + suffix;
    }

    private static void columns(SqlBuilder b, List<String> physical) {
        for (int i = 0; i < physical.size(); i++) {
            b.sql(i > 0 ? ", " : "").ident(physical.get(i));
        }
    }

    /**
     * Deletes the versions no AS OF at or after {@code before} can return: those that stopped being
     * the winner at or before it, and those that never were and were written at or before it.
     * Current winners are never touched.
     */
    public static CompiledSql deleteHistory(TableDef table, long before) {
        return new SqlBuilder().sql("DELETE FROM ").table(table.historyTable()).sql(" WHERE (")
                .ident("_to").sql(" IS NOT NULL AND ").ident("_to").sql(" <= ").bind(before).sql(") OR (")
                .ident("_from").sql(" IS NULL AND ").ident("_to").sql(" IS NULL AND ").ident("_commit").sql(" <= ")
                .bind(before).sql(")").build();
    }

    /** Removes every version and the current row of the given keys (key values as text arrays). */
    public static List<CompiledSql> erase(TableDef table, String[][] keyValues) {
        List<CompiledSql> statements = new ArrayList<>();
        List<ColumnDef> keys = table.keyColumns();
        for (String physical : physicalTables(table)) {
            SqlBuilder b = new SqlBuilder().sql("DELETE FROM ").table(physical).sql(" AS t USING (");
            WriteCompiler.source(b, keys, keyValues, null, ColumnDef::physical);
            b.sql(") AS k WHERE ");
            if (table.mode() == TableMode.SYSTEM) {
                // A SYSTEM table's row keeps its hidden identity across key changes: every version of every
                // row that ever had one of the keys goes, its other keys' versions included.
                b.qualified("t", "_rid").sql(" IN (SELECT ").qualified("v", "_rid").sql(" FROM ").table(physical)
                        .sql(" AS v WHERE ");
                for (int i = 0; i < keys.size(); i++) {
                    b.sql(i > 0 ? " AND " : "").qualified("v", keys.get(i).physical()).sql(" = ")
                            .qualified("k", keys.get(i).physical());
                }
                statements.add(b.sql(")").build());
                continue;
            }
            for (int i = 0; i < keys.size(); i++) {
                b.sql(i > 0 ? " AND " : "").qualified("t", keys.get(i).physical()).sql(" = ")
                        .qualified("k", keys.get(i).physical());
            }
            statements.add(b.build());
        }
        return statements;
    }

    /** PostgreSQL's own quoting of a checked DEFAULT's text, the form {@link #addColumn} inlines. */
    public static CompiledSql quoteLiteral(String value) {
        return new SqlBuilder().sql("SELECT quote_literal(CAST(").bind(value).sql(" AS text))").build();
    }

    /** A retention interval validated and normalised by PostgreSQL itself, read back as text. */
    public static CompiledSql normaliseInterval(String interval) {
        return new SqlBuilder().sql("SELECT CAST(CAST(").bind(interval).sql(" AS interval) AS text)").build();
    }

    /** Records the keys an ERASE removed ({@code keysJson}, a JSON array) in the erasure log, one row per commit and table. */
    public static CompiledSql recordErasure(long commit, String table, String keysJson, String actor) {
        return new SqlBuilder().sql("INSERT INTO verso.erasures (commit_seq, table_name, keys, actor) VALUES (")
                .bind(commit).sql(", ").bind(table).sql(", CAST(").bind(keysJson).sql(" AS jsonb), ").bind(actor)
                .sql(")").sql(" ON CONFLICT (commit_seq, table_name) DO UPDATE SET keys = verso.erasures.keys || EXCLUDED.keys")
                .build();
    }
}
