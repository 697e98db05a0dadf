package io.verso.compile;

import io.verso.analyze.BoundSelect;
import io.verso.analyze.KeyPredicate;
import io.verso.analyze.RelationKind;
import io.verso.analyze.SystemRelation;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Query;
import io.verso.sql.ast.Query.SelectItem;
import java.math.BigDecimal;
import java.util.List;

/**
 * A bound read to PostgreSQL, clause for clause as written: every name quoted, every value a bind,
 * and every catalog relation replaced by its storage read at the commit the analyzer chose
 * ({@link RelationCompiler}, the one place that knows how tables are stored). A CTE is emitted as
 * a PostgreSQL CTE, a view as the derived table of its expanded body.
 */
public final class SelectCompiler {

    private final BoundSelect bound;
    private final List<Object> params;
    private final ExprCompiler exprs;

    private SelectCompiler(BoundSelect bound, List<Object> params) {
        this.bound = bound;
        this.params = params;
        this.exprs = new ExprCompiler(null, params, this::query);
    }

    public static CompiledSql compile(BoundSelect bound, List<Object> params) {
        SqlBuilder b = new SqlBuilder();
        new SelectCompiler(bound, params).query(b, bound.query());
        return b.build();
    }

    /**
     * The expressions of a bound read's block, for a statement of another shape that holds them (a SYSTEM
     * table's UPDATE ... SET and WHERE): names as written, subqueries compiled as this read's.
     */
    public static ExprCompiler expressions(BoundSelect bound, List<Object> params) {
        return new SelectCompiler(bound, params).exprs;
    }

    /**
     * For a read of one keyed table's current rows whose WHERE fixes every key column (a one-key read): a scalar
     * subquery of the latest commit that changed any key it names, a deleted key's included (NULL when none of
     * them has a row), selected by the read's own key conditions; else null. The read's rows are the same as of
     * that commit as at any later one up to its snapshot: engine.StatementEngine may report the read at it, and
     * the REST row's ETag is made of it.
     */
    public static CompiledSql keysLastChanged(BoundSelect bound, List<Object> params) {
        if (!bound.query().with().isEmpty() || !(bound.query().body() instanceof Query.Block block)
                || block.from().size() != 1 || !(block.from().get(0) instanceof Query.TableRef ref)
                || !ref.columnAliases().isEmpty()
                || !(bound.bindings().get(ref) instanceof BoundSelect.TableRead read)
                || read.relation().kind() != RelationKind.CURRENT || read.relation().asOf() != null) {
            return null;
        }
        TableDef table = read.relation().table();
        List<ColumnDef> keys = table.keyColumns();
        List<Expr> conditions = table.mode().keyed() && !keys.isEmpty()
                && keys.stream().noneMatch(k -> k.name().equals(RelationCompiler.LAST_CHANGE))
                ? KeyPredicate.keyConjuncts(block.where(), keys) : null;
        if (conditions == null) {
            return null;
        }
        SqlBuilder b = new SqlBuilder().sql("(SELECT max(").ident(RelationCompiler.LAST_CHANGE).sql(") FROM ");
        RelationCompiler.keysWithLastChange(b, table);
        b.sql(" AS ").ident(ref.visibleName()).sql(" WHERE ");
        ExprCompiler exprs = new SelectCompiler(bound, params).exprs;
        for (int i = 0; i < conditions.size(); i++) {
            b.sql(i > 0 ? " AND " : "");
            exprs.emit(b, conditions.get(i));
        }
        return b.sql(")").build();
    }

    /** Emits a read into a statement being built (INSERT ... SELECT). */
    public static void emit(SqlBuilder b, BoundSelect bound, List<Object> params) {
        new SelectCompiler(bound, params).query(b, bound.query());
    }

    private void query(SqlBuilder b, Query query) {
        if (!query.with().isEmpty()) {
            b.sql(query.with().get(0).recursive() ? "WITH RECURSIVE " : "WITH ");
            for (int i = 0; i < query.with().size(); i++) {
                Query.Cte cte = query.with().get(i);
                b.sql(i > 0 ? ", " : "").ident(cte.name().name());
                columnAliases(b, cte.columns());
                b.sql(" AS (");
                query(b, cte.query());
                b.sql(")");
            }
            b.sql(" ");
        }
        body(b, query.body());
        int outputs = bound.outputs().getOrDefault(query, 0);
        if (!query.orderBy().isEmpty()) {
            b.sql(" ORDER BY ");
            for (int i = 0; i < query.orderBy().size(); i++) {
                b.sql(i > 0 ? ", " : "");
                // As in GROUP BY: an ORDER BY that is a select item of a block is that item, by position.
                int item = query.body() instanceof Query.Block block
                        ? selectItemLike(block, query.orderBy().get(i).expr()) : 0;
                if (item > 0) {
                    b.number(item);
                    sortDirection(b, query.orderBy().get(i));
                } else {
                    sortItem(b, query.orderBy().get(i), outputs);
                }
            }
        }
        if (query.limit() != null) {
            b.sql(" LIMIT ").bind(count(query.limit(), params, "LIMIT"));
        }
        if (query.offset() != null) {
            b.sql(" OFFSET ").bind(count(query.offset(), params, "OFFSET"));
        }
    }

