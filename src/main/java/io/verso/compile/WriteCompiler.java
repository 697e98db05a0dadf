package io.verso.compile;

import io.verso.analyze.BoundChange;
import io.verso.analyze.BoundSelect;
import io.verso.analyze.GroupBatch;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.compile.CompiledSql.ArrayBind;
import io.verso.sql.ast.Expr;
import java.util.List;

/**
 * Set-based writes: one statement per batch, for every group it writes, fed by column arrays, whatever
 * the batch size. The ordering rule of the spec lives in {@link #write}: per key, the batch is reduced to
 * its greatest version, which replaces the current winner only when greater under (VALID BY,
 * REVISION BY, commit, position); every version goes to history, where the superseded winner's
 * current-until commit is closed in the same statement.
 */
public final class WriteCompiler {


    private WriteCompiler() {
    }

    /**
     * Writes batches of a keyed table, one per attribute group written (no group twice), as one statement.
     * Returns one row: the number of versions written, the positions of those that became current (an int
     * array, a position once per group it won; NULL when none did), and the number of winners closed.
     * Each group's batch is reduced and weighed against its own current winner; the current row is then
     * written once for every group whose candidate beats its winner, so a key whose groups all win costs one
     * update of its current row, not one per group.
     */
    public static CompiledSql write(List<GroupBatch> batches, long commit) {
        TableDef table = batches.get(0).table();
        List<ColumnDef> keys = table.keyColumns();
        boolean versioned = table.mode() == TableMode.VERSIONED;
        boolean single = batches.size() == 1;
        SqlBuilder b = new SqlBuilder();
        b.sql("WITH ");
        for (int i = 0; i < batches.size(); i++) {
            candidates(b, batches.get(i), i, commit);
        }
        // Each key's candidates of every group, one row a key: a FULL JOIN, which PostgreSQL only ever runs
        // as a hash or merge join, whatever it guesses of the CTEs' sizes.
        b.sql("pick AS (SELECT ");
        list(b, keys, null);
        for (int i = 0; i < batches.size(); i++) {
            for (ColumnDef column : valueColumns(batches.get(i))) {
                b.sql(", ").qualified("cand" + i, column.physical());
            }
            b.sql(", ").qualified("cand" + i, "_pos").sql(" AS ").ident("_pos" + i);
        }
        b.sql(" FROM cand0");
        for (int i = 1; i < batches.size(); i++) {
            b.sql(" FULL JOIN cand" + i + " USING (");
            list(b, keys, null);
            b.sql(")");
        }
        b.sql(")");
        b.sql(", won AS (INSERT INTO ").table(table.currentTable()).sql(" AS cur (");
        list(b, keys, null);
        for (GroupBatch batch : batches) {
            for (String column : currentColumns(batch)) {
                b.sql(", ").ident(column);
            }
        }
        b.sql(") SELECT ");
        list(b, keys, null);
        for (int i = 0; i < batches.size(); i++) {
            for (ColumnDef column : valueColumns(batches.get(i))) {
                b.sql(", ").ident(column.physical());
            }
            String pos = "_pos" + i;
            b.sql(", CASE WHEN ").ident(pos).sql(" IS NULL THEN NULL ELSE ").bind(commit).sql(" END, ").ident(pos)
                    .sql(", CASE WHEN ").ident(pos).sql(" IS NULL THEN NULL ELSE ").bind(batches.get(i).tombstone())
                    .sql(" END");
        }
        b.sql(" FROM pick ON CONFLICT (");
        list(b, keys, null);
        b.sql(") DO UPDATE SET ");
        boolean first = true;
        for (GroupBatch batch : batches) {
            for (String column : currentColumns(batch)) {
                b.sql(first ? "" : ", ").ident(column).sql(" = ");
                first = false;
                if (single) {
                    // The WHERE below is this group's own test: whatever it lets through wins.
                    b.sql("EXCLUDED.").ident(column);
                } else {
                    b.sql("CASE WHEN ");
                    replaces(b, batch);
                    b.sql(" THEN EXCLUDED.").ident(column).sql(" ELSE ").qualified("cur", column).sql(" END");
                }
            }
        }
        b.sql(" WHERE ");
        for (int i = 0; i < batches.size(); i++) {
            b.sql(i > 0 ? " OR " : "");
            replaces(b, batches.get(i));
        }
        b.sql(" RETURNING ");
        list(b, keys, "cur");
        for (GroupBatch batch : batches) {
            int g = batch.group().id();
            b.sql(", ").qualified("cur", RelationCompiler.commitColumn(g)).sql(", ")
                    .qualified("cur", RelationCompiler.positionColumn(g));
        }
        b.sql(")");
        // Per group, the candidates that won, beside the winners they replaced, joined once: planned inside the
        // update below, the join of two CTEs (which have no statistics) became a nested loop over every pair,
        // 25 million for 5,000 replaced keys. A candidate won when the current row holds its commit and position.
        for (int i = 0; i < batches.size(); i++) {
            int g = batches.get(i).group().id();
            b.sql(", w" + i + " AS MATERIALIZED (SELECT cand" + i + ".* FROM cand" + i + " JOIN won USING (");
            list(b, keys, null);
            b.sql(") WHERE ").qualified("won", RelationCompiler.commitColumn(g)).sql(" = ").bind(commit)
                    .sql(" AND ").qualified("won", RelationCompiler.positionColumn(g)).sql(" = ")
                    .qualified("cand" + i, "_pos").sql(")");
        }
        if (versioned) {
            for (int i = 0; i < batches.size(); i++) {
                history(b, batches.get(i), i, commit);
            }
        }
        b.sql(" SELECT ");
        sum(b, batches.size(), i -> versioned ? "(SELECT count(*) FROM ins" + i + ")" : "(SELECT count(*) FROM src" + i + ")");
        b.sql(", (SELECT array_agg(").ident("_pos").sql(") FROM (");
        for (int i = 0; i < batches.size(); i++) {
            b.sql(i > 0 ? " UNION ALL " : "").sql("SELECT ").ident("_pos").sql(" FROM w" + i);
        }
        b.sql(") AS w), ");
        if (versioned) {
            sum(b, batches.size(), i -> "(SELECT count(*) FROM closed" + i + ")");
        } else {
            b.sql("0");
        }
        return b.build();
    }

