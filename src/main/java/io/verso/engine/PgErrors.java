package io.verso.engine;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.sql.SQLException;
import org.postgresql.util.PSQLException;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

/**
 * PostgreSQL failures as Verso errors. Input the analyzer could not judge (a value PostgreSQL
 * rejects, an operator on the wrong types) is the caller's fault; everything else is ours.
 */
public final class PgErrors {

    private PgErrors() {
    }

    public static VersoException translate(RuntimeException e) {
        if (poolExhausted(e)) {
            return new VersoException.ServerError(ErrorCode.OVERLOADED, "too many requests are running: no database "
                    + "connection became free in time; retry shortly", e);
        }
        Throwable cause = e instanceof DataAccessException dae ? dae.getMostSpecificCause() : e;
        if (cause instanceof SQLException sql && sql.getSQLState() != null) {
            String state = sql.getSQLState();
            String message = withoutStorageNames(cause instanceof PSQLException psql
                    && psql.getServerErrorMessage() != null ? psql.getServerErrorMessage().getMessage()
                    : sql.getMessage());
            ErrorCode code = switch (state) {
                case "22012" -> ErrorCode.DIVISION_BY_ZERO;
                case "42883", "42804", "42846", "42725", "42P08", "42P18" -> ErrorCode.TYPE_MISMATCH;
                case "42803", "42P10", "42P20", "42601" -> ErrorCode.INVALID_EXPRESSION;
                case "57014" -> ErrorCode.STATEMENT_TIMEOUT;
                case "40001", "40P01", "55P03" -> ErrorCode.WRITE_CONFLICT;
                case "42703" -> ErrorCode.UNKNOWN_COLUMN;
                case "42702" -> ErrorCode.AMBIGUOUS_COLUMN;
                case "23505" -> ErrorCode.UNIQUE_VIOLATION;
                case "23514" -> ErrorCode.CHECK_VIOLATION;
                case "23502" -> ErrorCode.NOT_NULL_VIOLATION;
                // A scalar subquery that returned several rows; a query PostgreSQL finds too complex.
                case "21000" -> ErrorCode.INVALID_EXPRESSION;
                case "54000", "54001" -> ErrorCode.STATEMENT_TOO_LARGE;
                // verso.concat_fits (V16): a || chain over verso.max-concat-bytes.
                case "54V01" -> ErrorCode.VALUE_TOO_LARGE;
                // verso.recursion_step (V27): WITH RECURSIVE past verso.max-recursive-rows.
                case "54V02" -> ErrorCode.RECURSION_LIMIT;
                // temp_file_limit exceeded (ResourceLimits), or memory the server would not give one statement.
                case "53400", "53200" -> ErrorCode.RESOURCE_LIMIT;
                default -> state.startsWith("22") ? ErrorCode.INVALID_VALUE
                        // Other rule violations of a read the analyzer let through (a type PostgreSQL cannot
                        // compare, a set operation over incompatible types): the statement's fault.
                        : state.startsWith("42") || state.startsWith("0A") ? ErrorCode.INVALID_EXPRESSION
                        : state.startsWith("08") || state.startsWith("53") || state.startsWith("57")
                        ? ErrorCode.DATABASE_UNAVAILABLE : ErrorCode.INTERNAL_ERROR;
            };
            if (tooLargeToAllocate(state, message)) {
                return VersoException.user(ErrorCode.VALUE_TOO_LARGE, "a value the statement computes is larger than "
                        + "PostgreSQL's limit of 1 GB for one value (" + message + "); narrow it (WHERE, LIMIT) or "
                        + "compute less in one value");
            }
            if (code == ErrorCode.STATEMENT_TIMEOUT) {
                return VersoException.user(code, "the statement ran longer than the statement timeout "
                        + "(verso.statement-timeout); narrow it (WHERE, LIMIT) or split it");
            }
            if (code == ErrorCode.RESOURCE_LIMIT) {
                return VersoException.user(code, message + ": the statement needs more than one request may use "
                        + "(verso.temp-file-limit, verso.work-mem); narrow it (WHERE, LIMIT) or split it");
            }
            if (code.status() < 500) {
                return VersoException.user(code, message);
            }
            return new VersoException.ServerError(code, message, e);
        }
        if (e instanceof TransactionException || e instanceof DataAccessException) {
            return new VersoException.ServerError(ErrorCode.DATABASE_UNAVAILABLE, "the database is unavailable", e);
        }
        return new VersoException.ServerError(ErrorCode.INTERNAL_ERROR, "internal error", e);
    }

    private static final java.util.regex.Pattern OF_STORAGE = java.util.regex.Pattern.compile(
            " of relation \"t\\d+_\\w*\"");
    private static final java.util.regex.Pattern STORAGE = java.util.regex.Pattern.compile(
            "(relation|constraint|index) \"t\\d+_\\w*\"");
    private static final java.util.regex.Pattern STORAGE_COLUMN = java.util.regex.Pattern.compile("column \"c\\d+\"");

    /**
     * PostgreSQL's message without the names of storage relations, constraints, indexes and columns
     * ({@code t28_cur}, {@code t302_cur_c1_idx}, {@code c3}): they are ids of the catalog's, meaningless to a
     * caller and a hint at tables it may not know of. The kind of object stays, so the message still reads.
     */
    static String withoutStorageNames(String message) {
        if (message == null) {
            return null;
        }
        String without = OF_STORAGE.matcher(message).replaceAll("");
        without = STORAGE.matcher(without).replaceAll("$1");
        return STORAGE_COLUMN.matcher(without).replaceAll("a column");
    }

    /**
     * PostgreSQL refuses to allocate more than 1 GB for one value with an internal error (XX000, "invalid
     * memory alloc request size n"): an aggregate or function whose result grew past that limit. Only
     * the statement's data made it that large, so it is the caller's to narrow; every other XX000 stays
     * an internal error.
     */
    private static boolean tooLargeToAllocate(String state, String message) {
        return "XX000".equals(state) && message != null && message.startsWith("invalid memory alloc request size");
    }

    /**
     * The statement was cancelled by its statement timeout (SQLSTATE 57014; a cancel by request shares the
     * state and is reported the same way by {@link #translate}).
     */
    static boolean timedOut(DataAccessException e) {
        return e.getMostSpecificCause() instanceof SQLException sql && "57014".equals(sql.getSQLState());
    }

    /**
     * The pool gave no connection in time while the database was reachable: Hikari's timeout carries the
     * last connection failure as its cause when there was one (the database is away), none when every
     * connection was simply busy.
     */
    private static boolean poolExhausted(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLTransientConnectionException timeout) {
                return timeout.getCause() == null && timeout.getSQLState() == null;
            }
        }
        return false;
    }
}
