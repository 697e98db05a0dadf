package io.verso.sql.ast;

import java.util.List;

/** Scalar and boolean expressions of the dialect: nothing outside this set reaches PostgreSQL. */
public sealed interface Expr {
    Pos pos();

    enum LiteralKind { NULL, BOOLEAN, INTEGER, DECIMAL, STRING, DATE, TIMESTAMP }

    /** A literal; {@code text} is its value without quotes (for strings, unescaped). */
    record Literal(LiteralKind kind, String text, Pos pos) implements Expr {
    }

    /** A {@code ?} placeholder; {@code index} is 0-based over the whole request. */
    record Parameter(int index, Pos pos) implements Expr {
    }

    record ColumnRef(Ident qualifier, Ident column, Pos pos) implements Expr {
    }

    enum UnaryOp { MINUS, PLUS }

    record Unary(UnaryOp op, Expr operand, Pos pos) implements Expr {
    }

    enum BinaryOp {
        ADD("+"), SUBTRACT("-"), MULTIPLY("*"), DIVIDE("/"), MODULO("%"), CONCAT("||"),
        EQ("="), NEQ("<>"), LT("<"), LTE("<="), GT(">"), GTE(">="), AND("AND"), OR("OR");

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

    /** A call of a function of the dialect's fixed list; {@code star} for {@code count(*)}. */
    record FunctionCall(Ident name, boolean distinct, boolean star, List<Expr> args, Pos pos) implements Expr {
    }
}
