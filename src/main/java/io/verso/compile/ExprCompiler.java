package io.verso.compile;

import io.verso.analyze.Function;
import io.verso.analyze.ResolvedRef;
import io.verso.catalog.ColumnType;
import io.verso.sql.ast.Expr;
import java.math.BigDecimal;
import java.util.IdentityHashMap;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Emits an analysed expression as PostgreSQL. Every construct here is one the dialect lists;
 * literals and parameters become binds, column references the quoted names the analyzer resolved.
 */
public final class ExprCompiler {

    private final IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs;
    private final List<Object> params;

    public ExprCompiler(IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs, List<Object> params) {
        this.refs = refs;
        this.params = params;
    }

    public void emit(SqlBuilder b, Expr expr) {
        if (expr instanceof Expr.Literal lit) {
            literal(b, lit);
        } else if (expr instanceof Expr.Parameter p) {
            b.bind(parameter(params.get(p.index())));
        } else if (expr instanceof Expr.ColumnRef ref) {
            ResolvedRef resolved = refs.get(ref);
            if (resolved.qualifier() == null) {
                b.ident(resolved.column());
            } else {
                b.qualified(resolved.qualifier(), resolved.column());
            }
        } else if (expr instanceof Expr.Unary u) {
            b.sql(u.op() == Expr.UnaryOp.MINUS ? "(- " : "(+ ");
            emit(b, u.operand());
            b.sql(")");
        } else if (expr instanceof Expr.Binary bin) {
            b.sql("(");
            emit(b, bin.left());
            b.sql(" ").sql(bin.op().sql).sql(" ");
            emit(b, bin.right());
            b.sql(")");
        } else if (expr instanceof Expr.Not n) {
            b.sql("(NOT ");
            emit(b, n.operand());
            b.sql(")");
        } else if (expr instanceof Expr.Between bt) {
            b.sql("(");
            emit(b, bt.value());
            b.sql(bt.negated() ? " NOT BETWEEN " : " BETWEEN ");
            emit(b, bt.lower());
            b.sql(" AND ");
            emit(b, bt.upper());
            b.sql(")");
        } else if (expr instanceof Expr.InList in) {
            b.sql("(");
            emit(b, in.value());
            b.sql(in.negated() ? " NOT IN (" : " IN (");
            list(b, in.items());
            b.sql("))");
        } else if (expr instanceof Expr.Like l) {
            b.sql("(");
            emit(b, l.value());
            b.sql(l.negated() ? " NOT" : "").sql(l.caseInsensitive() ? " ILIKE " : " LIKE ");
            emit(b, l.pattern());
            b.sql(")");
        } else if (expr instanceof Expr.IsNull n) {
            b.sql("(");
            emit(b, n.value());
            b.sql(n.negated() ? " IS NOT NULL)" : " IS NULL)");
        } else if (expr instanceof Expr.Cast c) {
            b.sql("CAST(");
            emit(b, c.value());
            b.sql(" AS ").sql(ColumnType.from(c.type()).sql()).sql(")");
        } else if (expr instanceof Expr.Case c) {
            b.sql("CASE");
            if (c.operand() != null) {
                b.sql(" ");
                emit(b, c.operand());
            }
            for (Expr.When when : c.whens()) {
                b.sql(" WHEN ");
                emit(b, when.condition());
                b.sql(" THEN ");
                emit(b, when.result());
            }
            if (c.otherwise() != null) {
                b.sql(" ELSE ");
                emit(b, c.otherwise());
            }
            b.sql(" END");
        } else if (expr instanceof Expr.FunctionCall f) {
            Function function = Function.named(f.name().name()).orElseThrow();
            b.sql(function.sqlName()).sql("(");
            if (f.star()) {
                b.sql("*");
            } else {
                if (f.distinct()) {
                    b.sql("DISTINCT ");
                }
                list(b, f.args());
            }
            b.sql(")");
        }
    }

    private void list(SqlBuilder b, List<Expr> items) {
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                b.sql(", ");
            }
            emit(b, items.get(i));
        }
    }

    private static void literal(SqlBuilder b, Expr.Literal lit) {
        switch (lit.kind()) {
            case NULL -> b.sql("NULL");
            case BOOLEAN -> b.sql(Boolean.parseBoolean(lit.text()) ? "TRUE" : "FALSE");
            case INTEGER -> b.bind(integer(new BigDecimal(lit.text())));
            case DECIMAL -> b.bind(new BigDecimal(lit.text()));
            case STRING -> b.bind(lit.text());
            case DATE -> b.sql("CAST(").bind(lit.text()).sql(" AS date)");
            case TIMESTAMP -> b.sql("CAST(").bind(lit.text()).sql(" AS timestamp)");
        }
    }

    /** Smallest Java type for an integer, so PostgreSQL sees int4 where it expects one (round(x, 2)). */
    static Object integer(BigDecimal value) {
        try {
            return value.intValueExact();
        } catch (ArithmeticException notInt) {
            try {
                return value.longValueExact();
            } catch (ArithmeticException notLong) {
                return value;
            }
        }
    }

    /** A request parameter as a bind value: numbers keep their precision, JSON structures become text. */
    static Object parameter(Object value) {
        if (value instanceof BigDecimal d) {
            return d.scale() <= 0 ? integer(d) : d;
        }
        if (value instanceof Long l) {
            return integer(BigDecimal.valueOf(l));
        }
        if (value instanceof JsonNode node) {
            return node.isString() ? node.asString() : node.toString();
        }
        return value;
    }
}
