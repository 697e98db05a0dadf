package io.verso.derive;

import io.verso.analyze.BoundSelect;
import io.verso.analyze.ReadAnalyzer;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.compile.DerivedCompiler;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Query;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * When a derived table can follow a source commit by the keys it changed rather than by running
 * its whole query: the query reads one table (VERSIONED, APPEND or derived), with no join,
 * subquery, CTE, set operation, window function, LIMIT or OFFSET, and each of the derived table's
 * key columns is a plain column of that table. Projections, filters, DISTINCT and GROUP BY (any
 * aggregate, HAVING) qualify. Then the derived rows with key value v depend only on the source
 * rows whose columns hold v, so a commit can change only the derived keys whose values its
 * changed source rows held before or after it: the query is run for those values only (PostgreSQL
 * pushes the condition down to the source's scan, below any grouping) and compared with the
 * derived rows of those keys only.
 *
 * <p>The source columns must be key columns of the source, or the source keeps one attribute
 * group (or is APPEND): a changed row's other values then come from the versions the commit
 * started and closed. Otherwise, or when a value is NULL (which the full recompute refuses as a
 * key), or when a commit touches more than {@link #MAX_VALUES} values, the whole query runs.
 * Shapes this does not follow (joins, keys computed by an expression) may still be followed by
 * {@link Footprint}, which finds the keys by running the query's joins over the changed rows.
 */
final class Locality {

    static final int MAX_VALUES = 10_000;

    private final TableDef source;
    /** Per key column of the derived table, in key order: the source column it is. */
    private final List<ColumnDef> columns;
    private final TableDef derived;

    private Locality(TableDef source, List<ColumnDef> columns, TableDef derived) {
        this.source = source;
        this.columns = columns;
        this.derived = derived;
    }

    /** The shape's locality, or null when the whole query must run at every commit. */
    static Locality of(Query query, BoundSelect bound, TableDef derived) {
        if (!query.with().isEmpty() || query.limit() != null || query.offset() != null
                || !(query.body() instanceof Query.Block block) || block.from().size() != 1
                || !(block.from().get(0) instanceof Query.TableRef ref) || ref.pseudo() || ref.asOf() != null
                || !ref.columnAliases().isEmpty() || !block.windows().isEmpty() || bound.relations().size() != 1
                || !(bound.bindings().get(ref) instanceof BoundSelect.TableRead read)) {
            return null;
        }
        TableDef source = read.relation().table();
        if (source.mode() != TableMode.VERSIONED && source.mode() != TableMode.APPEND) {
            return null;
        }
        List<Expr> expressions = new ArrayList<>();
        List<String> sourceOf = new ArrayList<>();
        for (Query.SelectItem item : block.items()) {
            if (item instanceof Query.SelectItem.Item i) {
                expressions.add(i.expr());
                sourceOf.add(i.expr() instanceof Expr.ColumnRef r && (r.qualifier() == null
                        || r.qualifier().name().equals(ref.visibleName())) ? r.column().name() : null);
            } else {
                sourceOf.addAll(read.relation().columns());
            }
        }
        if (block.where() != null) {
            expressions.add(block.where());
        }
        expressions.addAll(block.groupBy());
        if (block.having() != null) {
            expressions.add(block.having());
        }
        if (!expressions.stream().allMatch(Locality::rowLocal) || sourceOf.size() != bound.columns().size()) {
            return null;
        }
        List<ColumnDef> columns = new ArrayList<>();
        for (ColumnDef key : derived.keyColumns()) {
            int at = bound.columns().indexOf(key.name());
            String name = at < 0 ? null : sourceOf.get(at);
            ColumnDef column = name == null ? null
                    : source.columns().stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
            if (column == null || (!column.isKey() && source.mode() == TableMode.VERSIONED
                    && source.groups().size() > 1)) {
                return null;
            }
            columns.add(column);
        }
        return new Locality(source, columns, derived);
    }

    /** No subquery and no window function anywhere in the expression. */
    static boolean rowLocal(Expr expr) {
        if (expr instanceof Expr.Subquery || expr instanceof Expr.Exists || expr instanceof Expr.InSubquery
                || expr instanceof Expr.Quantified || (expr instanceof Expr.FunctionCall f && f.over() != null)) {
            return false;
        }
        return ReadAnalyzer.children(expr).stream().allMatch(Locality::rowLocal);
    }

    /**
     * The values the source rows changed by {@code commit} held in the key's source columns, before
     * or after it; null when the whole query must run instead (a NULL, or too many values).
     */
    DerivedCompiler.Among affected(DeriveContext request, long commit) {
        List<String[]> rows = request.texts(DerivedCompiler.changedValues(source, columns, commit, MAX_VALUES + 1));
        if (rows.size() > MAX_VALUES) {
            return null;
        }
        List<String[]> values = new ArrayList<>();
        List<ColumnDef> keys = derived.keyColumns();
        for (int i = 0; i < columns.size(); i++) {
            Set<String> distinct = new LinkedHashSet<>();
            for (String[] row : rows) {
                if (row[i] == null) {
                    return null;
                }
                distinct.add(row[i]);
            }
            values.add(distinct.toArray(new String[0]));
        }
        return new DerivedCompiler.Among(keys, values);
    }
}