    /**
     * {@code src<i>}, {@code best<i>} and {@code cand<i>} of batch i: its rows, each key's greatest version under
     * the group's ordering (ON CONFLICT cannot touch a row twice in one statement), and those beside the
     * current winner they beat, read once. Only a candidate that beats the winner goes on to ON CONFLICT,
     * which locks every conflicting row (a WAL record each) before its WHERE turns a loser away, and most
     * writes of a busy table lose. The winner's commit and position are those of the version the write closes.
     */
    private static void candidates(SqlBuilder b, GroupBatch batch, int i, long commit) {
        TableDef table = batch.table();
        List<ColumnDef> keys = table.keyColumns();
        int g = batch.group().id();
        List<ColumnDef> ordering = ordering(batch);
        String c = RelationCompiler.commitColumn(g);
        String p = RelationCompiler.positionColumn(g);
        String d = RelationCompiler.deletedColumn(g);
        b.sql("src" + i + " AS (");
        source(b, batch.columns(), batch.values(), batch.positions());
        b.sql("), best" + i + " AS (SELECT DISTINCT ON (");
        list(b, keys, null);
        b.sql(") * FROM src" + i + " ORDER BY ");
        list(b, keys, null);
        for (ColumnDef o : ordering) {
            b.sql(", ").ident(o.physical()).sql(" DESC");
        }
        b.sql(", ").ident("_pos").sql(" DESC)");
        b.sql(", cand" + i + " AS (SELECT best" + i + ".*, ").qualified("cur", c).sql(" AS ").ident("_oc").sql(", ")
                .qualified("cur", p).sql(" AS ").ident("_op").sql(" FROM best" + i + " LEFT JOIN ")
                .table(table.currentTable()).sql(" AS cur USING (");
        list(b, keys, null);
        b.sql(") WHERE ");
        String best = "best" + i;
        beats(b, ordering, c, p, d, best, () -> b.bind(commit), () -> b.sql(best + ".").ident("_pos"));
        b.sql("), ");
    }

