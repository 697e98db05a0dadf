package io.verso.pgwire;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.io.IOException;

/**
 * An ErrorResponse: SQLSTATE, message, Verso's stable code (in the detail field, as {@code code: KEY_EXISTS}),
 * a hint, and the 1-based character position in the statement text the client sent (0: none).
 */
record PgError(boolean fatal, String sqlState, String message, ErrorCode code, String hint, int position) {

    static PgError of(VersoException e, int position) {
        String hint = e.code() == ErrorCode.TRANSACTION_NOT_ENDED
                ? "over the PostgreSQL protocol a transaction begins and ends within one Query message or one Sync: "
                + "turn autocommit on (pgjdbc: setAutoCommit(true); psycopg2: autocommit = True)" : null;
        String message = e instanceof VersoException.ServerError && e.code() == ErrorCode.INTERNAL_ERROR
                ? "internal error" : e.getMessage();
        return new PgError(false, SqlStates.of(e.code()), message, e.code(), hint, position);
    }

    static PgError error(String sqlState, String message) {
        return new PgError(false, sqlState, message, null, null, 0);
    }

    static PgError fatal(String sqlState, String message, ErrorCode code) {
        return new PgError(true, sqlState, message, code, null, 0);
    }

    void write(WireOutput out) throws IOException {
        String severity = fatal ? "FATAL" : "ERROR";
        out.begin('E').byte1('S').cstring(severity).byte1('V').cstring(severity).byte1('C').cstring(sqlState)
                .byte1('M').cstring(message == null ? "" : message);
        if (code != null) {
            out.byte1('D').cstring("code: " + code.name());
        }
        if (hint != null) {
            out.byte1('H').cstring(hint);
        }
        if (position > 0) {
            out.byte1('P').cstring(Integer.toString(position));
        }
        out.byte1(0).end();
    }
}