    private void body(SqlBuilder b, Query.Body body) {
        if (body instanceof Query.Block block) {
            block(b, block);
        } else if (body instanceof Query.Nested nested) {
            b.sql("(");
            query(b, nested.query());
            b.sql(")");
        } else {
            Query.SetOp op = (Query.SetOp) body;
            // Each side parenthesised, so PostgreSQL combines them exactly as the tree says.
            b.sql("(");
            body(b, op.left());
            b.sql(") ").sql(op.kind().name()).sql(op.all() ? " ALL (" : " (");
            body(b, op.right());
            b.sql(")");
        }
    }

    private void block(SqlBuilder b, Query.Block block) {
        b.sql("SELECT ");
        if (block.distinct()) {
            b.sql("DISTINCT ");
        }
        for (int i = 0; i < block.items().size(); i++) {
            SelectItem item = block.items().get(i);
            b.sql(i > 0 ? ", " : "");
            List<io.verso.analyze.ResolvedRef> spelled = bound.stars().get(item);
            if (spelled != null) {
                // Relations with invisible columns (system versioning's implicit period): PostgreSQL's * would list them.
                for (int c = 0; c < spelled.size(); c++) {
                    io.verso.analyze.ResolvedRef ref = spelled.get(c);
                    b.sql(c > 0 ? ", " : "");
                    if (ref.qualifier() == null) {
                        b.ident(ref.column());
                    } else {
                        b.qualified(ref.qualifier(), ref.column());
                    }
                }
            } else if (item instanceof SelectItem.All) {
                b.sql("*");
            } else if (item instanceof SelectItem.AllOf all) {
                b.ident(all.qualifier().name()).sql(".*");
            } else {
                SelectItem.Item it = (SelectItem.Item) item;
                exprs.emit(b, it.expr());
                if (it.alias() != null) {
                    b.sql(" AS ").ident(it.alias().name());
                }
            }
        }
        if (!block.from().isEmpty()) {
            b.sql(" FROM ");
            for (int i = 0; i < block.from().size(); i++) {
                b.sql(i > 0 ? ", " : "");
                fromItem(b, block.from().get(i));
            }
        }
        if (bound.recursiveSteps().contains(block)) {
            // A step of WITH RECURSIVE: verso.recursion_step (V27) counts the rows it makes and refuses a
            // recursion past verso.max-recursive-rows (RECURSION_LIMIT) rather than let it run to the timeout.
            b.sql(" WHERE ");
            if (block.where() != null) {
                b.sql("(");
                exprs.emit(b, block.where());
                b.sql(") AND ");
            }
            b.sql("verso.recursion_step()");
        } else if (block.where() != null) {
            b.sql(" WHERE ");
            exprs.emit(b, block.where());
        }
        int outputs = bound.outputs().getOrDefault(block, 0);
        if (!block.groupBy().isEmpty()) {
            b.sql(" GROUP BY ");
            for (int i = 0; i < block.groupBy().size(); i++) {
                b.sql(i > 0 ? ", " : "");
                int item = selectItemLike(block, block.groupBy().get(i));
                if (item > 0) {
                    // The select item itself: a string literal in it is a bind parameter, and PostgreSQL would not
                    // see the GROUP BY's own parameter as the same expression (date_trunc('month', at)).
                    b.number(item);
                } else {
                    orderingExpr(b, block.groupBy().get(i), outputs);
                }
            }
        }
        if (block.having() != null) {
            b.sql(" HAVING ");
            exprs.emit(b, block.having());
        }
        if (!block.windows().isEmpty()) {
            b.sql(" WINDOW ");
            for (int i = 0; i < block.windows().size(); i++) {
                Query.WindowDef w = block.windows().get(i);
                b.sql(i > 0 ? ", " : "").ident(w.name().name()).sql(" AS (");
                exprs.windowSpec(b, w.spec());
                b.sql(")");
            }
        }
    }

    /**
     * A system relation's rows, made from the catalog: each column's values bound as one array, so a listing
     * of any size is a fixed number of binds, and nothing of the catalog (names, view texts) is in the text.
     */
    private static void systemRows(SqlBuilder b, BoundSelect.SystemRead system) {
        List<SystemRelation.Column> columns = system.relation().columns();
        List<List<Object>> rows = system.relation().rows();
        b.sql("unnest(");
        for (int i = 0; i < columns.size(); i++) {
            Object[] values = new Object[rows.size()];
            for (int r = 0; r < rows.size(); r++) {
                values[r] = rows.get(r).get(i);
            }
            String type = columns.get(i).type().sql();
            b.sql(i > 0 ? ", " : "").sql("CAST(").bind(new CompiledSql.ArrayBind(type, values)).sql(" AS ")
                    .sql(type).sql("[])");
        }
        b.sql(")");
    }

