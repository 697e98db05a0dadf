package io.verso.compile;

import io.verso.analyze.BoundSelect;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL that keeps derived tables exact (derive/ decides when each runs and what to do with its
 * rows): the catalog row of a new derived table, the source commits to replay, the difference
 * between a derived table's query and its current rows, the rows appended to a keyless one, and
 * the searches that narrow a commit to the keys it can have changed. Values the commits and
 * sources hold (key values, commit numbers) are binds; key values travel as text arrays cast to
 * the column's type, so one statement serves any number of keys.
 */
public final class DerivedCompiler {

    private DerivedCompiler() {
    }

    /**
     * The values each of {@code columns} may hold ({@code values.get(i)} for column i, as text), or
     * NULL where {@code nulls[i]}: the rows a commit changed, or the derived keys it reached.
     */
    public record Among(List<ColumnDef> columns, List<String[]> values, boolean[] nulls) {

        /** Values that are never NULL. */
        public Among(List<ColumnDef> columns, List<String[]> values) {
            this(columns, values, new boolean[columns.size()]);
        }

        /** No row: the first column holds neither a value nor NULL. */
        public boolean nothing() {
            return values.get(0).length == 0 && !nulls[0];
        }
    }

    /** One part of {@link #reached}: the joined rows of {@code rows} (key expressions, then {@code among}'s columns). */
    public record Search(BoundSelect rows, Among among) {
    }

    /** The catalog row of a new derived table: its query as written and the tables it reads. */
    public static CompiledSql record(long tableId, String query, List<String> sources, long commit) {
        return new SqlBuilder().sql("INSERT INTO verso.derived_tables (table_id, query, sources, created_commit) "
                + "VALUES (").bind(tableId).sql(", ").bind(query).sql(", ")
                .bind(new CompiledSql.ArrayBind("text", sources.toArray(new String[0]))).sql(", ").bind(commit)
                .sql(")").build();
    }

    /** Empties a derived table that is rebuilt from scratch (an ERASE of a source): its rows and history. */
    public static List<CompiledSql> clear(TableDef table) {
        List<CompiledSql> statements = new ArrayList<>();
        for (String physical : LifecycleCompiler.physicalTables(table)) {
            statements.add(new SqlBuilder().sql("DELETE FROM ").table(physical).build());
        }
        return statements;
    }

    /** The query's result columns and no row: PostgreSQL's types for them name a new derived table's columns. */
    public static CompiledSql noRows(BoundSelect query) {
        SqlBuilder b = new SqlBuilder().sql("SELECT * FROM (");
        SelectCompiler.emit(b, query, List.of());
        return b.sql(") AS ").ident("q").sql(" LIMIT 0").build();
    }

    /**
     * The commits before {@code commit} at which some source's rows changed, in order, from the
     * newest horizon of the sources on (what is behind it cannot be read AS OF).
     */
    public static CompiledSql sourceCommits(List<TableDef> sources, long commit) {
        SqlBuilder b = new SqlBuilder().sql("SELECT DISTINCT c FROM (");
        long horizon = 0;
        for (int i = 0; i < sources.size(); i++) {
            TableDef source = sources.get(i);
            horizon = Math.max(horizon, source.horizon());
            b.sql(i > 0 ? " UNION ALL " : "");
            if (source.mode() == TableMode.APPEND) {
                b.sql("SELECT ").ident("_commit").sql(" AS c FROM ").table(source.currentTable());
            } else {
                b.sql("SELECT ").ident("_from").sql(" AS c FROM ").table(source.historyTable()).sql(" WHERE ")
                        .ident("_from").sql(" IS NOT NULL");
            }
        }
        return b.sql(") AS ").ident("s").sql(" WHERE c >= ").bind(Math.max(horizon, 1)).sql(" AND c < ")
                .bind(commit).sql(" ORDER BY c").build();
    }

