package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Query;
import io.verso.sql.ast.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Whether a parsed request is <em>light</em> for admission (security.AdmissionFilter): work PostgreSQL
 * does by key, in time that does not grow with the tables. Everything else is heavy. The rule, judged on
 * the syntax tree and the definitions an instance already holds in memory (never a database round trip):
 * every statement is
 * <ul>
 *   <li>a one-key SELECT: one table by name (not a view, CTE, {@code history()} or {@code changes()}),
 *       at most a point-in-time AS OF, a WHERE that fixes every key column by {@code =} or {@code IN} with
 *       literals or parameters, and no join, subquery, aggregate, window, GROUP BY, DISTINCT or set
 *       operation;</li>
 *   <li>a small write: INSERT or UPSERT of listed rows (not from a SELECT), or UPDATE or DELETE whose WHERE
 *       fixes every key column, with no subquery in its values;</li>
 *   <li>a catalog look-up (SHOW TABLES, DESCRIBE, SHOW CREATE TABLE, SHOW GRANTS, SHOW DERIVED TABLES) or
 *       transaction control.</li>
 * </ul>
 * "Small" is the caller's part: the admission filter applies this only to bodies up to
 * {@code verso.admission.light-sql-bytes}. A table whose definition is not cached yet makes its statement
 * heavy (a lookup would be a round trip).
 */
public final class Weight {

    /** The key columns of a table by name, from definitions in memory; empty when the name is not a cached table. */
    public interface Keys {
        Optional<List<ColumnDef>> of(String table);
    }

    private Weight() {
    }

    public static boolean light(List<Statement> statements, Keys keys) {
        return !statements.isEmpty() && statements.stream().allMatch(s -> light(s, keys));
    }

    private static boolean light(Statement statement, Keys keys) {
        if (statement instanceof Statement.Listing || statement instanceof Statement.ShowGrants
                || statement instanceof Statement.TransactionControl) {
            return true;
        }
        if (statement instanceof Statement.Select select) {
            return oneKeySelect(select.query(), keys);
        }
        if (statement instanceof Statement.InsertRows insert) {
            return insert.query() == null && insert.rows().stream().allMatch(row -> row.stream().allMatch(Weight::plain));
        }
        if (statement instanceof Statement.Update update) {
            return fixesKey(update.where(), update.table().name(), keys)
                    && update.assignments().stream().allMatch(a -> plain(a.value()));
        }
        if (statement instanceof Statement.Delete delete) {
            return fixesKey(delete.where(), delete.table().name(), keys)
                    && delete.at().stream().allMatch(a -> plain(a.value()));
        }
        if (statement instanceof Statement.DeleteKeys) {
            return true;
        }
        // DDL, grants, ERASE, DELETE HISTORY, views and derived tables: they may wait for every writer
        // (the exclusive commit lock) or rewrite a whole table.
        return false;
    }

    private static boolean oneKeySelect(Query query, Keys keys) {
        if (!query.with().isEmpty() || !query.orderBy().isEmpty() && !plainSort(query.orderBy())
                || !(query.body() instanceof Query.Block block) || !pointInTime(query.asOf())
                || query.limit() != null && !plain(query.limit()) || query.offset() != null && !plain(query.offset())) {
            return false;
        }
        if (block.distinct() || !block.groupBy().isEmpty() || block.having() != null || !block.windows().isEmpty()
                || block.from().size() != 1 || !(block.from().get(0) instanceof Query.TableRef table)
                || table.pseudo() || !pointInTime(table.asOf())) {
            return false;
        }
        for (Query.SelectItem item : block.items()) {
            if (item instanceof Query.SelectItem.Item expr && !plain(expr.expr())) {
                return false;
            }
        }
        return fixesKey(block.where(), table.name().name(), keys);
    }

    private static boolean plainSort(List<Query.SortItem> items) {
        return items.stream().allMatch(s -> plain(s.expr()));
    }

    /** No AS OF, or one point in time: not a range of history. */
    private static boolean pointInTime(AsOf asOf) {
        return asOf == null || asOf instanceof AsOf.AtCommit || asOf instanceof AsOf.AtParameter
                || asOf instanceof AsOf.AtTimestamp;
    }

    private static boolean fixesKey(Expr where, String table, Keys keys) {
        if (where == null || !plain(where)) {
            return false;
        }
        Optional<List<ColumnDef>> key = keys.of(table);
        return key.isPresent() && !key.get().isEmpty() && KeyPredicate.fixesEveryKey(where, key.get());
    }

    /**
     * No subquery, aggregate or window anywhere in the expression: its cost is per row. Walked with a
     * stack of its own, since a chain of thousands of terms must not overflow this thread's.
     */
    static boolean plain(Expr root) {
        Deque<Expr> pending = new ArrayDeque<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            Expr expr = pending.pop();
            if (expr instanceof Expr.Subquery || expr instanceof Expr.Exists || expr instanceof Expr.InSubquery
                    || expr instanceof Expr.Quantified) {
                return false;
            }
            if (expr instanceof Expr.FunctionCall f && (f.over() != null || Function.named(f.name().name())
                    .map(fn -> fn.kind != Function.Kind.SCALAR && fn.kind != Function.Kind.BARE).orElse(true))) {
                return false;
            }
            ReadAnalyzer.children(expr).forEach(pending::push);
        }
        return true;
    }
}
