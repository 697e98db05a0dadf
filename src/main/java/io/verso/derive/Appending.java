package io.verso.derive;

import io.verso.analyze.BoundSelect;
import io.verso.analyze.Function;
import io.verso.analyze.ReadAnalyzer;
import io.verso.catalog.TableMode;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Query;
import java.util.ArrayList;
import java.util.List;

/**
 * The query of a keyless derived table, which is stored as an APPEND table and so may only ever
 * gain rows: a projection or filter of one APPEND table (an APPEND table or a keyless derived
 * one), with no grouping, aggregate, DISTINCT, window, join, subquery, CTE, set operation, LIMIT
 * or OFFSET. Then the rows a source commit adds to the result are the query over the source rows
 * that commit appended, which {@link #at} reads.
 */
final class Appending {

    private final Query query;
    private final Query.Block block;
    private final Query.TableRef source;
    private final List<String> columns;

    private Appending(Query query, Query.Block block, Query.TableRef source, List<String> columns) {
        this.query = query;
        this.block = block;
        this.source = source;
        this.columns = columns;
    }

    /** The query's appending shape, or null when its result can lose or change rows. */
    static Appending of(Query query, BoundSelect bound) {
        if (!query.with().isEmpty() || query.limit() != null || query.offset() != null
                || !(query.body() instanceof Query.Block block) || block.distinct() || block.from().size() != 1
                || !(block.from().get(0) instanceof Query.TableRef ref) || ref.pseudo() || ref.asOf() != null
                || !block.groupBy().isEmpty() || block.having() != null || !block.windows().isEmpty()
                || bound.relations().size() != 1
                || !(bound.bindings().get(ref) instanceof BoundSelect.TableRead read)
                || read.relation().table().mode() != TableMode.APPEND) {
            return null;
        }
        List<Expr> expressions = new ArrayList<>();
        for (Query.SelectItem item : block.items()) {
            if (item instanceof Query.SelectItem.Item i) {
                expressions.add(i.expr());
            }
        }
        if (block.where() != null) {
            expressions.add(block.where());
        }
        if (!expressions.stream().allMatch(Appending::perRow)) {
            return null;
        }
        return new Appending(query, block, ref, read.relation().table().columns().stream()
                .map(io.verso.catalog.ColumnDef::name).toList());
    }

    /** No subquery, window or aggregate anywhere in the expression: its value is one source row's. */
    private static boolean perRow(Expr expr) {
        if (expr instanceof Expr.Subquery || expr instanceof Expr.Exists || expr instanceof Expr.InSubquery
                || expr instanceof Expr.Quantified) {
            return false;
        }
        if (expr instanceof Expr.FunctionCall f && (f.over() != null
                || Function.named(f.name().name()).map(fn -> fn.aggregate).orElse(false))) {
            return false;
        }
        return ReadAnalyzer.children(expr).stream().allMatch(Appending::perRow);
    }

    /**
     * The query over the source rows appended at {@code commit} only: the source is replaced by
     * {@code (SELECT <its columns> FROM changes(source) WHERE _commit = commit)} under the same name.
     */
    Query at(long commit) {
        var pos = source.pos();
        List<Query.SelectItem> items = new ArrayList<>();
        for (String column : columns) {
            items.add(new Query.SelectItem.Item(new Expr.ColumnRef(null, new Ident(column, pos), pos), null, pos));
        }
        Expr appendedAt = new Expr.Binary(Expr.BinaryOp.EQ, new Expr.ColumnRef(null, new Ident("_commit", pos), pos),
                new Expr.Literal(Expr.LiteralKind.INTEGER, Long.toString(commit), pos), pos);
        Query.Block rows = new Query.Block(false, items, List.of(new Query.TableRef(source.name(), false, true, null,
                null, List.of(), pos)), appendedAt, List.of(), null, List.of(), pos);
        Query.FromItem appended = new Query.Derived(new Query(List.of(), rows, List.of(), null, null, null, pos), null,
                new Ident(source.visibleName(), pos), source.columnAliases(), pos);
        Query.Block only = new Query.Block(false, block.items(), List.of(appended), block.where(), List.of(), null,
                List.of(), block.pos());
        return new Query(List.of(), only, List.of(), null, null, null, query.pos());
    }
}
