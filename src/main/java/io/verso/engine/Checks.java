package io.verso.engine;

import io.verso.analyze.CheckConstraints;
import io.verso.catalog.CheckDef;
import io.verso.catalog.TableDef;
import io.verso.compile.CheckCompiler;
import io.verso.compile.CompiledSql;
import io.verso.error.ErrorCode;
import io.verso.error.Located;
import io.verso.error.VersoException;
import java.util.List;
import java.util.function.Function;
import org.springframework.dao.DataAccessException;

/**
 * CHECK constraints, enforced by the engine after each write statement on the rows it may have
 * changed, as they are once the statement is done (not by PostgreSQL on the storage tables, whose
 * rows are one group's winner at a time, written group by group, with tombstones and closed versions
 * beside the current rows). A violation fails the request: its transaction is rolled back, nothing is written.
 */
final class Checks {

    private Checks() {
    }

    static List<CheckConstraints.Bound> bound(TableDef table) {
        return CheckConstraints.bound(table);
    }

    /** Runs the verification {@code query} built for the table's checks; refuses the first violating row. */
    static void verify(SqlRunner sql, TableDef table, Function<List<CheckConstraints.Bound>, CompiledSql> query,
                       Located where) {
        if (table.checks().isEmpty()) {
            return;
        }
        List<CheckConstraints.Bound> checks = bound(table);
        List<String[]> violation = sql.texts(query.apply(checks));
        if (!violation.isEmpty()) {
            CheckDef check = checks.get(Integer.parseInt(violation.get(0)[0])).def();
            throw VersoException.at(ErrorCode.CHECK_VIOLATION, "row " + violation.get(0)[1] + " of " + table.name()
                    + " violates CHECK constraint " + check.name() + " (" + check.expression() + ")", where);
        }
    }

    /**
     * A new table's checks compiled and run over its (empty) storage, so that PostgreSQL judges their
     * types now: a CHECK that is not a boolean, or compares a number with a date, is refused at CREATE.
     */
    static void validate(SqlRunner sql, TableDef table) {
        for (CheckDef check : table.checks()) {
            try {
                sql.texts(CheckCompiler.written(table, List.of(CheckConstraints.bind(table, check)), null));
            } catch (DataAccessException e) {
                throw VersoException.user(ErrorCode.INVALID_DEFINITION, "CHECK constraint " + check.name() + " ("
                        + check.expression() + ") is not a valid condition on the columns of " + table.name() + ": "
                        + PgErrors.translate(e).getMessage());
            }
        }
    }
}