    /** Whether the row ON CONFLICT proposes carries a version of {@code batch}'s group that beats the current one. */
    private static void replaces(SqlBuilder b, GroupBatch batch) {
        int g = batch.group().id();
        String c = RelationCompiler.commitColumn(g);
        String p = RelationCompiler.positionColumn(g);
        b.sql("(EXCLUDED.").ident(p).sql(" IS NOT NULL AND (");
        beats(b, ordering(batch), c, p, RelationCompiler.deletedColumn(g), "EXCLUDED",
                () -> b.sql("EXCLUDED.").ident(c), () -> b.sql("EXCLUDED.").ident(p));
        b.sql("))");
    }

    /**
     * Batch i's history: the superseded winners stop being current at this commit ({@code closed<i>}); if one
     * was written earlier in this same commit it was never visible as the winner, and becomes a version that
     * never was current. Every version goes in ({@code ins<i>}), those that won current from this commit.
     */
    private static void history(SqlBuilder b, GroupBatch batch, int i, long commit) {
        TableDef table = batch.table();
        List<ColumnDef> keys = table.keyColumns();
        int g = batch.group().id();
        b.sql(", closed" + i + " AS (UPDATE ").table(table.historyTable()).sql(" AS h SET ")
                .ident("_to").sql(" = CASE WHEN h.").ident("_from").sql(" = ").bind(commit).sql(" THEN NULL ELSE ")
                .bind(commit).sql(" END, ").ident("_from").sql(" = CASE WHEN h.").ident("_from").sql(" = ")
                .bind(commit).sql(" THEN NULL ELSE h.").ident("_from").sql(" END FROM w" + i + " AS old WHERE ");
        for (ColumnDef k : keys) {
            b.qualified("h", k.physical()).sql(" = ").qualified("old", k.physical()).sql(" AND ");
        }
        // The old winner was current, so it is found among the versions that were (the partition, if any).
        RelationCompiler.wasCurrent(b, "h");
        b.sql(" AND ").qualified("h", "_g").sql(" = ").number(g)
                .sql(" AND ").qualified("h", "_commit").sql(" = ").qualified("old", "_oc")
                .sql(" AND ").qualified("h", "_pos").sql(" = ").qualified("old", "_op").sql(" RETURNING 1)");
        b.sql(", ins" + i + " AS (INSERT INTO ").table(table.historyTable()).sql(" (");
        list(b, batch.columns(), null);
        b.sql(", ").ident("_g").sql(", ").ident("_commit").sql(", ").ident("_pos").sql(", ").ident("_deleted")
                .sql(", ").ident("_from").sql(") SELECT ");
        list(b, batch.columns(), "s");
        b.sql(", ").number(g).sql(", ").bind(commit).sql(", s.").ident("_pos").sql(", ").bind(batch.tombstone())
                .sql(", CASE WHEN w.").ident("_pos").sql(" IS NULL THEN NULL ELSE ").bind(commit)
                .sql(" END FROM src" + i + " AS s LEFT JOIN w" + i + " AS w ON ");
        for (ColumnDef k : keys) {
            b.qualified("w", k.physical()).sql(" = ").qualified("s", k.physical()).sql(" AND ");
        }
        b.sql("w.").ident("_pos").sql(" = s.").ident("_pos").sql(" RETURNING 1)");
        // The group's first current version, kept for AS OF (db/migration/V24): writers of one table run one
        // after another, so the first commit to record it is the lowest.
        b.sql(", seen" + i + " AS (INSERT INTO verso.group_versions (table_id, group_id, first_commit) SELECT ")
                .number(table.id()).sql(", ").number(g).sql(", ").bind(commit)
                .sql(" FROM w" + i + " LIMIT 1 ON CONFLICT DO NOTHING)");
    }

