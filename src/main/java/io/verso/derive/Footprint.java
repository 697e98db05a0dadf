package io.verso.derive;

import io.verso.analyze.BoundSelect;
import io.verso.analyze.Function;
import io.verso.analyze.ReadAnalyzer;
import io.verso.analyze.ResolvedRef;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.compile.DerivedCompiler;
import io.verso.error.VersoException;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Query;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The derived keys a source commit can reach when the query joins tables (or reads one table in
 * a way {@link Locality} does not follow, such as a key computed by an expression). The query is
 * one block over VERSIONED, APPEND or derived tables combined by inner, cross, LEFT or RIGHT joins
 * (no FULL join, subquery, CTE, view, set operation, window function, LIMIT or OFFSET), and each
 * of the derived table's key columns is, per row of the joined FROM, an expression of that row
 * with no aggregate. GROUP BY with any aggregate, HAVING and DISTINCT qualify.
 *
 * <p>Why it is exact: a derived row is a function of the joined rows whose key expressions give
 * its key. A joined row present before the commit and gone after it (or the reverse) holds a
 * source row the commit changed, since every join and WHERE condition is a function of the row
 * alone. So the keys of the joined rows that hold a changed source row, found once AS OF the
 * commit before and once as the commit leaves the sources, are every key the commit can change;
 * {@link Deriver} then recomputes and compares those keys only. A source row is "changed" when
 * its key got a new winner at the commit (VERSIONED, derived) or when it was appended at the
 * commit (APPEND: matched by its values, which may take in equal older rows too: more keys, never
 * fewer). With an outer join a joined row can also vanish because its null-extended side found a
 * match: then each key column must be a plain column of a table on no join's null-extended side,
 * so the row that appeared in its place has the same key, and WHERE is left out of the search
 * (a filter that keeps the null-extended row may drop the matched one).
 *
 * <p>When a commit changes more than {@link Locality#MAX_VALUES} rows of a source, reaches more
 * keys than that, or a key that is NULL, or the commit before cannot be read (a deleted-history
 * horizon), the whole query runs instead.
 */
final class Footprint {

    private static final Pos NOWHERE = new Pos(1, 1);

    private final Query.Block block;
    /** Per key column of the derived table, in key order: its value per joined row. */
    private final List<Expr> keys;
    /** No outer join: the search may apply WHERE. */
    private final boolean filtered;
    /** Every table the block reads, in FROM order (a table read twice is here twice). */
    private final List<Query.TableRef> relations;
    private final TableDef derived;

    private Footprint(Query.Block block, List<Expr> keys, boolean filtered, List<Query.TableRef> relations,
                      TableDef derived) {
        this.block = block;
        this.keys = keys;
        this.filtered = filtered;
        this.relations = relations;
        this.derived = derived;
    }

    /** The shape's footprint, or null when the whole query must run at every commit. */
    static Footprint of(Query query, BoundSelect bound, TableDef derived) {
        if (!query.with().isEmpty() || query.limit() != null || query.offset() != null
                || !(query.body() instanceof Query.Block block) || !block.windows().isEmpty()
                || block.from().isEmpty() || derived.mode() != TableMode.VERSIONED) {
            return null;
        }
        From from = new From(bound);
        for (Query.FromItem item : block.from()) {
            if (!from.walk(item, false)) {
                return null;
            }
        }
        List<Expr> expressions = new ArrayList<>(from.conditions);
        for (Query.SelectItem item : block.items()) {
            if (item instanceof Query.SelectItem.Item i) {
                expressions.add(i.expr());
            }
        }
        if (block.where() != null) {
            expressions.add(block.where());
        }
        expressions.addAll(block.groupBy());
        if (block.having() != null) {
            expressions.add(block.having());
        }
        if (!expressions.stream().allMatch(Locality::rowLocal)) {
            return null;
        }
        List<Expr> outputs = from.outputs(block);
        if (outputs == null || outputs.size() != bound.columns().size()) {
            return null;
        }
        List<Expr> keys = new ArrayList<>();
        for (ColumnDef key : derived.keyColumns()) {
            int at = bound.columns().indexOf(key.name());
            if (at < 0 || bound.columns().lastIndexOf(key.name()) != at) {
                return null;
            }
            Expr expr = outputs.get(at);
            if (!perRow(expr) || (!from.nullable.isEmpty() && !from.preserved(expr))) {
                return null;
            }
            keys.add(expr);
        }
        return new Footprint(block, keys, from.nullable.isEmpty(), from.relations, derived);
    }

    /** The block's FROM: its tables, which of them an outer join may null-extend, its join conditions. */
    private static final class From {
        private final BoundSelect bound;
        private final List<Query.TableRef> relations = new ArrayList<>();
        private final Set<String> nullable = new HashSet<>();
        private final List<Expr> conditions = new ArrayList<>();
        private boolean using;

        From(BoundSelect bound) {
            this.bound = bound;
        }

        boolean walk(Query.FromItem item, boolean nullExtended) {
            if (item instanceof Query.TableRef ref) {
                if (ref.pseudo() || ref.asOf() != null || !ref.columnAliases().isEmpty()
                        || !(bound.bindings().get(ref) instanceof BoundSelect.TableRead read)
                        || (read.relation().table().mode() != TableMode.VERSIONED
                        && read.relation().table().mode() != TableMode.APPEND)) {
                    return false;
                }
                relations.add(ref);
                if (nullExtended) {
                    nullable.add(ref.visibleName());
                }
                return true;
            }
            if (!(item instanceof Query.Join join) || join.type() == Query.JoinType.FULL) {
                return false;
            }
            if (join.on() != null) {
                conditions.add(join.on());
            }
            using |= !join.using().isEmpty();
            return walk(join.left(), nullExtended || join.type() == Query.JoinType.RIGHT)
                    && walk(join.right(), nullExtended || join.type() == Query.JoinType.LEFT);
        }

        private List<String> columns(Query.TableRef ref) {
            return ((BoundSelect.TableRead) bound.bindings().get(ref)).relation().columns();
        }

        /** The block's output columns as expressions over the joined row (stars spelled out); null if unsure. */
        List<Expr> outputs(Query.Block block) {
            List<Expr> out = new ArrayList<>();
            for (Query.SelectItem item : block.items()) {
                List<ResolvedRef> spelled = bound.stars().get(item);
                if (item instanceof Query.SelectItem.Item i) {
                    out.add(i.expr());
                } else if (spelled != null) {
                    spelled.forEach(r -> out.add(column(r.qualifier(), r.column())));
                } else if (item instanceof Query.SelectItem.AllOf all) {
                    Query.TableRef ref = relations.stream()
                            .filter(r -> r.visibleName().equals(all.qualifier().name())).findFirst().orElse(null);
                    if (ref == null) {
                        return null;
                    }
                    columns(ref).forEach(c -> out.add(column(ref.visibleName(), c)));
                } else if (using) {
                    return null; // SELECT * merges USING columns
                } else {
                    for (Query.TableRef ref : relations) {
                        columns(ref).forEach(c -> out.add(column(ref.visibleName(), c)));
                    }
                }
            }
            return out;
        }

        /** A plain column of a table that no outer join null-extends. */
        boolean preserved(Expr expr) {
            if (!(expr instanceof Expr.ColumnRef ref)) {
                return false;
            }
            if (ref.qualifier() != null) {
                String name = ref.qualifier().name();
                return relations.stream().anyMatch(r -> r.visibleName().equals(name)) && !nullable.contains(name);
            }
            List<Query.TableRef> owners = relations.stream()
                    .filter(r -> columns(r).contains(ref.column().name())).toList();
            return owners.size() == 1 && !nullable.contains(owners.get(0).visibleName());
        }
    }

    private static Expr.ColumnRef column(String qualifier, String name) {
        return new Expr.ColumnRef(qualifier == null ? null : new Ident(qualifier, NOWHERE), new Ident(name, NOWHERE),
                NOWHERE);
    }

    /** No aggregate and no window function: a value of one joined row. */
    private static boolean perRow(Expr expr) {
        if (expr instanceof Expr.FunctionCall f && (f.over() != null
                || Function.named(f.name().name()).map(fn -> fn.aggregate).orElse(true))) {
            return false;
        }
        return ReadAnalyzer.children(expr).stream().allMatch(Footprint::perRow);
    }

    /**
     * The derived keys the commit ({@code asOf}, or this request's when null) can have changed; null
     * when the whole query must run instead.
     */
    DerivedCompiler.Among affected(DeriveContext request, Long asOf) {
        long commit = asOf == null ? request.commit() : asOf;
        // As the commit before left the sources: during a replay the commit just before; live, the latest
        // commit made before this one (no commit lies between them).
        long before = asOf == null ? request.asOf().latestCommit() : asOf - 1;
        Map<String, DerivedCompiler.Among> changed = new HashMap<>();
        List<DerivedCompiler.Search> searches = new ArrayList<>();
        for (Query.TableRef ref : relations) {
            TableDef table = request.table(ref.name());
            DerivedCompiler.Among rows = changed.get(table.name());
            if (rows == null) {
                rows = changed(request, table, commit);
                if (rows == null) {
                    return null;
                }
                changed.put(table.name(), rows);
            }
            if (rows.nothing()) {
                continue;
            }
            // An APPEND table's new rows were not there before the commit.
            List<AsOf> states = new ArrayList<>();
            if (table.mode() != TableMode.APPEND) {
                states.add(new AsOf.AtCommit(before, NOWHERE));
            }
            states.add(asOf == null ? null : new AsOf.AtCommit(commit, NOWHERE));
            for (AsOf state : states) {
                BoundSelect bound;
                try {
                    bound = ReadAnalyzer.query(search(ref, rows.columns(), state), request, request.asOf(), 0);
                } catch (VersoException e) {
                    return null; // the commit before is behind a source's deleted-history horizon
                }
                searches.add(new DerivedCompiler.Search(bound, rows));
            }
        }
        List<ColumnDef> keyColumns = derived.keyColumns();
        if (searches.isEmpty()) {
            return new DerivedCompiler.Among(keyColumns, keyColumns.stream().map(k -> new String[0]).toList());
        }
        List<String[]> found = request.texts(DerivedCompiler.reached(searches, keys.size(), Locality.MAX_VALUES + 1));
        if (found.size() > Locality.MAX_VALUES) {
            return null;
        }
        List<String[]> values = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            Set<String> distinct = new LinkedHashSet<>();
            for (String[] row : found) {
                if (row[i] == null) {
                    return null; // the full query refuses a NULL key (or HAVING drops its group)
                }
                distinct.add(row[i]);
            }
            values.add(distinct.toArray(new String[0]));
        }
        return new DerivedCompiler.Among(keyColumns, values);
    }

    /**
     * The block's joined rows, without grouping, as key expressions followed by {@code ref}'s
     * {@code columns}, at {@code state} (null: as the request leaves the sources).
     */
    private Query search(Query.TableRef ref, List<ColumnDef> columns, AsOf state) {
        List<Query.SelectItem> items = new ArrayList<>();
        for (Expr key : keys) {
            items.add(new Query.SelectItem.Item(key, null, NOWHERE));
        }
        for (ColumnDef column : columns) {
            items.add(new Query.SelectItem.Item(column(ref.visibleName(), column.name()), null, NOWHERE));
        }
        Query.Block rows = new Query.Block(false, items, block.from(), filtered ? block.where() : null, List.of(),
                null, List.of(), block.pos());
        return new Query(List.of(), rows, List.of(), state, null, null, block.pos());
    }

    /**
     * The rows of {@code table} the commit changed: the keys that got a new winner (VERSIONED), or
     * the rows appended (APPEND, by all their values); null when there are too many.
     */
    private static DerivedCompiler.Among changed(DeriveContext request, TableDef table, long commit) {
        List<ColumnDef> columns = table.mode() == TableMode.APPEND ? table.columns() : table.keyColumns();
        List<String[]> rows = request.texts(DerivedCompiler.changedValues(table, columns, commit,
                Locality.MAX_VALUES + 1));
        if (rows.size() > Locality.MAX_VALUES) {
            return null;
        }
        List<String[]> values = new ArrayList<>();
        boolean[] nulls = new boolean[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            Set<String> distinct = new LinkedHashSet<>();
            for (String[] row : rows) {
                if (row[i] == null) {
                    nulls[i] = true;
                } else {
                    distinct.add(row[i]);
                }
            }
            values.add(distinct.toArray(new String[0]));
        }
        return new DerivedCompiler.Among(columns, values, nulls);
    }
}
