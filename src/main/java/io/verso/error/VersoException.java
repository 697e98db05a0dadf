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

    /** Bad input: a 4xx, located at its {@link Origin} in the caller's input where known. */
    public static final class UserError extends VersoException {
        private final Origin origin;

        public UserError(ErrorCode code, String message, Origin origin) {
            super(code, message, null);
            this.origin = origin;
        }

        /** Where in the caller's input the error is, or null. */
        public Origin origin() {
            return origin;
        }

        /** 1-based line in the request text, or 0 when the error is not located in text. */
        public int line() {
            return origin instanceof Origin.Text t ? t.line() : 0;
        }

        public int column() {
            return origin instanceof Origin.Text t ? t.column() : 0;
        }

        /** A JSON pointer, parameter name or GraphQL argument path naming the offending input, or null. */
        public String pointer() {
            return origin == null || origin instanceof Origin.Text ? null : origin.toString();
        }
    }

    public static final class ServerError extends VersoException {
        public ServerError(ErrorCode code, String message, Throwable cause) {
            super(code, message, cause);
        }
    }

    public static UserError user(ErrorCode code, String message) {
        return new UserError(code, message, null);
    }

    public static UserError at(ErrorCode code, String message, Located where) {
        return new UserError(code, message, where == null ? null : where.origin());
    }

    /** An error about a JSON body field or a request parameter, named by {@code pointer}. */
    public static UserError pointing(ErrorCode code, String message, String pointer) {
        return new UserError(code, message, pointer == null ? null : new Origin.Pointer(pointer));
    }

    /** An error about a GraphQL argument, named by its path. */
    public static UserError argument(ErrorCode code, String message, String path) {
        return new UserError(code, message, new Origin.Argument(path));
    }
}