    private static List<ColumnDef> ordering(GroupBatch batch) {
        return batch.group().orderingColumns().stream().map(n -> batch.table().column(n).orElseThrow()).toList();
    }

    /** A batch's columns that are not the key's: its group's. */
    private static List<ColumnDef> valueColumns(GroupBatch batch) {
        return batch.columns().stream().filter(column -> !column.isKey()).toList();
    }

    /** What a batch writes of the current row: its group's columns, then the group's commit, position and tombstone. */
    private static List<String> currentColumns(GroupBatch batch) {
        int g = batch.group().id();
        List<String> columns = new java.util.ArrayList<>();
        valueColumns(batch).forEach(column -> columns.add(column.physical()));
        columns.addAll(List.of(RelationCompiler.commitColumn(g), RelationCompiler.positionColumn(g),
                RelationCompiler.deletedColumn(g)));
        return columns;
    }

    private static void sum(SqlBuilder b, int n, java.util.function.IntFunction<String> term) {
        b.sql("(");
        for (int i = 0; i < n; i++) {
            b.sql(i > 0 ? " + " : "").sql(term.apply(i));
        }
        b.sql(")");
    }

    /**
     * The ordering rule as a condition: a new version replaces its group's current winner ({@code cur}) when
     * the group was never written for the key, or the winner is less under (VALID BY, REVISION BY, commit,
     * position). {@code rival} qualifies the new version's ordering columns ({@code EXCLUDED} or a CTE of
     * this compiler); {@code commit} and {@code position} append its commit and position.
     */
    private static void beats(SqlBuilder b, List<ColumnDef> ordering, String c, String p, String d, String rival,
                              Runnable commit, Runnable position) {
        b.qualified("cur", d).sql(" IS NULL OR (");
        for (ColumnDef o : ordering) {
            b.qualified("cur", o.physical()).sql(", ");
        }
        b.qualified("cur", c).sql(", ").qualified("cur", p).sql(") < (");
        for (ColumnDef o : ordering) {
            b.sql(rival).sql(".").ident(o.physical()).sql(", ");
        }
        commit.run();
        b.sql(", ");
        position.run();
        b.sql(")");
    }

    /** Appends rows to an APPEND table. */
    public static CompiledSql append(TableDef table, List<ColumnDef> columns, String[][] values, Integer[] positions,
                                     long commit) {
        SqlBuilder b = new SqlBuilder();
        b.sql("INSERT INTO ").table(table.currentTable()).sql(" (");
        list(b, columns, null);
        b.sql(columns.isEmpty() ? "" : ", ").ident("_commit").sql(", ").ident("_pos").sql(") SELECT ");
        list(b, columns, null);
        b.sql(columns.isEmpty() ? "" : ", ").bind(commit).sql(", ").ident("_pos").sql(" FROM (");
        source(b, columns, values, positions);
        b.sql(") AS src");
        return b.build();
    }

    /**
     * The first key an INSERT must refuse, as text per key column, then whether it repeats among the
     * statement's own rows (else it has a live row): an INSERT writes keys that have no current row, each
     * once, on every mode (a SYSTEM table's current rows are its open versions). No row when there is none.
     * {@code keys[k][r]}: key column k of row r. Keys compare as their types do, so {@code 1.0} repeats {@code 1}.
     */
    public static CompiledSql refusedKeys(TableDef table, String[][] keys) {
        List<ColumnDef> columns = table.keyColumns();
        SqlBuilder b = new SqlBuilder().sql("SELECT ");
        for (ColumnDef key : columns) {
            b.sql("CAST(").qualified("k", key.physical()).sql(" AS text), ");
        }
        b.sql("count(*) > 1 FROM (");
        source(b, columns, keys, null);
        b.sql(") AS k GROUP BY ");
        list(b, columns, "k");
        b.sql(" HAVING count(*) > 1 OR EXISTS (SELECT 1 FROM ").table(table.currentTable()).sql(" AS cur WHERE ");
        for (ColumnDef key : columns) {
            b.qualified("cur", key.physical()).sql(" = ").qualified("k", key.physical()).sql(" AND ");
        }
        if (table.mode() == TableMode.SYSTEM) {
            b.qualified("cur", "_to").sql(" IS NULL");
        } else {
            b.sql("(");
            RelationCompiler.liveFilter(b, table, "cur");
            b.sql(")");
        }
        return b.sql(") LIMIT 1").build();
    }

