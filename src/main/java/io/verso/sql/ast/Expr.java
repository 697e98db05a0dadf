package io.verso.sql.ast;

import java.util.List;

/** Scalar and boolean expressions of the dialect: nothing outside this set reaches PostgreSQL. */
public sealed interface Expr {
    Pos pos();

    enum LiteralKind { NULL, BOOLEAN, INTEGER, DECIMAL, STRING, DATE, TIMESTAMP, TIMESTAMPTZ, INTERVAL }

    /** A literal; {@code text} is its value without quotes (for strings, unescaped). */
    record Literal(LiteralKind kind, String text, Pos pos) implements Expr {
    }

    /** A {@code ?} placeholder; {@code index} is 0-based over the whole request. */
    record Parameter(int index, Pos pos) implements Expr {
    }

    record ColumnRef(Ident qualifier, Ident column, Pos pos) implements Expr {
    }

    /** {@code DEFAULT} as a VALUES item or an UPDATE's SET value: the column's default (NULL without one). */
    record Default(Pos pos) implements Expr {
    }

    enum UnaryOp { MINUS, PLUS }

    record Unary(UnaryOp op, Expr operand, Pos pos) implements Expr {
    }

    enum BinaryOp {
        ADD("+"), SUBTRACT("-"), MULTIPLY("*"), DIVIDE("/"), MODULO("%"), CONCAT("||"),
        EQ("="), NEQ("<>"), LT("<"), LTE("<="), GT(">"), GTE(">="), AND("AND"), OR("OR"),
        JSON_GET("->"), JSON_GET_TEXT("->>"), JSON_PATH("#>"), JSON_PATH_TEXT("#>>"), JSON_CONTAINS("@>");

        public final String sql;

        BinaryOp(String sql) {
            this.sql = sql;
        }
    }

    record Binary(BinaryOp op, Expr left, Expr right, Pos pos) implements Expr {
    }

    record Not(Expr operand, Pos pos) implements Expr {
    }

    record Between(boolean negated, Expr value, Expr lower, Expr upper, Pos pos) implements Expr {
    }

    record InList(boolean negated, Expr value, List<Expr> items, Pos pos) implements Expr {
    }

    record Like(boolean negated, boolean caseInsensitive, Expr value, Expr pattern, Pos pos) implements Expr {
    }

    record IsNull(boolean negated, Expr value, Pos pos) implements Expr {
    }

    record Cast(Expr value, TypeSpec type, Pos pos) implements Expr {
    }

    record When(Expr condition, Expr result) {
    }

    record Case(Expr operand, List<When> whens, Expr otherwise, Pos pos) implements Expr {
    }

    /**
     * A call of a function of the dialect's fixed list; {@code star} for {@code count(*)}.
     * {@code orderBy} orders an aggregate's input, {@code withinGroup} an ordered-set aggregate's;
     * {@code filter} and {@code over} are null when absent.
     */
    record FunctionCall(Ident name, boolean distinct, boolean star, List<Expr> args, List<Query.SortItem> orderBy,
                        List<Query.SortItem> withinGroup, Expr filter, Over over, Pos pos) implements Expr {
        public FunctionCall(Ident name, boolean distinct, boolean star, List<Expr> args, Pos pos) {
            this(name, distinct, star, args, List.of(), List.of(), null, null, pos);
        }
    }

    /** {@code OVER (spec)} or {@code OVER name} (spec null). */
    record Over(Query.WindowSpec spec, Ident name) {
    }

    /** The SQL-standard call forms with keywords between arguments, and an array's subscript. */
    enum SpecialForm { EXTRACT, POSITION, SUBSTRING, TRIM_BOTH, TRIM_LEADING, TRIM_TRAILING, SUBSCRIPT }

    /**
     * {@code extract(field FROM x)} (field in {@code text}), {@code position(a IN b)},
     * {@code substring(x FROM a [FOR b])}, {@code trim([side] [chars] FROM x)} (args: x, then chars),
     * {@code a[i]} (args: a, then i).
     */
    record Special(SpecialForm form, String text, List<Expr> args, Pos pos) implements Expr {
    }

    record Subquery(Query query, Pos pos) implements Expr {
    }

    record Exists(Query query, Pos pos) implements Expr {
    }

    record InSubquery(boolean negated, Expr value, Query query, Pos pos) implements Expr {
    }

    /** {@code value op ANY|ALL (query)}. */
    record Quantified(BinaryOp op, boolean all, Expr value, Query query, Pos pos) implements Expr {
    }

    record DistinctFrom(boolean negated, Expr left, Expr right, Pos pos) implements Expr {
    }

    /** {@code value IS [NOT] TRUE|FALSE}. */
    record BooleanTest(boolean negated, Expr value, boolean truth, Pos pos) implements Expr {
    }
}
