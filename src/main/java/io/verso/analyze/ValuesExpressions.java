package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Query;
import io.verso.sql.ast.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The items of INSERT/UPSERT ... VALUES that are expressions (arithmetic, casts, function calls)
 * rather than a literal, a parameter or DEFAULT: what they may hold, the query that evaluates them once
 * each, and the statement with their values put in as literals. A value then goes through the checks
 * of its column ({@link Values}) exactly as a literal written there would.
 */
public final class ValuesExpressions {

    private ValuesExpressions() {
    }

    /** One expression item: row r's value for the i-th named column. */
    public record Item(int row, int column, Expr expr) {
    }

    /** A VALUES item read without evaluation ({@link Values#valueOf}, or DEFAULT). */
    public static boolean plain(Expr item, List<Object> params) {
        return item instanceof Expr.Literal lit && lit.kind() != Expr.LiteralKind.INTERVAL
                || item instanceof Expr.Parameter || item instanceof Expr.Default
                || item instanceof Expr.Unary u && u.op() == Expr.UnaryOp.MINUS && u.operand() instanceof Expr.Parameter p
                && params.get(p.index()) instanceof Number;
    }

    /**
     * The expression items of a statement's VALUES, each checked: a row's value is computed from
     * constants and parameters only, so no column, subquery, aggregate or window function. Items
     * beyond the named columns are left to the width check.
     */
    public static List<Item> items(Statement.InsertRows statement, int named, List<Object> params) {
        List<Item> items = new ArrayList<>();
        if (statement.rows() == null) {
            return items;
        }
        for (int r = 0; r < statement.rows().size(); r++) {
            List<Expr> row = statement.rows().get(r);
            for (int i = 0; i < Math.min(named, row.size()); i++) {
                Expr item = row.get(i);
                if (!plain(item, params)) {
                    check(item);
                    items.add(new Item(r, i, item));
                }
            }
        }
        return items;
    }

    private static void check(Expr expr) {
        String refused = expr instanceof Expr.ColumnRef ? "a column"
                : expr instanceof Expr.Subquery || expr instanceof Expr.Exists || expr instanceof Expr.InSubquery
                || expr instanceof Expr.Quantified ? "a subquery" : null;
        if (expr instanceof Expr.FunctionCall f) {
            Function function = Function.resolve(f);
            if (f.over() != null || function.kind == Function.Kind.WINDOW) {
                refused = "a window function";
            } else if (function.kind != Function.Kind.SCALAR && function.kind != Function.Kind.BARE) {
                refused = "an aggregate (" + f.name().name() + ")";
            }
        }
        if (refused != null) {
            throw VersoException.at(ErrorCode.INVALID_EXPRESSION, "a VALUES item is computed from literals, "
                    + "parameters and functions of them, and cannot use " + refused
                    + " (INSERT ... SELECT reads tables)", expr.pos());
        }
        ReadAnalyzer.children(expr).forEach(ValuesExpressions::check);
    }

    /** {@code SELECT item, ...} without FROM, its outputs in the order of {@code items}. */
    public static Query select(List<Item> items, Pos pos) {
        List<Query.SelectItem> outputs = new ArrayList<>(items.size());
        for (Item item : items) {
            outputs.add(new Query.SelectItem.Item(item.expr(), null, item.expr().pos()));
        }
        return new Query(List.of(), new Query.Block(false, outputs, List.of(), null, List.of(), null, List.of(), pos),
                List.of(), null, null, null, pos);
    }

    /** The columns the items are written to, for the cast each value gets. */
    public static List<ColumnDef> columns(List<Item> items, List<ColumnDef> named) {
        return items.stream().map(item -> named.get(item.column())).toList();
    }

    /** The statement with each item replaced by its value (text in its column's form, or NULL) as a literal. */
    public static Statement.InsertRows evaluated(Statement.InsertRows statement, List<Item> items, String[] values) {
        List<List<Expr>> rows = new ArrayList<>(statement.rows().size());
        statement.rows().forEach(row -> rows.add(new ArrayList<>(row)));
        for (int k = 0; k < items.size(); k++) {
            Item item = items.get(k);
            Pos at = item.expr().pos();
            rows.get(item.row()).set(item.column(), values[k] == null ? new Expr.Literal(Expr.LiteralKind.NULL, null, at)
                    : new Expr.Literal(Expr.LiteralKind.STRING, values[k], at));
        }
        return new Statement.InsertRows(statement.upsert(), statement.table(), statement.columns(), rows,
                statement.query(), statement.group(), statement.pos(), statement.columnValues());
    }
}
