package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.ColumnType.Base;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Query;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The common type errors, judged before PostgreSQL sees the statement so they are refused with a code and the
 * operand's position. {@code TYPE_MISMATCH}: an operator or function applied to operands of types it does not
 * take ({@code name + 1}, {@code upper(price)}, {@code substring(n FROM 1)}, {@code left(s, 2.5)}), values
 * PostgreSQL must resolve to one type that have none ({@code coalesce(n, s)}, CASE results of a number and a
 * boolean), and a value compared with a subquery's column of another kind ({@code n IN (SELECT s ...)},
 * {@code n = (SELECT s ...)}). {@code INVALID_VALUE}: a string literal that is no value of the type PostgreSQL
 * reads it as there (the other operand's, the cast's, the common type of coalesce's arguments or CASE's
 * results, the column an UPDATE assigns): {@code 'a' + 1}, {@code coalesce(n, 'abc')},
 * {@code CAST('x' AS BOOLEAN)}, {@code u = 'zz'}, and for dates and times only what {@link #mayBeTime} is sure
 * PostgreSQL refuses ({@code d = 'not a date'}, {@code CAST('2024-13-45' AS DATE)}).
 *
 * <p>Only what is certain is refused: an operand whose type is not known here (a parameter, a derived table's
 * or CTE's column, most function results, a subquery of a set operation) passes to PostgreSQL, which then
 * judges it without a position. Numbers of different types mix, as do text types and dates with timestamps.
 */
final class TypeRules {

    /** The type of a resolved column reference, or null when it is not known (a derived table's, a CTE's). */
    @FunctionalInterface
    interface Columns {
        ColumnType of(Expr.ColumnRef ref);
    }

    private static final Set<Base> NUMBERS = EnumSet.of(Base.SMALLINT, Base.INTEGER, Base.BIGINT, Base.NUMERIC,
            Base.REAL, Base.DOUBLE);
    private static final Set<Base> TEXTS = EnumSet.of(Base.TEXT, Base.VARCHAR, Base.CHAR);
    private static final Set<Base> TIMES = EnumSet.of(Base.DATE, Base.TIMESTAMP, Base.TIMESTAMPTZ);
    private static final Set<Expr.LiteralKind> TIME_LITERALS = EnumSet.of(Expr.LiteralKind.DATE,
            Expr.LiteralKind.TIMESTAMP, Expr.LiteralKind.TIMESTAMPTZ);
    /** Types no arithmetic operator takes. */
    private static final Set<Base> NOT_ARITHMETIC = EnumSet.of(Base.TEXT, Base.VARCHAR, Base.CHAR, Base.BOOLEAN,
            Base.UUID);
    private static final Set<Function> NUMERIC_ARGUMENTS = EnumSet.of(Function.ABS, Function.ROUND, Function.TRUNC,
            Function.CEIL, Function.FLOOR, Function.MOD, Function.POWER, Function.SQRT, Function.SIGN, Function.LN,
            Function.LOG, Function.EXP);
    /** What the integer arguments of the string functions take: PostgreSQL casts no wider number to them. */
    private static final Set<Base> INTEGERS = EnumSet.of(Base.SMALLINT, Base.INTEGER);
    /**
     * The string functions' arguments by position, as far as each is certain: text, or (for lengths and counts)
     * an integer. substring's second and third are left out, as PostgreSQL takes integers or patterns there.
     */
    private static final Map<Function, List<Set<Base>>> STRING_ARGUMENTS = Map.ofEntries(
            Map.entry(Function.LOWER, List.of(TEXTS)), Map.entry(Function.UPPER, List.of(TEXTS)),
            Map.entry(Function.LENGTH, List.of(TEXTS)), Map.entry(Function.SUBSTRING, List.of(TEXTS)),
            Map.entry(Function.TRIM, List.of(TEXTS, TEXTS)), Map.entry(Function.LTRIM, List.of(TEXTS, TEXTS)),
            Map.entry(Function.RTRIM, List.of(TEXTS, TEXTS)), Map.entry(Function.REPLACE, List.of(TEXTS, TEXTS, TEXTS)),
            Map.entry(Function.LEFT, List.of(TEXTS, INTEGERS)), Map.entry(Function.RIGHT, List.of(TEXTS, INTEGERS)),
            Map.entry(Function.SPLIT_PART, List.of(TEXTS, TEXTS, INTEGERS)),
            Map.entry(Function.LPAD, List.of(TEXTS, INTEGERS, TEXTS)),
            Map.entry(Function.RPAD, List.of(TEXTS, INTEGERS, TEXTS)),
            Map.entry(Function.STARTS_WITH, List.of(TEXTS, TEXTS)));

    private TypeRules() {
    }

    /** Aggregates of numbers only (PostgreSQL has sum and avg of intervals too, which no column holds). */
    /** Functions whose arguments PostgreSQL resolves to one common type. */
    private static final Set<Function> COMMON_TYPE = EnumSet.of(Function.COALESCE, Function.GREATEST,
            Function.LEAST);
    private static final Set<Function> NUMERIC_AGGREGATES = EnumSet.of(Function.SUM, Function.AVG);
    /** PostgreSQL's spellings of a boolean, each accepted by any prefix no other word shares ("o" is neither). */
    private static final List<String> BOOLEAN_WORDS = List.of("true", "false", "yes", "no", "on", "off");

    /** Checks one node whose operands the analyzer has resolved already. */
    static void check(Expr expr, Columns columns) {
        if (expr instanceof Expr.Binary b && (b.op() == Expr.BinaryOp.AND || b.op() == Expr.BinaryOp.OR)) {
            logical(b.op().sql, b.left(), columns);
            logical(b.op().sql, b.right(), columns);
        } else if (expr instanceof Expr.Not not) {
            logical("NOT", not.operand(), columns);
        } else if (expr instanceof Expr.Binary b && (comparison(b.op()) || arithmetic(b.op()))) {
            operands(b.op().sql, comparison(b.op()), b.left(), b.right(), columns);
        } else if (expr instanceof Expr.Between b) {
            operands("BETWEEN", true, b.value(), b.lower(), columns);
            operands("BETWEEN", true, b.value(), b.upper(), columns);
        } else if (expr instanceof Expr.InList in) {
            for (Expr item : in.items()) {
                operands("IN", true, in.value(), item, columns);
            }
        } else if (expr instanceof Expr.Literal lit && TIME_LITERALS.contains(lit.kind())) {
            literal(lit, typeOf(lit, columns));
        } else if (expr instanceof Expr.Cast c) {
            ColumnType target = ColumnType.from(c.type());
            if (c.value() instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING) {
                literal(lit, target);
            }
        } else if (expr instanceof Expr.InSubquery in) {
            subquery("IN", in.value(), in.query(), columns);
        } else if (expr instanceof Expr.Quantified q && comparison(q.op())) {
            subquery(q.op().sql + (q.all() ? " ALL" : " ANY"), q.value(), q.query(), columns);
        } else if (expr instanceof Expr.Case c) {
            for (Expr.When w : c.whens()) {
                if (c.operand() != null) {
                    operands("CASE", true, c.operand(), w.condition(), columns);
                } else {
                    logical("CASE WHEN", w.condition(), columns);
                }
            }
            common("the results of CASE are", results(c), columns);
        } else if (expr instanceof Expr.FunctionCall f && !f.star() && !f.args().isEmpty()) {
            Function function = Function.named(f.name().name()).orElse(null);
            if (function == Function.NULLIF) {
                operands("nullif", true, f.args().get(0), f.args().get(1), columns);
            } else if (COMMON_TYPE.contains(function)) {
                common(function.sqlName() + "'s arguments are", f.args(), columns);
            } else if (NUMERIC_ARGUMENTS.contains(function)) {
                for (Expr arg : f.args()) {
                    argument(function.sqlName(), arg, NUMBERS, ColumnType.of(Base.NUMERIC), columns);
                }
            } else if (STRING_ARGUMENTS.containsKey(function)) {
                List<Set<Base>> takes = STRING_ARGUMENTS.get(function);
                for (int i = 0; i < Math.min(takes.size(), f.args().size()); i++) {
                    argument(function.sqlName(), f.args().get(i), takes.get(i),
                            takes.get(i) == INTEGERS ? ColumnType.of(Base.INTEGER) : null, columns);
                }
            } else if (NUMERIC_AGGREGATES.contains(function)) {
                argument(function.sqlName(), f.args().get(0), NUMBERS, null, columns);
            }
        } else if (expr instanceof Expr.Special s) {
            special(s, columns);
        }
    }

    /** A value compared with each row of a one-column subquery whose column's type is known. */
    private static void subquery(String op, Expr value, Query query, Columns columns) {
        Expr item = onlyItem(query);
        ColumnType column = item == null ? null : typeOf(query, columns);
        if (column == null) {
            return;
        }
        if (value instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING) {
            literal(lit, column);
            return;
        }
        ColumnType t = typeOf(value, columns);
        if (t != null && !comparable(t.base(), column.base())) {
            throw VersoException.at(ErrorCode.TYPE_MISMATCH, op + " cannot compare " + t.display() + " with "
                    + column.display() + ", the type of the subquery's column", item.pos());
        }
    }

    /** The expression a query's one block selects as its only column, or null for any other query. */
    private static Expr onlyItem(Query query) {
        return query.body() instanceof Query.Block block && block.items().size() == 1
                && block.items().get(0) instanceof Query.SelectItem.Item item ? item.expr() : null;
    }

    /**
     * The type of the column a one-column query returns, when known. A string literal there is TEXT: PostgreSQL
     * resolves a subquery's literal output to text, so {@code n IN (SELECT '5')} on INTEGER is refused as well.
     */
    private static ColumnType typeOf(Query query, Columns columns) {
        Expr item = onlyItem(query);
        if (item instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING) {
            return ColumnType.of(Base.TEXT);
        }
        return item == null ? null : typeOf(item, columns);
    }

    /** The values a CASE may result in: each THEN and the ELSE. */
    private static List<Expr> results(Expr.Case c) {
        List<Expr> results = new ArrayList<>();
        c.whens().forEach(w -> results.add(w.result()));
        if (c.otherwise() != null) {
            results.add(c.otherwise());
        }
        return results;
    }

    /**
     * Values PostgreSQL resolves to one type (the arguments of coalesce, greatest and least, the results of a
     * CASE): the known types must be of one kind (numbers, text, dates and times, or one other type), refused at
     * the first value of another; a string literal among them is then read as that type.
     */
    private static void common(String what, List<Expr> values, Columns columns) {
        ColumnType common = commonType(values, columns, what);
        if (common == null) {
            return;
        }
        for (Expr value : values) {
            if (value instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING) {
                literal(lit, common);
            }
        }
    }

    /**
     * The type standing for two different types of {@code kind}'s kind: the one whose input takes the most
     * (NUMERIC for numbers), so a literal checked as it is refused only when no type of the kind would read it.
     */
    private static Base wider(Base kind) {
        return NUMBERS.contains(kind) ? Base.NUMERIC : TEXTS.contains(kind) ? Base.TEXT : Base.TIMESTAMPTZ;
    }

    /**
     * The type {@link #common} resolves {@code values} to, or null when none is known. Values of no common type
     * are refused as {@code what} ... at the first that differs, or give null when {@code what} is null.
     */
    private static ColumnType commonType(List<Expr> values, Columns columns, String what) {
        ColumnType common = null;
        for (Expr value : values) {
            ColumnType t = typeOf(value, columns);
            if (t == null) {
                continue;
            }
            if (common != null && !comparable(common.base(), t.base())) {
                if (what == null) {
                    return null;
                }
                throw VersoException.at(ErrorCode.TYPE_MISMATCH, what + " " + common.display() + " and "
                        + t.display() + ", which have no common type", value.pos());
            }
            common = common == null || common.base() == t.base() ? t : ColumnType.of(wider(common.base()));
        }
        return common;
    }

    /** An operand of AND, OR or NOT whose type is known must be a boolean. */
    private static void logical(String op, Expr operand, Columns columns) {
        ColumnType t = typeOf(operand, columns);
        if (t != null && t.base() != Base.BOOLEAN) {
            throw VersoException.at(ErrorCode.TYPE_MISMATCH, op + " takes boolean operands, not " + t.display(),
                    operand.pos());
        }
    }

    private static boolean comparison(Expr.BinaryOp op) {
        return switch (op) {
            case EQ, NEQ, LT, LTE, GT, GTE -> true;
            default -> false;
        };
    }

    private static boolean arithmetic(Expr.BinaryOp op) {
        return switch (op) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, MODULO -> true;
            default -> false;
        };
    }

    private static void operands(String op, boolean comparison, Expr left, Expr right, Columns columns) {
        ColumnType l = typeOf(left, columns);
        ColumnType r = typeOf(right, columns);
        // PostgreSQL reads a string literal as the type of the other operand; beside a date or time in arithmetic
        // it may read it as an interval or a number instead (ts + '1 day'), which is its to judge.
        if (r != null && left instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING
                && (comparison || !TIMES.contains(r.base()))) {
            literal(lit, r);
        }
        if (l != null && right instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING
                && (comparison || !TIMES.contains(l.base()))) {
            literal(lit, l);
        }
        if (comparison) {
            if (l != null && r != null && !comparable(l.base(), r.base())) {
                throw VersoException.at(ErrorCode.TYPE_MISMATCH, op + " cannot compare " + l.display() + " with "
                        + r.display(), right.pos());
            }
            return;
        }
        for (Expr operand : new Expr[] {left, right}) {
            ColumnType t = operand == left ? l : r;
            if (t != null && NOT_ARITHMETIC.contains(t.base())) {
                throw VersoException.at(ErrorCode.TYPE_MISMATCH, op + " does not apply to " + t.display()
                        + (TEXTS.contains(t.base()) ? " (|| joins text)" : ""), operand.pos());
            }
        }
    }

    private static boolean comparable(Base a, Base b) {
        return a == b || NUMBERS.contains(a) && NUMBERS.contains(b) || TEXTS.contains(a) && TEXTS.contains(b)
                || TIMES.contains(a) && TIMES.contains(b);
    }

    /**
     * The SQL-standard forms: substring's string, both strings of position and trim are text (substring's FROM
     * and FOR may be integers or patterns), and extract reads a date or timestamp.
     */
    private static void special(Expr.Special s, Columns columns) {
        switch (s.form()) {
            case SUBSTRING -> argument("substring", s.args().get(0), TEXTS, null, columns);
            case POSITION, TRIM_BOTH, TRIM_LEADING, TRIM_TRAILING -> {
                for (Expr arg : s.args()) {
                    argument(s.form() == Expr.SpecialForm.POSITION ? "position" : "trim", arg, TEXTS, null, columns);
                }
            }
            case EXTRACT -> argument("extract", s.args().get(0), TIMES, null, columns);
            case SUBSCRIPT -> {
                // Arrays have no type here; PostgreSQL judges the subscript.
            }
        }
    }

    private static void argument(String function, Expr arg, Set<Base> takes, ColumnType literalAs,
                                 Columns columns) {
        if (literalAs != null && arg instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING) {
            literal(lit, literalAs);
            return;
        }
        ColumnType t = typeOf(arg, columns);
        if (t != null && !takes.contains(t.base())) {
            String what = takes == NUMBERS ? "a number" : takes == INTEGERS ? "an integer"
                    : takes == TIMES ? "a date or timestamp" : "text";
            throw VersoException.at(ErrorCode.TYPE_MISMATCH, function + " takes " + what + ", not " + t.display(),
                    arg.pos());
        }
    }

    /**
     * A string literal read as {@code type}: refused at its position unless it is such a value, for the types
     * whose spellings are judged here (numbers, booleans, UUIDs, and dates and times as far as {@link #mayBeTime}
     * is certain).
     */
    static void literal(Expr.Literal lit, ColumnType type) {
        if (NUMBERS.contains(type.base())) {
            Values.checkNumber(type, lit.text(), lit.pos());
        } else if (type.base() == Base.BOOLEAN && !isBoolean(lit.text())
                || type.base() == Base.UUID && !isUuid(lit.text())
                || TIMES.contains(type.base()) && !mayBeTime(lit.text())) {
            throw Refusals.notAValid(Values.quoteForMessage(lit.text()), type.display(), lit.pos());
        }
    }

    /**
     * A string literal an UPDATE assigns to {@code column}: PostgreSQL reads it as the column's type, so it is
     * judged as {@link #literal} judges one and refused in the words INSERT's VALUES uses ({@link Values#toText}).
     */
    static void assigned(ColumnDef column, Expr.Literal lit) {
        try {
            literal(lit, column.type());
        } catch (VersoException.UserError e) {
            throw VersoException.at(ErrorCode.INVALID_VALUE, "value " + Values.quoteForMessage(lit.text())
                    + " for column " + column.name() + " (" + column.type().display() + ") is not a valid "
                    + column.type().display(), lit.pos());
        }
    }

    /**
     * Whether PostgreSQL may read {@code text} as a date or timestamp. It reads many forms (ISO with or
     * without T, 'Jan 2 2024', '20240102', '12/31/2024', Julian days, time zone names), so only two kinds are
     * refused: a string with no digit and none of the special words (now, today, tomorrow, yesterday, epoch,
     * infinity, allballs; 'not a date', 'yesterdayish', ''), and a year-month-day beginning whose month or day
     * no calendar has ('2024-13-45', '2023-02-29'). Anything else is left to PostgreSQL.
     */
    static boolean mayBeTime(String text) {
        if (TIME_WORD.matcher(text).find()) {
            return true;
        }
        if (text.chars().noneMatch(c -> c >= '0' && c <= '9')) {
            return false;
        }
        Matcher ymd = YEAR_MONTH_DAY.matcher(text);
        if (!ymd.matches()) {
            return true;
        }
        int year = Integer.parseInt(ymd.group(1));
        int month = Integer.parseInt(ymd.group(2));
        int day = Integer.parseInt(ymd.group(3));
        if (month < 1 || month > 12) {
            return false;
        }
        // Years before Christ count leap years differently (1 BC is one): there only February 29 is let pass.
        boolean bc = ymd.group(4).toLowerCase(Locale.ROOT).contains("bc");
        int days = bc && month == 2 ? 29 : YearMonth.of(year, month).lengthOfMonth();
        return day >= 1 && day <= days;
    }

    /** PostgreSQL's special date and time inputs, which may stand among other words ('today UTC', 'now()'). */
    private static final Pattern TIME_WORD = Pattern.compile(
            "(?<![a-z])(now|today|tomorrow|yesterday|epoch|infinity|allballs)(?![a-z])", Pattern.CASE_INSENSITIVE);
    /** The ISO year-month-day a value begins with, then a time after T or a space, or nothing. */
    private static final Pattern YEAR_MONTH_DAY = Pattern.compile(
            "\\s*(\\d{4,7})-(\\d{1,2})-(\\d{1,2})((?:[T ].*)?)", Pattern.DOTALL);

    /** PostgreSQL's boolean input: a word of {@link #BOOLEAN_WORDS} or a unique prefix of one, 1 or 0, any case. */
    static boolean isBoolean(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("1") || t.equals("0")) {
            return true;
        }
        long matching = BOOLEAN_WORDS.stream().filter(w -> !t.isEmpty() && w.startsWith(t)).count();
        return matching == 1;
    }

    /** What PostgreSQL's uuid input may take: 32 hex digits, with hyphens, in braces or not. */
    static boolean isUuid(String text) {
        String t = text.strip();
        if (t.startsWith("{") && t.endsWith("}") && t.length() >= 2) {
            t = t.substring(1, t.length() - 1);
        }
        return t.replace("-", "").matches("[0-9a-fA-F]{32}") && !t.startsWith("-") && !t.endsWith("-")
                && !t.contains("--");
    }

    /** The type an expression certainly has, or null when that is not known here. */
    static ColumnType typeOf(Expr expr, Columns columns) {
        if (expr instanceof Expr.ColumnRef ref) {
            return columns.of(ref);
        }
        if (expr instanceof Expr.Literal lit) {
            return switch (lit.kind()) {
                case INTEGER -> ColumnType.of(integerLiteral(lit.text()));
                case DECIMAL -> ColumnType.of(Base.NUMERIC);
                case BOOLEAN -> ColumnType.of(Base.BOOLEAN);
                case DATE -> ColumnType.of(Base.DATE);
                case TIMESTAMP -> ColumnType.of(Base.TIMESTAMP);
                case TIMESTAMPTZ -> ColumnType.of(Base.TIMESTAMPTZ);
                case NULL, STRING, INTERVAL -> null;
            };
        }
        if (expr instanceof Expr.Cast c) {
            return ColumnType.from(c.type());
        }
        if (expr instanceof Expr.Unary u) {
            ColumnType t = typeOf(u.operand(), columns);
            return t != null && NUMBERS.contains(t.base()) ? t : null;
        }
        if (expr instanceof Expr.Binary b && b.op() == Expr.BinaryOp.CONCAT) {
            return ColumnType.of(Base.TEXT);
        }
        if (expr instanceof Expr.Subquery sub) {
            return typeOf(sub.query(), columns);
        }
        if (expr instanceof Expr.Case c) {
            return commonType(results(c), columns, null);
        }
        if (expr instanceof Expr.FunctionCall f && !f.star() && !f.args().isEmpty()) {
            Function function = Function.named(f.name().name()).orElse(null);
            if (COMMON_TYPE.contains(function)) {
                return commonType(f.args(), columns, null);
            }
            if (function == Function.NULLIF) {
                return typeOf(f.args().get(0), columns);
            }
        }
        if (expr instanceof Expr.Binary b && arithmetic(b.op())) {
            ColumnType l = typeOf(b.left(), columns);
            ColumnType r = typeOf(b.right(), columns);
            // Wider than PostgreSQL's (integer + integer is integer there): a literal read as it is checked loosely.
            return l != null && r != null && NUMBERS.contains(l.base()) && NUMBERS.contains(r.base())
                    ? ColumnType.of(Base.NUMERIC) : null;
        }
        return null;
    }

    /** PostgreSQL's type of an integer literal: integer, then bigint, then numeric as the value grows. */
    private static Base integerLiteral(String text) {
        try {
            long v = Long.parseLong(text);
            return v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? Base.INTEGER : Base.BIGINT;
        } catch (NumberFormatException e) {
            return Base.NUMERIC;
        }
    }
}
