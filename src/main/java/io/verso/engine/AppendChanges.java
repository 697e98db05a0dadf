package io.verso.engine;

import io.verso.analyze.SystemTables;
import io.verso.catalog.TableDef;
import io.verso.compile.AppendCompiler;
import io.verso.compile.CheckCompiler;
import io.verso.compile.ExprCompiler;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Statement;
import java.util.List;
import java.util.Map;

/**
 * UPDATE and DELETE of APPEND tables, with PostgreSQL's meaning for the current rows: each one set-based
 * statement in the request's transaction, so it is atomic in the request's commit, and a failing statement or
 * a ROLLBACK leaves nothing. History is kept as an APPEND table keeps it ({@link AppendCompiler}): a row is
 * ended, never changed, so AS OF a commit before the statement still reads the rows as they were.
 */
final class AppendChanges {

    private final SqlRunner sql;

    AppendChanges(SqlRunner sql) {
        this.sql = sql;
    }

    /** The UPDATE's new rows take the request's positions from {@code position} on, one per row updated. */
    StatementResult.Written update(Statement.Update update, TableDef table, RequestContext request, int position) {
        Map<String, Expr> assigned = SystemTables.assignments(update, table);
        ExprCompiler exprs = MatchedRows.expressions(update.table(), request, update.where(),
                List.copyOf(assigned.values()), "UPDATE ... SET");
        long rows = MatchedRows.refusingNull(table, update, () -> sql.counts(AppendCompiler.update(table,
                table.name(), assigned, update.where(), exprs, request.commit(), position))[0]);
        if (rows == 0) {
            return StatementResult.Written.empty("UPDATE", table.name());
        }
        Checks.verify(sql, table, checks -> CheckCompiler.written(table, checks, request.commit()), update.pos());
        request.touch(table.name(), rows);
        return new StatementResult.Written("UPDATE", table.name(), rows, rows, rows, 0, List.of(), new boolean[0]);
    }

    StatementResult delete(Statement.Delete delete, TableDef table, RequestContext request) {
        SystemTables.checkDelete(delete, table);
        ExprCompiler exprs = MatchedRows.expressions(delete.table(), request, delete.where(), List.of(), "DELETE");
        long rows = sql.counts(AppendCompiler.delete(table, table.name(), delete.where(), exprs, request.commit()))[0];
        if (rows == 0) {
            return StatementResult.Written.empty("DELETE", table.name());
        }
        request.touch(table.name(), rows);
        return new StatementResult.Written("DELETE", table.name(), rows, rows, 0, 0, List.of(), new boolean[0]);
    }
}