    private static void source(SqlBuilder b, List<ColumnDef> columns, String[][] values, Integer[] positions) {
        source(b, columns, values, positions, ColumnDef::physical);
    }

    /**
     * {@code SELECT CAST(a0 AS type) AS "c1", ... FROM unnest(?, ...) AS u(a0, ...)}: typed rows from text
     * arrays ({@code values[c][r]}: column c of row r), each column named by {@code name} (its storage
     * name, or its user name where the rows meet a relation that uses those).
     */
    static void source(SqlBuilder b, List<ColumnDef> columns, String[][] values, Integer[] positions,
                       java.util.function.Function<ColumnDef, String> name) {
        b.sql("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").sql("CAST(u.a" + i + " AS ").sql(columns.get(i).type().sql()).sql(") AS ")
                    .ident(name.apply(columns.get(i)));
        }
        if (positions != null) {
            b.sql(columns.isEmpty() ? "" : ", ").sql("u.pos AS ").ident("_pos");
        }
        b.sql(" FROM unnest(");
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").bind(new ArrayBind("text", values[i]));
        }
        if (positions != null) {
            b.sql(columns.isEmpty() ? "" : ", ").bind(new ArrayBind("int4", positions));
        }
        b.sql(") AS u(");
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").sql("a" + i);
        }
        if (positions != null) {
            b.sql(columns.isEmpty() ? "" : ", ").sql("pos");
        }
        b.sql(")");
    }

    private static void list(SqlBuilder b, List<ColumnDef> columns, String qualifier) {
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "");
            if (qualifier == null) {
                b.ident(columns.get(i).physical());
            } else {
                b.qualified(qualifier, columns.get(i).physical());
            }
        }
    }

    /**
     * The rows an UPDATE matches, with their new values, each column as text: read first and then
     * written as versions, so every group sees the rows as they were before the statement.
     */
    public static CompiledSql updatedRows(BoundChange.Update update, List<Object> params) {
        return queriedRows(update.matched(), update.table(), update.columns(), false, params);
    }

    /**
     * {@link #updatedRows} of several UPDATEs in one read, each row led by its statement's place in
     * {@code updates} (from 0): one round trip where each UPDATE made one. Every branch reads the rows
     * as they were before any of them is written, which is the state each would see alone only when
     * none of them matches a row another writes (the engine's condition for reading them together).
     */
    public static CompiledSql updatedRows(List<BoundChange.Update> updates, List<Object> params) {
        SqlBuilder b = new SqlBuilder();
        for (int u = 0; u < updates.size(); u++) {
            BoundChange.Update update = updates.get(u);
            b.sql(u > 0 ? " UNION ALL " : "").sql("SELECT ").number(u).sql(", ");
            rowsAsText(b, update.matched(), update.columns(), params);
        }
        return b.build();
    }

    /** The keys of the current rows a DELETE's WHERE matches, as text. */
    public static CompiledSql deletedKeys(BoundChange.Delete delete, List<Object> params) {
        return queriedRows(delete.matched(), delete.table(), delete.table().keyColumns(), false, params);
    }

    /**
     * The rows of INSERT/UPSERT ... query, as text per target column: each value cast to its
     * column's type as an INSERT would, in the query's own order, else ({@code byKey}) ordered by the
     * target's key columns among {@code columns}, so the write is deterministic.
     */
    public static CompiledSql queriedRows(BoundSelect bound, TableDef table, List<ColumnDef> columns, boolean byKey,
                                          List<Object> params) {
        SqlBuilder b = new SqlBuilder().sql("SELECT ");
        rowsAsText(b, bound, columns, params);
        if (byKey) {
            int n = 0;
            for (ColumnDef key : table.keyColumns()) {
                for (int i = 0; i < columns.size(); i++) {
                    if (columns.get(i).name().equals(key.name())) {
                        b.sql(n++ == 0 ? " ORDER BY " : ", ").number(i + 1);
                    }
                }
            }
        }
        return b.build();
    }

    /**
     * What UPDATEs that assign only values read, in one statement whose text does not depend on how many there
     * are (a UNION of one branch each is planned at every use): the current row of each key given, with the
     * values given put in, each of {@code columns} as text after the key's place in the list. {@code keys[k][i]}
     * is key column k of key i, as text PostgreSQL reads as {@code keyTypes[k]}; {@code given[c][i]} the text
     * of column c's new value for key i, cast to the column's type as each UPDATE's own read casts a value
     * (null for a column the UPDATEs keep).
     */
    public static CompiledSql updatedRowsOfKeys(TableDef table, List<ColumnDef> columns, String[][] keys,
                                                String[] keyTypes, String[][] given) {
        SqlBuilder b = new SqlBuilder().sql("SELECT ").qualified("k", "_pos");
        for (int c = 0; c < columns.size(); c++) {
            ColumnDef column = columns.get(c);
            if (given[c] != null) {
                b.sql(", CAST(CAST(").qualified("k", "v" + c).sql(" AS ").sql(column.type().sql()).sql(") AS text)");
            } else {
                b.sql(", CAST(").qualified("r", column.name()).sql(" AS text)");
            }
        }
        b.sql(" FROM ");
        RelationCompiler.current(b, table);
        b.sql(" AS r JOIN (SELECT u.pos AS ").ident("_pos");
        for (int k = 0; k < keys.length; k++) {
            b.sql(", CAST(u.k" + k + " AS ").sql(keyTypes[k]).sql(") AS ").ident("k" + k);
        }
        for (int c = 0; c < columns.size(); c++) {
            if (given[c] != null) {
                b.sql(", u.v" + c + " AS ").ident("v" + c);
            }
        }
        b.sql(" FROM unnest(");
        Integer[] places = new Integer[keys[0].length];
        for (int i = 0; i < places.length; i++) {
            places[i] = i;
        }
        for (String[] key : keys) {
            b.bind(new ArrayBind("text", key)).sql(", ");
        }
        for (String[] values : given) {
            if (values != null) {
                b.bind(new ArrayBind("text", values)).sql(", ");
            }
        }
        b.bind(new ArrayBind("int4", places)).sql(") AS u(");
        for (int k = 0; k < keys.length; k++) {
            b.sql("k" + k + ", ");
        }
        for (int c = 0; c < columns.size(); c++) {
            if (given[c] != null) {
                b.sql("v" + c + ", ");
            }
        }
        b.sql("pos)) AS k ON ");
        List<ColumnDef> keyColumns = table.keyColumns();
        for (int k = 0; k < keyColumns.size(); k++) {
            b.sql(k > 0 ? " AND " : "").qualified("r", keyColumns.get(k).name()).sql(" = ").qualified("k", "k" + k);
        }
        return b.build();
    }

    /** A select list of {@code bound}'s columns, each cast to its column's type and then to text, and its FROM. */
    private static void rowsAsText(SqlBuilder b, BoundSelect bound, List<ColumnDef> columns, List<Object> params) {
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").sql("CAST(CAST(").qualified("q", "c" + i).sql(" AS ")
                    .sql(columns.get(i).type().sql()).sql(") AS text)");
        }
        b.sql(" FROM (");
        SelectCompiler.emit(b, bound, params);
        b.sql(") AS ").ident("q").sql("(");
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").ident("c" + i);
        }
        b.sql(")");
    }
}