    /**
     * The query's rows beside the derived table's current rows, by key: only keys whose row differs
     * (or that occur twice in the query, or with a NULL key, for the caller to refuse) come back, each
     * column as text, then whether the key is gone from the query and how often it occurs there.
     * {@code only} (null: every key) limits both sides to the derived key values a commit reached.
     */
    public static CompiledSql difference(TableDef table, BoundSelect query, Among only) {
        List<ColumnDef> columns = table.columns();
        List<ColumnDef> keys = table.keyColumns();
        List<String> keyOutputs = keys.stream().map(k -> "c" + columns.indexOf(k)).toList();
        SqlBuilder b = new SqlBuilder().sql("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            ColumnDef column = columns.get(i);
            b.sql(i > 0 ? ", " : "").sql("CAST(");
            if (column.isKey()) {
                b.sql("coalesce(").qualified("q", "c" + i).sql(", ").qualified("d", column.name()).sql(")");
            } else {
                b.qualified("q", "c" + i);
            }
            b.sql(" AS text)");
        }
        b.sql(", ").qualified("q", "_q").sql(" IS NULL, coalesce(").qualified("q", "_n").sql(", 1) FROM (SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").sql("CAST(").qualified("q0", "c" + i).sql(" AS ").sql(columns.get(i).type().sql())
                    .sql(") AS ").ident("c" + i);
        }
        b.sql(", TRUE AS ").ident("_q").sql(", count(*) OVER (PARTITION BY ");
        for (int k = 0; k < keys.size(); k++) {
            b.sql(k > 0 ? ", " : "").qualified("q0", keyOutputs.get(k));
        }
        b.sql(") AS ").ident("_n").sql(" FROM (");
        SelectCompiler.emit(b, query, List.of());
        b.sql(") AS ").ident("q0").sql("(");
        outputs(b, columns.size(), "c");
        b.sql(")");
        if (only != null) {
            among(b, "q0", keyOutputs, only);
        }
        b.sql(") AS ").ident("q").sql(" FULL JOIN ");
        if (only == null) {
            RelationCompiler.current(b, table);
        } else {
            b.sql("(SELECT * FROM ");
            RelationCompiler.current(b, table);
            b.sql(" AS ").ident("d0");
            among(b, "d0", keys.stream().map(ColumnDef::name).toList(), only);
            b.sql(")");
        }
        b.sql(" AS ").ident("d").sql(" ON ");
        for (int k = 0; k < keys.size(); k++) {
            b.sql(k > 0 ? " AND " : "").qualified("q", keyOutputs.get(k)).sql(" = ").qualified("d", keys.get(k).name());
        }
        b.sql(" WHERE ").qualified("q", "_q").sql(" IS NULL OR ").qualified("d", keys.get(0).name())
                .sql(" IS NULL OR ").qualified("q", "_n").sql(" > 1 OR ROW(");
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").qualified("q", "c" + i);
        }
        b.sql(") IS DISTINCT FROM ROW(");
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").qualified("d", columns.get(i).name());
        }
        return b.sql(")").build();
    }

    /**
     * Appends to a keyless derived table (an APPEND table) the rows of {@code query} at {@code commit}:
     * its query over the rows the commit appended to its source.
     */
    public static CompiledSql append(TableDef table, BoundSelect query, long commit) {
        List<ColumnDef> columns = table.columns();
        SqlBuilder b = new SqlBuilder().sql("INSERT INTO ").table(table.currentTable()).sql(" (");
        for (ColumnDef column : columns) {
            b.ident(column.physical()).sql(", ");
        }
        b.ident("_commit").sql(", ").ident("_pos").sql(") SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            b.sql("CAST(").qualified("q", "c" + i).sql(" AS ").sql(columns.get(i).type().sql()).sql("), ");
        }
        b.bind(commit).sql(", CAST(row_number() OVER () AS integer) FROM (");
        SelectCompiler.emit(b, query, List.of());
        b.sql(") AS ").ident("q").sql("(");
        outputs(b, columns.size(), "c");
        return b.sql(")").build();
    }

    /**
     * The distinct values of a source's {@code columns} in the rows {@code commit} changed, as text, at
     * most {@code limit} of them: rows appended at it (APPEND); else, when the columns are all key columns,
     * the keys that got a new winner at it; else (one attribute group) the winners it started and those it
     * closed, for the keys it changed.
     */
    public static CompiledSql changedValues(TableDef source, List<ColumnDef> columns, long commit, int limit) {
        SqlBuilder b = new SqlBuilder().sql("SELECT DISTINCT ");
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").sql("CAST(").qualified("h", columns.get(i).physical()).sql(" AS text)");
        }
        if (source.mode() == TableMode.APPEND) {
            b.sql(" FROM ").table(source.currentTable()).sql(" AS ").ident("h").sql(" WHERE ")
                    .qualified("h", "_commit").sql(" = ").bind(commit);
        } else if (columns.stream().allMatch(ColumnDef::isKey)) {
            // The keys whose winner changed at the commit (their rows before and after both have them).
            b.sql(" FROM ").table(source.historyTable()).sql(" AS ").ident("h").sql(" WHERE ")
                    .qualified("h", "_from").sql(" = ").bind(commit);
        } else {
            b.sql(" FROM ").table(source.historyTable()).sql(" AS ").ident("h").sql(" WHERE (");
            List<ColumnDef> keys = source.keyColumns();
            for (int i = 0; i < keys.size(); i++) {
                b.sql(i > 0 ? ", " : "").qualified("h", keys.get(i).physical());
            }
            b.sql(") IN (SELECT ");
            for (int i = 0; i < keys.size(); i++) {
                b.sql(i > 0 ? ", " : "").ident(keys.get(i).physical());
            }
            b.sql(" FROM ").table(source.historyTable()).sql(" WHERE ").ident("_from").sql(" = ").bind(commit)
                    .sql(") AND NOT ").qualified("h", "_deleted").sql(" AND (").qualified("h", "_from").sql(" = ")
                    .bind(commit).sql(" OR ").qualified("h", "_to").sql(" = ").bind(commit).sql(")");
        }
        return b.sql(" LIMIT ").bind(limit).build();
    }

    /**
     * The distinct derived keys ({@code keys} columns, as text) of the joined rows of each search that
     * hold one of its changed rows, at most {@code limit}.
     */
    public static CompiledSql reached(List<Search> searches, int keys, int limit) {
        SqlBuilder b = new SqlBuilder().sql("SELECT * FROM (");
        for (int s = 0; s < searches.size(); s++) {
            Search search = searches.get(s);
            b.sql(s > 0 ? " UNION SELECT " : "SELECT ");
            for (int i = 0; i < keys; i++) {
                b.sql(i > 0 ? ", " : "").sql("CAST(").qualified("j", "k" + i).sql(" AS text)");
            }
            b.sql(" FROM (");
            SelectCompiler.emit(b, search.rows(), List.of());
            b.sql(") AS ").ident("j").sql("(");
            outputs(b, keys, "k");
            List<String> changed = new ArrayList<>();
            for (int i = 0; i < search.among().columns().size(); i++) {
                b.sql(", ").ident("r" + i);
                changed.add("r" + i);
            }
            b.sql(")");
            among(b, "j", changed, search.among());
        }
        return b.sql(") AS ").ident("u").sql(" LIMIT ").bind(limit).build();
    }

    /** {@code prefix0, prefix1, ...}: the names a derived table gives its query's outputs. */
    private static void outputs(SqlBuilder b, int count, String prefix) {
        for (int i = 0; i < count; i++) {
            b.sql(i > 0 ? ", " : "").ident(prefix + i);
        }
    }

    /** {@code WHERE (alias.n0 = ANY(...) [OR alias.n0 IS NULL]) AND ...}: column i, named {@code names.get(i)}, among its values. */
    private static void among(SqlBuilder b, String alias, List<String> names, Among among) {
        for (int i = 0; i < names.size(); i++) {
            b.sql(i == 0 ? " WHERE " : " AND ");
            if (among.nulls()[i]) {
                b.sql("(");
            }
            b.qualified(alias, names.get(i)).sql(" = ANY(CAST(")
                    .bind(new CompiledSql.ArrayBind("text", among.values().get(i))).sql(" AS ")
                    .sql(among.columns().get(i).type().sql()).sql("[]))");
            if (among.nulls()[i]) {
                b.sql(" OR ").qualified(alias, names.get(i)).sql(" IS NULL)");
            }
        }
    }
}
