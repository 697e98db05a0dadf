package io.verso.engine;

import io.verso.analyze.ReadAnalyzer;
import io.verso.catalog.TableDef;
import io.verso.compile.ExprCompiler;
import io.verso.compile.SelectCompiler;
import io.verso.error.Refusals;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;
import java.util.List;
import java.util.function.LongSupplier;
import org.postgresql.util.PSQLException;
import org.springframework.dao.DataAccessException;

/**
 * What the set-based UPDATE and DELETE of tables that store whole rows (SYSTEM: {@link SystemVersioning},
 * APPEND: {@link AppendChanges}) share: their WHERE and assigned values bound as a read of the target's
 * current rows, and PostgreSQL's NOT NULL refusal of an UPDATE told in the user's words.
 */
final class MatchedRows {

    private MatchedRows() {
    }

    /**
     * The WHERE and assigned values bound by the read analyzer as {@code SELECT values FROM target WHERE where}
     * (the table's current rows by its name, period columns too, subqueries as in any read), and the compiler
     * that emits them with those bindings.
     */
    static ExprCompiler expressions(Ident target, RequestContext request, Expr where, List<Expr> values,
                                    String clause) {
        return SelectCompiler.expressions(ReadAnalyzer.matched(target, values, where, clause, request.reads(),
                request.asOf(), request.params().size()), request.params());
    }

    /**
     * PostgreSQL holds these tables' NOT NULL columns (whole rows are stored): its refusal of an UPDATE's NULL,
     * told by the user's column name rather than the storage's, at the statement.
     */
    static long refusingNull(TableDef table, Statement.Update update, LongSupplier write) {
        try {
            return write.getAsLong();
        } catch (DataAccessException e) {
            if (e.getMostSpecificCause() instanceof PSQLException pg && "23502".equals(pg.getSQLState())
                    && pg.getServerErrorMessage() != null && pg.getServerErrorMessage().getColumn() != null) {
                var column = table.columnByPhysical(pg.getServerErrorMessage().getColumn());
                if (column.isPresent()) {
                    throw Refusals.updateGivesNull(column.get().name(), table.name(), update.pos());
                }
            }
            throw e;
        }
    }
}
