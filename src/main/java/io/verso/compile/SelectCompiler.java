package io.verso.compile;

import io.verso.analyze.BoundRelation;
import io.verso.analyze.BoundSelect;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Statement;
import io.verso.sql.ast.Statement.SelectItem;
import java.math.BigDecimal;
import java.util.List;

/** A bound SELECT to PostgreSQL: each relation becomes its subquery, the rest maps clause by clause. */
public final class SelectCompiler {

    private SelectCompiler() {
    }

    public static CompiledSql compile(BoundSelect bound, List<Object> params) {
        Statement.Select select = bound.select();
        ExprCompiler exprs = new ExprCompiler(bound.refs(), params);
        SqlBuilder b = new SqlBuilder();
        b.sql("SELECT ");
        if (select.distinct()) {
            b.sql("DISTINCT ");
        }
        int outputColumns = 0;
        for (int i = 0; i < select.items().size(); i++) {
            SelectItem item = select.items().get(i);
            if (i > 0) {
                b.sql(", ");
            }
            if (item instanceof SelectItem.All) {
                b.sql("*");
                outputColumns += bound.relations().stream().mapToInt(r -> r.columns().size()).sum();
            } else if (item instanceof SelectItem.AllOf all) {
                b.ident(all.qualifier().name()).sql(".*");
                outputColumns += bound.relations().stream().filter(r -> r.alias().equals(all.qualifier().name()))
                        .mapToInt(r -> r.columns().size()).sum();
            } else if (item instanceof SelectItem.Item it) {
                exprs.emit(b, it.expr());
                if (it.alias() != null) {
                    b.sql(" AS ").ident(it.alias().name());
                }
                outputColumns++;
            }
        }
        b.sql(" FROM ");
        relation(b, bound.relations().get(0));
        for (int i = 0; i < select.joins().size(); i++) {
            Statement.Join join = select.joins().get(i);
            b.sql(join.type() == Statement.JoinType.LEFT ? " LEFT JOIN " : " JOIN ");
            relation(b, bound.relations().get(i + 1));
            b.sql(" ON ");
            exprs.emit(b, join.on());
        }
        if (select.where() != null) {
            b.sql(" WHERE ");
            exprs.emit(b, select.where());
        }
        if (!select.groupBy().isEmpty()) {
            b.sql(" GROUP BY ");
            for (int i = 0; i < select.groupBy().size(); i++) {
                b.sql(i > 0 ? ", " : "");
                orderingExpr(b, exprs, select.groupBy().get(i), outputColumns);
            }
        }
        if (select.having() != null) {
            b.sql(" HAVING ");
            exprs.emit(b, select.having());
        }
        if (!select.orderBy().isEmpty()) {
            b.sql(" ORDER BY ");
            for (int i = 0; i < select.orderBy().size(); i++) {
                Statement.SortItem sort = select.orderBy().get(i);
                b.sql(i > 0 ? ", " : "");
                orderingExpr(b, exprs, sort.expr(), outputColumns);
                b.sql(sort.descending() ? " DESC" : " ASC");
                if (sort.nullsFirst() != null) {
                    b.sql(sort.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
                }
            }
        }
        if (select.limit() != null) {
            b.sql(" LIMIT ").bind(count(select.limit(), params, "LIMIT"));
        }
        if (select.offset() != null) {
            b.sql(" OFFSET ").bind(count(select.offset(), params, "OFFSET"));
        }
        return b.build();
    }

    private static void relation(SqlBuilder b, BoundRelation relation) {
        RelationCompiler.emit(b, relation);
        b.sql(" AS ").ident(relation.alias());
    }

    /** GROUP BY / ORDER BY: an integer literal is an output column ordinal, range-checked and inlined. */
    private static void orderingExpr(SqlBuilder b, ExprCompiler exprs, Expr expr, int outputColumns) {
        if (expr instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.INTEGER) {
            long ordinal;
            try {
                ordinal = Long.parseLong(lit.text());
            } catch (NumberFormatException e) {
                ordinal = -1;
            }
            if (ordinal < 1 || ordinal > outputColumns) {
                throw VersoException.at(ErrorCode.INVALID_EXPRESSION, "position " + lit.text()
                        + " is not in the select list (1 to " + outputColumns + ")", lit.pos());
            }
            b.number(ordinal);
            return;
        }
        exprs.emit(b, expr);
    }

    private static long count(Expr expr, List<Object> params, String clause) {
        Object value = expr instanceof Expr.Parameter p ? params.get(p.index()) : ((Expr.Literal) expr).text();
        try {
            long n = value instanceof Number num ? new BigDecimal(num.toString()).longValueExact()
                    : Long.parseLong(String.valueOf(value).trim());
            if (n >= 0) {
                return n;
            }
        } catch (ArithmeticException | NumberFormatException e) {
            // fall through to the error below
        }
        throw VersoException.at(ErrorCode.INVALID_LIMIT, clause + " takes a non-negative integer, not " + value,
                expr.pos());
    }
}
