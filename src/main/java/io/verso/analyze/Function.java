package io.verso.analyze;

import java.util.Locale;
import java.util.Optional;

/**
 * The dialect's fixed list of functions; the compiler emits these names, never the user's text.
 * {@code kind} says where a call may stand: aggregates in SELECT, HAVING, ORDER BY and windows;
 * window-only functions only with OVER; set-returning ones only in FROM; {@code bare} ones are written without
 * parentheses.
 */
public enum Function {
    // Aggregates.
    COUNT(1, 1, Kind.AGGREGATE), SUM(1, 1, Kind.AGGREGATE), MIN(1, 1, Kind.AGGREGATE), MAX(1, 1, Kind.AGGREGATE),
    AVG(1, 1, Kind.AGGREGATE), BOOL_AND(1, 1, Kind.AGGREGATE), BOOL_OR(1, 1, Kind.AGGREGATE),
    STRING_AGG(2, 2, Kind.AGGREGATE), ARRAY_AGG(1, 1, Kind.AGGREGATE), STDDEV(1, 1, Kind.AGGREGATE),
    VARIANCE(1, 1, Kind.AGGREGATE), JSONB_AGG(1, 1, Kind.AGGREGATE),
    PERCENTILE_CONT(1, 1, Kind.ORDERED_SET), PERCENTILE_DISC(1, 1, Kind.ORDERED_SET),
    // Window functions.
    ROW_NUMBER(0, 0, Kind.WINDOW), RANK(0, 0, Kind.WINDOW), DENSE_RANK(0, 0, Kind.WINDOW), LAG(1, 3, Kind.WINDOW),
    LEAD(1, 3, Kind.WINDOW), FIRST_VALUE(1, 1, Kind.WINDOW), LAST_VALUE(1, 1, Kind.WINDOW), NTILE(1, 1, Kind.WINDOW),
    // Conditionals.
    COALESCE(1, 100, Kind.SCALAR), NULLIF(2, 2, Kind.SCALAR), GREATEST(1, 100, Kind.SCALAR),
    LEAST(1, 100, Kind.SCALAR),
    // Strings.
    LOWER(1, 1, Kind.SCALAR), UPPER(1, 1, Kind.SCALAR), LENGTH(1, 1, Kind.SCALAR), SUBSTRING(2, 3, Kind.SCALAR),
    POSITION(2, 2, Kind.SCALAR), TRIM(1, 2, Kind.SCALAR), LTRIM(1, 2, Kind.SCALAR), RTRIM(1, 2, Kind.SCALAR),
    REPLACE(3, 3, Kind.SCALAR), LEFT(2, 2, Kind.SCALAR), RIGHT(2, 2, Kind.SCALAR), CONCAT(1, 100, Kind.SCALAR),
    SPLIT_PART(3, 3, Kind.SCALAR), LPAD(2, 3, Kind.SCALAR), RPAD(2, 3, Kind.SCALAR), STARTS_WITH(2, 2, Kind.SCALAR),
    QUOTE_IDENT(1, 1, Kind.SCALAR), STRING_TO_ARRAY(2, 3, Kind.SCALAR), PARSE_IDENT(1, 2, Kind.SCALAR),
    // Arrays.
    ARRAY_LENGTH(2, 2, Kind.SCALAR), ARRAY_LOWER(2, 2, Kind.SCALAR), ARRAY_UPPER(2, 2, Kind.SCALAR),
    GENERATE_SERIES(2, 3, Kind.SET_RETURNING),
    // The session as PostgreSQL clients ask for it: values of the service, bound (ServerSettings), never
    // PostgreSQL's own (its role and settings are the storage's).
    CURRENT_SETTING(1, 1, Kind.SCALAR), CURRENT_USER(0, 0, Kind.BARE), SESSION_USER(0, 0, Kind.BARE),
    USER(0, 0, Kind.BARE),
    // Math.
    ABS(1, 1, Kind.SCALAR), ROUND(1, 2, Kind.SCALAR), TRUNC(1, 2, Kind.SCALAR), CEIL(1, 1, Kind.SCALAR),
    FLOOR(1, 1, Kind.SCALAR), MOD(2, 2, Kind.SCALAR), POWER(2, 2, Kind.SCALAR), SQRT(1, 1, Kind.SCALAR),
    SIGN(1, 1, Kind.SCALAR), LN(1, 1, Kind.SCALAR), LOG(1, 2, Kind.SCALAR), EXP(1, 1, Kind.SCALAR),
    // Time.
    NOW(0, 0, Kind.SCALAR), CURRENT_DATE(0, 0, Kind.BARE), CURRENT_TIMESTAMP(0, 0, Kind.BARE),
    DATE_TRUNC(2, 2, Kind.SCALAR), DATE_PART(2, 2, Kind.SCALAR), MAKE_DATE(3, 3, Kind.SCALAR),
    MAKE_TIMESTAMP(6, 6, Kind.SCALAR), AGE(1, 2, Kind.SCALAR), TO_CHAR(2, 2, Kind.SCALAR),
    // JSONB.
    JSONB_ARRAY_LENGTH(1, 1, Kind.SCALAR), JSONB_TYPEOF(1, 1, Kind.SCALAR), JSONB_BUILD_OBJECT(0, 100, Kind.SCALAR);