    private void fromItem(SqlBuilder b, Query.FromItem item) {
        if (item instanceof Query.TableRef ref) {
            BoundSelect.Binding binding = bound.bindings().get(ref);
            if (binding instanceof BoundSelect.TableRead read) {
                RelationCompiler.emit(b, read.relation());
            } else if (binding instanceof BoundSelect.ViewRead view) {
                b.sql("(");
                query(b, view.body());
                b.sql(")");
            } else if (binding instanceof BoundSelect.SystemRead system) {
                systemRows(b, system);
                b.sql(" AS ").ident(ref.visibleName()).sql("(");
                for (int i = 0; i < system.columns().size(); i++) {
                    b.sql(i > 0 ? ", " : "").ident(system.columns().get(i));
                }
                b.sql(")");
                return;
            } else {
                b.ident(((BoundSelect.CteRead) binding).name());
            }
            b.sql(" AS ").ident(ref.visibleName());
            if (binding instanceof BoundSelect.ViewRead view && ref.columnAliases().isEmpty()) {
                // A view's declared column names rename its body's columns.
                b.sql("(");
                for (int i = 0; i < view.columns().size(); i++) {
                    b.sql(i > 0 ? ", " : "").ident(view.columns().get(i));
                }
                b.sql(")");
            } else {
                columnAliases(b, ref.columnAliases());
            }
        } else if (item instanceof Query.FunctionTable function) {
            exprs.emit(b, function.call());
            b.sql(" AS ").ident(function.visibleName());
            columnAliases(b, function.columnAliases());
        } else if (item instanceof Query.Derived derived) {
            b.sql("(");
            query(b, derived.query());
            b.sql(") AS ").ident(derived.alias().name());
            columnAliases(b, derived.columnAliases());
        } else {
            Query.Join join = (Query.Join) item;
            b.sql("(");
            fromItem(b, join.left());
            b.sql(switch (join.type()) {
                case INNER -> " JOIN ";
                case LEFT -> " LEFT JOIN ";
                case RIGHT -> " RIGHT JOIN ";
                case FULL -> " FULL JOIN ";
                case CROSS -> " CROSS JOIN ";
            });
            fromItem(b, join.right());
            if (join.on() != null) {
                b.sql(" ON ");
                exprs.emit(b, join.on());
            } else if (!join.using().isEmpty()) {
                b.sql(" USING (");
                for (int i = 0; i < join.using().size(); i++) {
                    b.sql(i > 0 ? ", " : "").ident(join.using().get(i).name());
                }
                b.sql(")");
            }
            b.sql(")");
        }
    }

    private static void columnAliases(SqlBuilder b, List<Ident> columns) {
        if (columns.isEmpty()) {
            return;
        }
        b.sql("(");
        for (int i = 0; i < columns.size(); i++) {
            b.sql(i > 0 ? ", " : "").ident(columns.get(i).name());
        }
        b.sql(")");
    }

    private void sortItem(SqlBuilder b, Query.SortItem sort, int outputs) {
        orderingExpr(b, sort.expr(), outputs);
        sortDirection(b, sort);
    }

    private static void sortDirection(SqlBuilder b, Query.SortItem sort) {
        b.sql(sort.descending() ? " DESC" : " ASC");
        if (sort.nullsFirst() != null) {
            b.sql(sort.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
        }
    }

    /**
     * The position (from 1) of a select item that compiles exactly like {@code expr}, binds included,
     * else 0. Only expressions with binds need it: numerals are inlined, so they match PostgreSQL's way.
     */
    private int selectItemLike(Query.Block block, Expr expr) {
        if (expr instanceof Expr.Literal || expr instanceof Expr.ColumnRef) {
            return 0;
        }
        SqlBuilder grouped = new SqlBuilder();
        exprs.emit(grouped, expr);
        CompiledSql target = grouped.build();
        if (target.binds().isEmpty()) {
            return 0;
        }
        for (int i = 0; i < block.items().size(); i++) {
            if (block.items().get(i) instanceof SelectItem.Item it && bound.stars().get(it) == null) {
                SqlBuilder item = new SqlBuilder();
                exprs.emit(item, it.expr());
                // Compared by value, as bound: a statement compiled with parameter slots depends on them then.
                if (ParamSlots.fill(item.build(), params).equals(ParamSlots.fill(target, params))) {
                    return i + 1;
                }
            }
        }
        return 0;
    }

    /** GROUP BY / ORDER BY: an integer literal is an output column ordinal, range-checked and inlined. */
    private void orderingExpr(SqlBuilder b, Expr expr, int outputColumns) {
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
