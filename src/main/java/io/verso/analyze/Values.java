package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Pos;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.DateTimeException;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks a written value against its column type and turns it into the text PostgreSQL parses
 * for that type, so a bad value is refused with the column and value named before anything runs.
 */
public final class Values {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final BigInteger[] INTEGER_RANGE = {
            BigInteger.valueOf(Short.MIN_VALUE), BigInteger.valueOf(Short.MAX_VALUE),
            BigInteger.valueOf(Integer.MIN_VALUE), BigInteger.valueOf(Integer.MAX_VALUE),
            BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE)};

    private Values() {
    }

    /** The value of a VALUES item: a literal, a parameter, or a signed parameter. */
    public static Object valueOf(Expr expr, List<Object> params) {
        if (expr instanceof Expr.Literal lit) {
            return switch (lit.kind()) {
                case NULL -> null;
                case BOOLEAN -> Boolean.valueOf(lit.text());
                case INTEGER, DECIMAL -> new BigDecimal(lit.text());
                case STRING, DATE, TIMESTAMP, TIMESTAMPTZ -> lit.text();
                case INTERVAL -> throw VersoException.at(ErrorCode.INVALID_VALUE, "an INTERVAL is not a column value",
                        lit.pos());
            };
        }
        if (expr instanceof Expr.Parameter p) {
            return params.get(p.index());
        }
        if (expr instanceof Expr.Unary u && u.operand() instanceof Expr.Parameter p
                && params.get(p.index()) instanceof Number n) {
            BigDecimal value = new BigDecimal(n.toString());
            return u.op() == Expr.UnaryOp.MINUS ? value.negate() : value;
        }
        throw VersoException.at(ErrorCode.INVALID_VALUE,
                "VALUES takes literals and ? parameters only", expr.pos());
    }

    /**
     * Text for {@code column} from {@code value} (null stays null), or INVALID_VALUE naming column,
     * value and, when known, where it was written.
     */
    public static String toText(ColumnDef column, Object value, Pos pos, String where) {
        return text(column, value, () -> pos, () -> where, false);
    }

    /**
     * {@link #toText}, for a value to be stored in the column: also refused, naming where it was
     * written, when it needs more digits before the point than the column's NUMERIC(p, s) holds (a
     * value compared with the column may have any magnitude).
     */
    public static String toStoredText(ColumnDef column, Object value, Pos pos, String where) {
        return text(column, value, () -> pos, () -> where, true);
    }

    /**
     * {@link #toStoredText}, where the value's position and row are asked for only if the value is refused
     * (a surface builds them from its input, the JSON pointer of the field).
     */
    public static String toTextInRow(ColumnDef column, Object value, Supplier<Pos> at, Supplier<String> row) {
        return text(column, value, at, row, true);
    }

    private static String text(ColumnDef column, Object value, Supplier<Pos> at, Supplier<String> row,
                               boolean stored) {
        if (value == null) {
            return null;
        }
        ColumnType type = column.type();
        String text = value instanceof JsonNode node && !node.isString() ? JSON.writeValueAsString(node)
                : value instanceof JsonNode node ? node.asString() : value.toString();
        try {
            return switch (type.base()) {
                case SMALLINT, INTEGER, BIGINT -> integer(type, value, text);
                case NUMERIC -> notBoolean(value, numeric(stored ? type : null, text));
                case REAL, DOUBLE -> notBoolean(value, floating(text));
                case BOOLEAN -> bool(value, text);
                case TEXT -> scalar(value, text);
                case VARCHAR, CHAR -> {
                    if (type.precision() != null && text.codePointCount(0, text.length()) > type.precision()) {
                        throw new IllegalArgumentException("is longer than " + type.precision() + " characters");
                    }
                    yield scalar(value, text);
                }
                case DATE -> {
                    if (!DATE.matcher(text.trim()).matches()) {
                        throw new IllegalArgumentException("is not a date (YYYY-MM-DD)");
                    }
                    try {
                        checkDate(text.trim());
                    } catch (DateTimeException e) {
                        throw new DateTimeParseException(e.getMessage(), text, 0);
                    }
                    yield text.trim();
                }
                case TIMESTAMP, TIMESTAMPTZ -> timestampText(text);
                case UUID -> {
                    if (!UUID_TEXT.matcher(text.trim()).matches()) {
                        throw new IllegalArgumentException("is not a UUID");
                    }
                    yield UUID.fromString(text.trim()).toString();
                }
                case JSONB -> {
                    if (value instanceof JsonNode) {
                        yield text;
                    }
                    JSON.readTree(text);
                    yield text;
                }
            };
        } catch (RuntimeException e) {
            String reason = e instanceof IllegalArgumentException && !(e instanceof NumberFormatException)
                    && e.getMessage() != null ? e.getMessage() : "is not a valid " + type.display();
            String where = row.get();
            String message = "value " + quoteForMessage(text) + " for column " + column.name() + " ("
                    + type.display() + ")" + (where == null ? "" : " in " + where) + " " + reason;
            Pos pos = at.get();
            throw pos != null ? VersoException.at(ErrorCode.INVALID_VALUE, message, pos)
                    : VersoException.pointing(ErrorCode.INVALID_VALUE, message, column.name());
        }
    }

    /**
     * A string literal PostgreSQL will read as the numeric {@code type} (it meets an operand of that type, or is
     * cast to it): INVALID_VALUE at its position unless it is such a value. As lenient as PostgreSQL's input or
     * more, so nothing PostgreSQL takes is refused (NaN and the infinities of NUMERIC and the floating types pass).
     */
    public static void checkNumber(ColumnType type, String text, Pos pos) {
        String special = text.trim().toLowerCase(Locale.ROOT);
        if (special.equals("nan") || special.matches("[+-]?inf(inity)?")) {
            return;
        }
        try {
            switch (type.base()) {
                case SMALLINT, INTEGER, BIGINT -> integer(type, text, text);
                case NUMERIC -> numeric(null, text);
                case REAL, DOUBLE -> floating(text);
                default -> throw new IllegalArgumentException("not a numeric type: " + type.display());
            }
        } catch (NumberFormatException | ArithmeticException e) {
            throw Refusals.notAValid(quoteForMessage(text), type.display(), pos);
        } catch (IllegalArgumentException e) {
            throw VersoException.at(ErrorCode.INVALID_VALUE, quoteForMessage(text) + " " + e.getMessage()
                    + " (read as " + type.display() + " here)", pos);
        }
    }

    static String quoteForMessage(String text) {
        String shown = text.length() > 80 ? text.substring(0, 77) + "..." : text;
        return "'" + shown + "'";
    }

    private static String integer(ColumnType type, Object value, String text) {
        notBoolean(value, text);
        long plain = plainLong(text);
        if (plain != Long.MIN_VALUE) {
            // Digits only, at most 18: the value and text BigDecimal would give (the text itself when it is
            // written so already), without building either.
            long min = type.base() == ColumnType.Base.SMALLINT ? Short.MIN_VALUE
                    : type.base() == ColumnType.Base.INTEGER ? Integer.MIN_VALUE : Long.MIN_VALUE;
            long max = type.base() == ColumnType.Base.SMALLINT ? Short.MAX_VALUE
                    : type.base() == ColumnType.Base.INTEGER ? Integer.MAX_VALUE : Long.MAX_VALUE;
            if (plain < min || plain > max) {
                throw new IllegalArgumentException("is out of range for " + type.display());
            }
            return canonicalInteger(text) ? text : Long.toString(plain);
        }
        BigDecimal decimal = bounded(new BigDecimal(text.trim()));
        BigInteger integer;
        try {
            integer = decimal.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("is not an integer");
        }
        int range = switch (type.base()) {
            case SMALLINT -> 0;
            case INTEGER -> 2;
            default -> 4;
        };
        if (integer.compareTo(INTEGER_RANGE[range]) < 0 || integer.compareTo(INTEGER_RANGE[range + 1]) > 0) {
            throw new IllegalArgumentException("is out of range for " + type.display());
        }
        return integer.toString();
    }

    /**
     * The value of an optional minus sign and 1 to 18 ASCII digits (nothing else, no spaces), or
     * Long.MIN_VALUE for any other text, which then takes the general path.
     */
    private static long plainLong(String text) {
        int length = text.length();
        int start = length > 0 && text.charAt(0) == '-' ? 1 : 0;
        if (length == start || length - start > 18) {
            return Long.MIN_VALUE;
        }
        long value = 0;
        for (int i = start; i < length; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return Long.MIN_VALUE;
            }
            value = value * 10 + (c - '0');
        }
        return start == 1 ? -value : value;
    }

    /**
     * Whether {@code text} is an integer exactly as {@code BigDecimal.toPlainString} would write it (digits,
     * no leading zero, an optional minus before a non-zero digit), short enough for any NUMERIC: then it is
     * its own text, with no BigDecimal built (amounts are mostly such).
     */
    private static boolean canonicalInteger(String text) {
        int start = text.startsWith("-") ? 1 : 0;
        int length = text.length();
        if (length == start || length - start > 1000 || (text.charAt(start) == '0' && (length - start > 1 || start == 1))) {
            return false;
        }
        return digits(text, start, length);
    }

    /** A date of the form YYYY-MM-DD (already matched), as LocalDate.parse would check it, without a formatter. */
    private static void checkDate(String text) {
        LocalDate.of(Integer.parseInt(text, 0, 4, 10), Integer.parseInt(text, 5, 7, 10),
                Integer.parseInt(text, 8, 10, 10));
    }

    /** NUMERIC text, checked against {@code stored}'s precision when the value is to be stored in it. */
    private static String numeric(ColumnType stored, String text) {
        if (canonicalInteger(text)) {
            return stored == null ? text : fits(stored, text);
        }
        BigDecimal value = bounded(new BigDecimal(text.trim()));
        return (stored == null ? value : fits(stored, value)).toPlainString();
    }

    /**
     * A canonical integer for NUMERIC(p, s): at most p - s digits, as PostgreSQL allows; checked here so
     * the refusal names the value where it was written (PostgreSQL's would say only "numeric field overflow").
     */
    private static String fits(ColumnType type, String integer) {
        int digits = integer.length() - (integer.startsWith("-") ? 1 : 0);
        if (type.precision() != null && !integer.equals("0") && digits > type.precision() - scale(type)) {
            throw overflow(type);
        }
        return integer;
    }

    /** A decimal for NUMERIC(p, s): once rounded to s places, as PostgreSQL stores it, below 10^(p - s). */
    private static BigDecimal fits(ColumnType type, BigDecimal value) {
        if (type.precision() != null) {
            BigDecimal rounded = value.setScale(scale(type), java.math.RoundingMode.HALF_UP);
            if (rounded.signum() != 0 && rounded.precision() - rounded.scale() > type.precision() - scale(type)) {
                throw overflow(type);
            }
        }
        return value;
    }

    private static int scale(ColumnType type) {
        return type.scale() == null ? 0 : type.scale();
    }

    private static IllegalArgumentException overflow(ColumnType type) {
        int digits = type.precision() - scale(type);
        return new IllegalArgumentException("is out of range for " + type.display() + " (at most " + digits
                + " digit" + (digits == 1 ? "" : "s") + " before the point)");
    }

    /** Parses a decimal number, refusing magnitudes no column type can hold (see {@link #bounded}). */
    public static BigDecimal decimal(String text) {
        return bounded(new BigDecimal(text.trim()));
    }

    /**
     * PostgreSQL's NUMERIC holds at most 131072 digits before the point; refusing larger magnitudes
     * here also keeps 1e1000000000 from being expanded into a gigabyte of digits.
     */
    public static BigDecimal bounded(BigDecimal value) {
        if ((long) value.precision() - value.scale() > 131_072 || value.scale() > 16_383) {
            throw new IllegalArgumentException("is out of range for NUMERIC");
        }
        return value;
    }

    private static String floating(String text) {
        String t = text.trim();
        switch (t.toLowerCase(Locale.ROOT)) {
            case "nan" -> { return "NaN"; }
            case "infinity", "+infinity" -> { return "Infinity"; }
            case "-infinity" -> { return "-Infinity"; }
            default -> {
                double d = Double.parseDouble(t);
                if (Double.isInfinite(d)) {
                    throw new IllegalArgumentException("is out of range");
                }
                return t;
            }
        }
    }

    private static String bool(Object value, String text) {
        if (value instanceof Boolean b) {
            return b.toString();
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true", "t", "yes", "on", "1" -> "true";
            case "false", "f", "no", "off", "0" -> "false";
            default -> throw new IllegalArgumentException("is not a boolean");
        };
    }

    private static String notBoolean(Object value, String text) {
        if (value instanceof Boolean) {
            throw new IllegalArgumentException("is a boolean, not a number");
        }
        return text;
    }

    private static String scalar(Object value, String text) {
        if (value instanceof JsonNode node && (node.isObject() || node.isArray())) {
            throw new IllegalArgumentException("is a JSON " + (node.isObject() ? "object" : "array") + ", not text");
        }
        return text;
    }

    /**
     * The text of a TIMESTAMP or TIMESTAMPTZ value in the forms every surface accepts,
     * {@code YYYY-MM-DD[(T| )HH:MM[:SS[.f{1,9}]]][spaces][Z|z|(+|-)HH[[:]MM]]} with a valid date and time of
     * day, or IllegalArgumentException. Scanned by hand rather than by a pattern: it runs for every
     * timestamp written.
     */
    public static String timestampText(String text) {
        String t = text.trim();
        int n = t.length();
        if (!(n >= 10 && digits(t, 0, 4) && t.charAt(4) == '-' && digits(t, 5, 7) && t.charAt(7) == '-'
                && digits(t, 8, 10))) {
            throw notTimestamp();
        }
        int i = 10;
        int hour = -1;
        int minute = -1;
        int second = -1;
        if (i + 6 <= n && (t.charAt(i) == 'T' || t.charAt(i) == ' ') && digits(t, i + 1, i + 3)
                && t.charAt(i + 3) == ':' && digits(t, i + 4, i + 6)) {
            hour = number(t, i + 1);
            minute = number(t, i + 4);
            i += 6;
            if (i + 3 <= n && t.charAt(i) == ':' && digits(t, i + 1, i + 3)) {
                second = number(t, i + 1);
                i += 3;
                if (i < n && t.charAt(i) == '.') {
                    int end = i + 1;
                    while (end < n && end - i <= 9 && isDigit(t.charAt(end))) {
                        end++;
                    }
                    if (end == i + 1) {
                        throw notTimestamp();
                    }
                    i = end;
                }
            }
        }
        while (i < n && " \t\n\u000B\f\r".indexOf(t.charAt(i)) >= 0) {
            i++;
        }
        if (i < n && (t.charAt(i) == 'Z' || t.charAt(i) == 'z')) {
            i++;
        } else if (i + 3 <= n && (t.charAt(i) == '+' || t.charAt(i) == '-') && digits(t, i + 1, i + 3)) {
            i += 3;
            int minutes = i < n && t.charAt(i) == ':' ? i + 1 : i;
            if (minutes + 2 == n && digits(t, minutes, n)) {
                i = n;
            }
        }
        if (i != n) {
            throw notTimestamp();
        }
        try {
            checkDate(t);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("is not a valid date");
        }
        if (hour > 23 || minute > 59 || second > 59) {
            throw new IllegalArgumentException("is not a valid time of day");
        }
        return t;
    }

    private static IllegalArgumentException notTimestamp() {
        return new IllegalArgumentException("is not a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff][+HH:MM])");
    }

    /** Whether every character of {@code text} in [from, to) is an ASCII digit (what \\d matches). */
    private static boolean digits(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The two-digit number at {@code at}. */
    private static int number(String text, int at) {
        return (text.charAt(at) - '0') * 10 + text.charAt(at + 1) - '0';
    }
}
