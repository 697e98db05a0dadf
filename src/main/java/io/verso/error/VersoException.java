package io.verso.error;

/**
 * Every failure Verso reports. {@link UserError} is the caller's fault and never leaves anything
 * written; {@link ServerError} is ours or the database's. Each surface renders them in one place.
 */
public abstract sealed class VersoException extends RuntimeException
        permits VersoException.UserError, VersoException.ServerError {

    private final ErrorCode code;

    VersoException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    /** Bad input: a 4xx. {@code line}/{@code column} are 1-based positions in the request text, or 0. */
    public static final class UserError extends VersoException {
        private final int line;
        private final int column;
        private final String pointer;

        public UserError(ErrorCode code, String message, int line, int column, String pointer) {
            super(code, message, null);
            this.line = line;
            this.column = column;
            this.pointer = pointer;
        }

        public int line() {
            return line;
        }

        public int column() {
            return column;
        }

        /** A JSON pointer or parameter name naming the offending input, or null. */
        public String pointer() {
            return pointer;
        }
    }

    public static final class ServerError extends VersoException {
        public ServerError(ErrorCode code, String message, Throwable cause) {
            super(code, message, cause);
        }
    }

    public static UserError user(ErrorCode code, String message) {
        return new UserError(code, message, 0, 0, null);
    }

    public static UserError at(ErrorCode code, String message, io.verso.sql.ast.Pos pos) {
        return pos == null ? user(code, message) : new UserError(code, message, pos.line(), pos.column(), null);
    }

    public static UserError pointing(ErrorCode code, String message, String pointer) {
        return new UserError(code, message, 0, 0, pointer);
    }
}