    /** {@code SET_RETURNING}: a function of rows, called only in FROM. */
    public enum Kind { SCALAR, BARE, AGGREGATE, ORDERED_SET, WINDOW, SET_RETURNING }

    public final int minArgs;
    public final int maxArgs;
    public final Kind kind;
    /** Kept for callers that only ask "is this an aggregate". */
    public final boolean aggregate;

    Function(int minArgs, int maxArgs, Kind kind) {
        this.minArgs = minArgs;
        this.maxArgs = maxArgs;
        this.kind = kind;
        this.aggregate = kind == Kind.AGGREGATE || kind == Kind.ORDERED_SET;
    }

    public String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Names a user may write for a function: {@code ceiling} and {@code pow} are PostgreSQL's own aliases. */
    /**
     * The function a call names, checked for the rules every analysis applies: only the dialect's
     * functions, {@code (*)} only for count, and the number of arguments.
     */
    public static Function resolve(io.verso.sql.ast.Expr.FunctionCall f) {
        Function function = named(f.name().name()).orElseThrow(() -> io.verso.error.VersoException.at(
                io.verso.error.ErrorCode.UNKNOWN_FUNCTION, "unknown function '" + f.name().name()
                        + "'; the dialect has " + String.join(", ",
                        java.util.Arrays.stream(values()).map(Function::sqlName).toList()), f.pos()));
        if (f.star() && function != COUNT) {
            throw invalid(f, function.sqlName() + "(*) is not allowed; only count(*)");
        }
        int args = f.star() ? 1 : f.args().size();
        if (args < function.minArgs || args > function.maxArgs) {
            throw invalid(f, function.sqlName() + " takes " + (function.minArgs == function.maxArgs
                    ? String.valueOf(function.minArgs) : function.minArgs + " to " + function.maxArgs)
                    + " argument(s), not " + args);
        }
        return function;
    }

    private static io.verso.error.VersoException invalid(io.verso.sql.ast.Expr.FunctionCall f, String message) {
        return io.verso.error.VersoException.at(io.verso.error.ErrorCode.INVALID_EXPRESSION, message, f.pos());
    }

    public static Optional<Function> named(String name) {
        switch (name) {
            case "ceiling" -> {
                return Optional.of(CEIL);
            }
            case "pow" -> {
                return Optional.of(POWER);
            }
            case "stddev_samp" -> {
                return Optional.of(STDDEV);
            }
            case "var_samp" -> {
                return Optional.of(VARIANCE);
            }
            default -> {
            }
        }
        for (Function f : values()) {
            if (f.sqlName().equals(name)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
