package io.verso.compile;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.sql.ast.Expr;
import java.util.List;
import java.util.Map;

/**
 * UPDATE and DELETE of an APPEND table, each one statement. An APPEND table keeps every row it was
 * given ({@link DdlCompiler}): a row is never changed or removed in place but ended, its {@code _to}
 * set to the commit of the UPDATE or DELETE, so AS OF an earlier commit reads it as it was
 * ({@link RelationCompiler}). An UPDATE appends the new values as rows of its commit, after the
 * commit's earlier rows, in the order the replaced rows were written. A row its own commit appended
 * and ended was never current at any commit: it reads nowhere, and history lists it as never current.
 * The rows a statement matches are found by their physical address ({@code ctid}) within the one
 * statement: an APPEND row has no key, and nothing else writes the table meanwhile (writers of one
 * table run one after another).
 */
public final class AppendCompiler {

    private AppendCompiler() {
    }

    /**
     * UPDATE: every matched current row's values after the assignments are computed first (every assignment
     * sees the row as it was), then the row is ended at {@code commit} and the new values appended at
     * positions from {@code position} on. Returns one row: the number of rows updated.
     */
    public static CompiledSql update(TableDef table, String alias, Map<String, Expr> assigned, Expr where,
                                     ExprCompiler exprs, long commit, int position) {
        List<ColumnDef> columns = table.columns();
        SqlBuilder b = new SqlBuilder().sql("WITH ").ident("m").sql(" AS (SELECT ").qualified(alias, "_row")
                .sql(", ").qualified(alias, "_commit").sql(", ").qualified(alias, "_pos");
        for (int i = 0; i < columns.size(); i++) {
            ColumnDef column = columns.get(i);
            b.sql(", ");
            Expr value = assigned.get(column.name());
            if (value == null) {
                b.qualified(alias, column.name());
            } else {
                b.sql("CAST((");
                exprs.emit(b, value);
                b.sql(") AS ").sql(column.type().sql()).sql(")");
            }
            b.sql(" AS ").ident("v" + i);
        }
        matched(b, table, alias, where, exprs);
        // The new rows are appended from the rows the UPDATE ended, all of them first (the window sorts them):
        // a unique index over current rows then never sees a row and its replacement current at once.
        b.sql("), ").ident("e").sql(" AS (");
        end(b, table, commit);
        b.sql(" RETURNING ").qualified("m", "_commit").sql(", ").qualified("m", "_pos");
        for (int i = 0; i < columns.size(); i++) {
            b.sql(", ").qualified("m", "v" + i);
        }
        b.sql("), ").ident("i").sql(" AS (INSERT INTO ").table(table.currentTable()).sql(" (");
        for (ColumnDef column : columns) {
            b.ident(column.physical()).sql(", ");
        }
        b.ident("_commit").sql(", ").ident("_pos").sql(") SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            b.qualified("e", "v" + i).sql(", ");
        }
        b.bind(commit).sql(", ").bind(position).sql(" + CAST(row_number() OVER (ORDER BY ").qualified("e", "_commit")
                .sql(", ").qualified("e", "_pos").sql(") AS integer) - 1 FROM ").ident("e")
                .sql(" RETURNING 1) SELECT count(*) FROM ").ident("i");
        return b.build();
    }

    /** DELETE: every matched current row is ended at {@code commit}. Returns the number of rows deleted. */
    public static CompiledSql delete(TableDef table, String alias, Expr where, ExprCompiler exprs, long commit) {
        SqlBuilder b = new SqlBuilder().sql("WITH ").ident("m").sql(" AS (SELECT ").qualified(alias, "_row");
        matched(b, table, alias, where, exprs);
        b.sql("), ").ident("e").sql(" AS (");
        end(b, table, commit);
        return b.sql(" RETURNING 1) SELECT count(*) FROM ").ident("e").build();
    }

    /**
     * {@code FROM (current rows) AS alias WHERE where}: the table's current rows under the user's column names
     * (as every read sees them), with their address, commit and position.
     */
    private static void matched(SqlBuilder b, TableDef table, String alias, Expr where, ExprCompiler exprs) {
        b.sql(" FROM (SELECT ").ident("ctid").sql(" AS ").ident("_row").sql(", ").ident("_commit").sql(", ")
                .ident("_pos");
        for (ColumnDef column : table.columns()) {
            b.sql(", ").ident(column.physical()).sql(" AS ").ident(column.name());
        }
        b.sql(" FROM ").table(table.currentTable()).sql(" WHERE ").ident("_to").sql(" IS NULL) AS ").ident(alias);
        if (where != null) {
            b.sql(" WHERE ");
            exprs.emit(b, where);
        }
    }

    /** Ends the rows of {@code m} at {@code commit}. */
    private static void end(SqlBuilder b, TableDef table, long commit) {
        b.sql("UPDATE ").table(table.currentTable()).sql(" AS ").ident("x").sql(" SET ").ident("_to").sql(" = ")
                .bind(commit).sql(" FROM ").ident("m").sql(" WHERE ").qualified("x", "ctid").sql(" = ")
                .qualified("m", "_row");
    }
}
