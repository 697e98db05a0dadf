package io.verso.compile;

import io.verso.analyze.CheckConstraints;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import java.util.List;

/**
 * The query that verifies a table's CHECK constraints after a write: the first current row among
 * those the write may have changed for which a check is false, with the index of that check and the
 * row as JSON (the user's column names). A check that is NULL passes, as in SQL. Each expression is
 * compiled like any other (columns by name, literals as binds): PostgreSQL never stores it.
 */
public final class CheckCompiler {

    private CheckCompiler() {
    }

    /** Rows of an UPSERT or VERSIONED table with one of the keys (key column arrays, as text), as they are now. */
    public static CompiledSql keyed(TableDef table, List<CheckConstraints.Bound> checks, String[][] keyValues) {
        SqlBuilder b = select(table, checks);
        b.sql(" FROM ");
        RelationCompiler.current(b, table);
        b.sql(" AS ").ident(table.name()).sql(" JOIN (");
        List<ColumnDef> keys = table.keyColumns();
        WriteCompiler.source(b, keys, keyValues, null, ColumnDef::name);
        b.sql(") AS ").ident("_verso_keys").sql(" ON ");
        for (int i = 0; i < keys.size(); i++) {
            b.sql(i > 0 ? " AND " : "").qualified(table.name(), keys.get(i).name()).sql(" = ")
                    .qualified("_verso_keys", keys.get(i).name());
        }
        return where(b, table, checks);
    }

    /**
     * Current rows an APPEND table received in commit {@code commit}, or the current versions a SYSTEM table's
     * rows got in it (both found by index); with {@code commit} null, every current row (the table's own
     * definition checked against its empty table when it is created).
     */
    public static CompiledSql written(TableDef table, List<CheckConstraints.Bound> checks, Long commit) {
        SqlBuilder b = select(table, checks);
        b.sql(" FROM (SELECT ");
        List<ColumnDef> columns = table.columns();
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").ident(columns.get(i).physical()).sql(" AS ").ident(columns.get(i).name());
        }
        b.sql(" FROM ").table(table.currentTable()).sql(" WHERE ");
        if (table.mode() == TableMode.SYSTEM) {
            b.ident("_to").sql(" IS NULL");
            if (commit != null) {
                b.sql(" AND ").ident("_from").sql(" = ").bind(commit);
            }
        } else if (table.mode() == TableMode.APPEND) {
            b.ident("_to").sql(" IS NULL");
            if (commit != null) {
                b.sql(" AND ").ident("_commit").sql(" = ").bind(commit);
            }
        } else {
            b.sql("(");
            RelationCompiler.liveFilter(b, table, null);
            b.sql(")");
        }
        b.sql(") AS ").ident(table.name());
        return where(b, table, checks);
    }

    private static SqlBuilder select(TableDef table, List<CheckConstraints.Bound> checks) {
        SqlBuilder b = new SqlBuilder().sql("SELECT CASE");
        for (int i = 0; i < checks.size(); i++) {
            b.sql(" WHEN ");
            falseCheck(b, checks.get(i));
            b.sql(" THEN ").number(i);
        }
        return b.sql(" END, CAST(to_jsonb(").ident(table.name()).sql(") AS text)");
    }

    private static CompiledSql where(SqlBuilder b, TableDef table, List<CheckConstraints.Bound> checks) {
        b.sql(" WHERE ");
        for (int i = 0; i < checks.size(); i++) {
            b.sql(i > 0 ? " OR " : "");
            falseCheck(b, checks.get(i));
        }
        return b.sql(" LIMIT 1").build();
    }

    private static void falseCheck(SqlBuilder b, CheckConstraints.Bound check) {
        b.sql("((");
        new ExprCompiler(null, List.of()).emit(b, check.expr());
        b.sql(") IS FALSE)");
    }
}
