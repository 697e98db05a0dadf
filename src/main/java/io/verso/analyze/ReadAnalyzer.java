package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.catalog.ViewDef;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.Definitions;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Query;
import io.verso.sql.ast.Query.SelectItem;
import io.verso.sql.ast.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Binds a read to the catalog. Decides once which AS OF applies to every relation (the nearest
 * wins: the relation's own, then that of the derived table it sits in, then the trailing AS OF of
 * its query and of the enclosing queries outward; a CTE body inherits from the query that holds
 * the WITH, a view body from the place the view is used), resolves every column reference against
 * the scopes PostgreSQL will see, checks functions against the dialect's list and where aggregates
 * and window functions may stand, and enforces the size limits of a read. A CTE reference, a derived
 * table or a view with its own AS OF (or FOR SYSTEM_TIME) passes it to the relations inside that have
 * none of their own; FOR SYSTEM_TIME passed so reaches only the tables that keep system time (MariaDB's
 * meaning: the others read their current rows), and at least one must.
 */
public final class ReadAnalyzer {

    /** Subqueries, derived tables, CTE bodies and views nested in each other. */
    public static final int MAX_DEPTH = 32;
    /** Names in FROM, views expanded. */
    public static final int MAX_RELATIONS = 128;
    /** Expression nodes of one read. */
    public static final int MAX_NODES = io.verso.sql.TextWeight.MAX_READ_TERMS;

    private final TableLookup lookup;
    private final AsOfResolver resolver;
    private final int parameterCount;
    private final IdentityHashMap<Query.TableRef, BoundSelect.Binding> bindings = new IdentityHashMap<>();
    private final IdentityHashMap<Object, Integer> outputs = new IdentityHashMap<>();
    private final IdentityHashMap<SelectItem, List<ResolvedRef>> stars = new IdentityHashMap<>();
    private final List<BoundRelation> relations = new ArrayList<>();
    /** Blocks that read their own recursive CTE: the compiler bounds the rows they make (RECURSION_LIMIT). */
    private final Set<Query.Block> recursiveSteps = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    /** Recursive CTEs whose bodies are being analysed: a reference to one is its recursive reference. */
    private final Set<CteDef> defining = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    /** FOR SYSTEM_TIME clauses that some table took (see tableRef). */
    private final Set<AsOf> tookSystemTime = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private Query.Block currentBlock;
    /** CTE references being expanded under another AS OF than their definition's (see cte). */
    private int expansions;
    private int nodes;
    private int viewDepth;
    /** The stored view bodies bound so far (see view). */
    private final Set<Query> viewBodies = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    private ReadAnalyzer(TableLookup lookup, AsOfResolver resolver, int parameterCount) {
        this.lookup = lookup;
        this.resolver = resolver;
        this.parameterCount = parameterCount;
    }

    public static BoundSelect select(Statement.Select select, TableLookup lookup, AsOfResolver asOf,
                                     int parameterCount) {
        return query(select.query(), lookup, asOf, parameterCount);
    }

    public static BoundSelect query(Query query, TableLookup lookup, AsOfResolver asOf, int parameterCount) {
        ReadAnalyzer analyzer = new ReadAnalyzer(lookup, asOf, parameterCount);
        List<String> columns = analyzer.query(query, null, Ctes.EMPTY, null, 0);
        return new BoundSelect(query, analyzer.bindings, analyzer.outputs, List.copyOf(analyzer.relations), columns,
                analyzer.stars, analyzer.recursiveSteps);
    }

    /**
     * The rows an UPDATE or DELETE ... WHERE matches, bound as the read {@code SELECT items FROM target WHERE
     * where} over the target's current rows: its WHERE and assigned values get the names, subqueries,
     * functions, codes and positions of any SELECT, since this is the one binder. {@code items} may hold no
     * aggregate or window function of their own ({@code clause} names where they stand, for the message).
     */
    public static BoundSelect matched(Ident target, List<Expr> items, Expr where, String clause, TableLookup lookup,
                                      AsOfResolver asOf, int parameterCount) {
        for (Expr item : items) {
            refuseAggregates(item, clause);
        }
        Pos pos = target.pos();
        List<SelectItem> selected = items.stream().<SelectItem>map(e -> new SelectItem.Item(e, null, e.pos())).toList();
        Query.Block block = new Query.Block(false, selected, List.of(new Query.TableRef(target, false, null, null,
                List.of(), pos)), where, List.of(), null, List.of(), pos);
        return query(new Query(List.of(), block, List.of(), null, null, null, pos), lookup, asOf, parameterCount);
    }

    private static void refuseAggregates(Expr expr, String clause) {
        if (expr instanceof Expr.FunctionCall f) {
            Function function = Function.resolve(f);
            if (function.aggregate || f.over() != null || function.kind == Function.Kind.WINDOW) {
                throw Refusals.misplaced(f.over() != null || function.kind == Function.Kind.WINDOW,
                        function.sqlName(), clause, f.pos());
            }
        }
        children(expr).forEach(child -> refuseAggregates(child, clause));
    }

    // ---- queries -------------------------------------------------------------------------------

    /** The CTEs visible at a point, innermost first. */
    private record Ctes(Map<String, CteDef> names, Ctes outer) {
        static final Ctes EMPTY = new Ctes(Map.of(), null);

        CteDef find(String name) {
            for (Ctes c = this; c != null; c = c.outer) {
                CteDef cte = c.names.get(name);
                if (cte != null) {
                    return cte;
                }
            }
            return null;
        }
    }

    /**
     * A CTE as its WITH defined it: its column names, its definition, and what its body was analysed with (the
     * scope around it, the CTEs it could see, the AS OF it inherited), to analyse it again elsewhere.
     */
    private record CteDef(List<String> columns, Query.Cte cte, Frame outer, Ctes scope, AsOf asOf) {
    }

    /**
     * Analyses a query; {@code outer} is the enclosing block's scope (for correlated references),
     * {@code inherited} the AS OF it inherits. Returns its output column names.
     */
    private List<String> query(Query query, Frame outer, Ctes ctes, AsOf inherited, int depth) {
        if (depth > MAX_DEPTH) {
            throw Refusals.readNestsTooDeep(MAX_DEPTH, query.pos());
        }
        AsOf asOf = query.asOf() != null ? query.asOf() : inherited;
        if (!query.with().isEmpty()) {
            Map<String, CteDef> names = new HashMap<>();
            Ctes scope = new Ctes(names, ctes);
            for (Query.Cte cte : query.with()) {
                if (names.containsKey(cte.name().name())) {
                    throw VersoException.at(ErrorCode.DUPLICATE_NAME, "WITH names '" + cte.name() + "' twice",
                            cte.name().pos());
                }
                // What this CTE sees: the ones before it (and, when recursive, itself), not the ones after.
                Ctes seen = new Ctes(new HashMap<>(names), ctes);
                List<String> columns = cte.recursive() ? recursive(cte, outer, seen, asOf, depth)
                        : query(cte.query(), outer, seen, asOf, depth + 1);
                names.put(cte.name().name(), new CteDef(rename(columns, cte.columns(), cte.pos()), cte, outer, seen,
                        asOf));
            }
            ctes = scope;
        }
        List<String> columns;
        Frame frame = null;
        if (query.body() instanceof Query.Block block) {
            frame = new Frame(outer);
            columns = block(block, frame, ctes, asOf, depth, query);
        } else {
            columns = body(query.body(), outer, ctes, asOf, depth);
            for (Query.SortItem sort : query.orderBy()) {
                // After a set operation, ORDER BY names result columns (or their positions).
                Expr e = sort.expr();
                boolean ordinal = e instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.INTEGER;
                if (!ordinal && !(e instanceof Expr.ColumnRef ref && ref.qualifier() == null
                        && columns.contains(ref.column().name()))) {
                    throw VersoException.at(ErrorCode.INVALID_EXPRESSION, "ORDER BY after UNION, INTERSECT or EXCEPT "
                            + "takes result column names or positions", e.pos());
                }
                count(e);
            }
        }
        outputs.put(query, columns.size());
        limit(query.limit(), "LIMIT", frame, ctes, asOf, depth);
        limit(query.offset(), "OFFSET", frame, ctes, asOf, depth);
        return columns;
    }

    /**
     * A CTE of WITH RECURSIVE, whose name its own body may read. The columns come from its column list, else
     * from the first part of its top UNION (which cannot read it), as in PostgreSQL; the blocks that read it
     * are its recursive steps. A body that is not a UNION of two parts cannot read itself (UNKNOWN_TABLE then).
     */
    private List<String> recursive(Query.Cte cte, Frame outer, Ctes seen, AsOf inherited, int depth) {
        Query body = cte.query();
        if (depth + 1 > MAX_DEPTH) {
            throw Refusals.readNestsTooDeep(MAX_DEPTH, body.pos());
        }
        if (!(body.body() instanceof Query.SetOp op) || op.kind() != Query.SetOpKind.UNION) {
            return query(body, outer, seen, inherited, depth + 1);
        }
        if (!body.orderBy().isEmpty() || body.limit() != null || body.offset() != null || !body.with().isEmpty()) {
            throw VersoException.at(ErrorCode.INVALID_EXPRESSION, "a recursive CTE's query is `first UNION [ALL] step`"
                    + " without WITH, ORDER BY, LIMIT or OFFSET of its own: put them in the query that reads it",
                    body.pos());
        }
        AsOf asOf = body.asOf() != null ? body.asOf() : inherited;
        String name = cte.name().name();
        CteDef self = null;
        if (!cte.columns().isEmpty()) {
            self = new CteDef(cte.columns().stream().map(Ident::name).toList(), cte, outer, seen, inherited);
            seen.names().put(name, self);
            defining.add(self);
        }
        try {
            List<String> first = body(op.left(), outer, seen, asOf, depth + 1);
            if (self == null) {
                self = new CteDef(first, cte, outer, seen, inherited);
                seen.names().put(name, self);
                defining.add(self);
            }
            List<String> step = body(op.right(), outer, seen, asOf, depth + 1);
            if (first.size() != step.size()) {
                throw Refusals.setOperationMismatch("UNION", first.size(), step.size(), op.pos());
            }
            outputs.put(body, first.size());
            return first;
        } finally {
            defining.remove(self);
        }
    }

    private List<String> body(Query.Body body, Frame outer, Ctes ctes, AsOf asOf, int depth) {
        if (body instanceof Query.Block block) {
            return block(block, new Frame(outer), ctes, asOf, depth, null);
        }
        if (body instanceof Query.Nested nested) {
            return query(nested.query(), outer, ctes, asOf, depth + 1);
        }
        Query.SetOp op = (Query.SetOp) body;
        List<String> left = body(op.left(), outer, ctes, asOf, depth);
        List<String> right = body(op.right(), outer, ctes, asOf, depth);
        if (left.size() != right.size()) {
            throw Refusals.setOperationMismatch(op.kind().name(), left.size(), right.size(), op.pos());
        }
        return left;
    }

    private void limit(Expr expr, String clause, Frame frame, Ctes ctes, AsOf asOf, int depth) {
        if (expr == null || expr instanceof Expr.Parameter) {
            return;
        }
        if (expr instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.INTEGER && !lit.text().startsWith("-")) {
            return;
        }
        throw VersoException.at(ErrorCode.INVALID_LIMIT, clause + " takes a non-negative integer", expr.pos());
    }

    // ---- blocks --------------------------------------------------------------------------------

    /** Where an expression stands, for the rules on aggregates and window functions. */
    private enum Clause { SELECT, FROM, WHERE, ON, GROUP_BY, HAVING, ORDER_BY, WINDOW, FILTER, OTHER }

    /**
     * Analyses a block. {@code owner}, when the block is a query's whole body, is that query: its
     * ORDER BY belongs to the block and may name the block's input columns.
     */
    private List<String> block(Query.Block block, Frame frame, Ctes ctes, AsOf asOf, int depth, Query owner) {
        Query.Block enclosing = currentBlock;
        currentBlock = block;
        try {
            for (Query.FromItem item : block.from()) {
                frame.entries.addAll(from(item, frame, ctes, asOf, depth));
            }
        } finally {
            currentBlock = enclosing;
        }
        frame.ctes = ctes;
        frame.asOf = asOf;
        frame.depth = depth;
        for (Query.WindowDef w : block.windows()) {
            if (!frame.windows.add(w.name().name())) {
                throw VersoException.at(ErrorCode.DUPLICATE_NAME, "WINDOW names '" + w.name() + "' twice",
                        w.name().pos());
            }
        }
        List<String> columns = new ArrayList<>();
        for (SelectItem item : block.items()) {
            if (item instanceof SelectItem.All all) {
                if (frame.entries.isEmpty()) {
                    throw VersoException.at(ErrorCode.INVALID_EXPRESSION, "SELECT * needs a FROM clause", all.pos());
                }
                columns.addAll(frame.starColumns());
                if (frame.hasHidden()) {
                    stars.put(item, frame.starRefs(null));
                }
            } else if (item instanceof SelectItem.AllOf all) {
                Entry entry = frame.entry(all.qualifier());
                columns.addAll(entry.columns.stream().filter(c -> !entry.hidden.contains(c)).toList());
                if (!entry.hidden.isEmpty()) {
                    stars.put(item, frame.starRefs(all.qualifier()));
                }
            } else {
                SelectItem.Item it = (SelectItem.Item) item;
                expr(it.expr(), frame, Clause.SELECT);
                columns.add(it.alias() != null ? it.alias().name() : outputName(it.expr()));
            }
        }
        frame.outputNames = columns;
        expr(block.where(), frame, Clause.WHERE);
        for (Expr g : block.groupBy()) {
            frame.groupBy = true;
            expr(g, frame, Clause.GROUP_BY);
        }
        expr(block.having(), frame, Clause.HAVING);
        for (Query.WindowDef w : block.windows()) {
            windowSpec(w.spec(), frame);
        }
        if (owner != null) {
            for (Query.SortItem sort : owner.orderBy()) {
                frame.orderBy = true;
                expr(sort.expr(), frame, Clause.ORDER_BY);
                frame.orderBy = false;
            }
        }
        boolean grouped = !block.groupBy().isEmpty() || block.having() != null
                || block.items().stream().anyMatch(i -> i instanceof SelectItem.Item it && hasAggregate(it.expr()))
                || (owner != null && owner.orderBy().stream().anyMatch(s -> hasAggregate(s.expr())));
        if (grouped) {
            GroupCheck check = new GroupCheck(block.groupBy(), frame, block.items());
            for (SelectItem item : block.items()) {
                if (item instanceof SelectItem.Item it) {
                    check.check(it.expr());
                } else {
                    // * in a grouped block stands for columns that must each be grouped.
                    Ident qualifier = item instanceof SelectItem.AllOf all ? all.qualifier() : null;
                    for (Entry e : frame.entries) {
                        if (qualifier != null && !qualifier.name().equals(e.alias)) {
                            continue;
                        }
                        for (String column : e.columns) {
                            if ((qualifier != null || !e.qualifiedOnly.contains(column))
                                    && !check.grouped(e, column)) {
                                throw Refusals.notGrouped(column, true, item.pos());
                            }
                        }
                    }
                }
            }
            check.check(block.having());
            if (owner != null) {
                owner.orderBy().forEach(s -> {
                    if (!(s.expr() instanceof Expr.ColumnRef ref && ref.qualifier() == null
                            && columns.contains(ref.column().name()))) {
                        check.check(s.expr());
                    }
                });
            }
        }
        outputs.put(block, columns.size());
        return columns;
    }

    private List<Entry> from(Query.FromItem item, Frame frame, Ctes ctes, AsOf asOf, int depth) {
        if (item instanceof Query.TableRef ref) {
            return List.of(tableRef(ref, ctes, asOf, depth));
        }
        if (item instanceof Query.FunctionTable function) {
            return List.of(functionTable(function, frame, ctes, asOf, depth));
        }
        if (item instanceof Query.Derived derived) {
            // A derived table's own AS OF, else the enclosing one; its body's trailing AS OF is nearer still.
            List<String> columns = query(derived.query(), frame.outer, ctes,
                    derived.asOf() != null ? derived.asOf() : asOf, depth + 1);
            requireTaken(derived.asOf(), derived.alias().name());
            return List.of(new Entry(derived.alias().name(), rename(columns, derived.columnAliases(),
                    derived.pos())));
        }
        {
            Query.Join join = (Query.Join) item;
            {
                List<Entry> left = from(join.left(), frame, ctes, asOf, depth);
                List<Entry> right = from(join.right(), frame, ctes, asOf, depth);
                List<Entry> all = new ArrayList<>(left);
                for (Entry e : right) {
                    if (e.alias != null && all.stream().anyMatch(a -> e.alias.equals(a.alias))) {
                        throw VersoException.at(ErrorCode.DUPLICATE_NAME, "'" + e.alias + "' names two relations of "
                                + "this FROM clause: give one an alias", join.right().pos());
                    }
                }
                all.addAll(right);
                if (!join.using().isEmpty()) {
                    List<String> merged = new ArrayList<>();
                    for (Ident column : join.using()) {
                        Frame sides = new Frame(null);
                        for (List<Entry> side : List.of(left, right)) {
                            sides.entries.clear();
                            sides.entries.addAll(side);
                            if (sides.matches(column.name()).size() != 1) {
                                throw VersoException.at(ErrorCode.UNKNOWN_COLUMN, "USING column '" + column
                                        + "' must be a column of each side of the join, once", column.pos());
                            }
                        }
                        merged.add(column.name());
                    }
                    for (Entry e : all) {
                        e.qualifiedOnly.addAll(merged);
                    }
                    all.add(0, new Entry(null, merged));
                }
                if (join.on() != null) {
                    Frame on = new Frame(frame.outer);
                    on.entries.addAll(all);
                    on.ctes = ctes;
                    on.asOf = asOf;
                    on.depth = depth;
                    expr(join.on(), on, Clause.ON);
                }
                return all;
            }
        }
    }

    private Entry tableRef(Query.TableRef ref, Ctes ctes, AsOf inherited, int depth) {
        if (relations.size() + bindings.size() >= MAX_RELATIONS) {
            throw VersoException.at(ErrorCode.TOO_MANY_RELATIONS, "a read names at most " + MAX_RELATIONS
                    + " relations (views expanded)", ref.pos());
        }
        String alias = ref.visibleName();
        if (ref.schema() != null) {
            return systemRelation(ref, ref.schema(), alias);
        }
        CteDef cte = ref.pseudo() ? null : ctes.find(ref.name().name());
        if (cte != null) {
            return cte(ref, cte, inherited, depth);
        }
        AsOf asOf = ref.asOf() != null ? ref.asOf() : inherited;
        TableDef table;
        try {
            table = lookup.table(ref.name());
        } catch (VersoException.UserError e) {
            if (e.code() != ErrorCode.UNKNOWN_TABLE || ref.pseudo()) {
                throw e;
            }
            Optional<ViewDef> view = lookup.view(ref.name().name());
            if (view.isPresent()) {
                return view(ref, view.get(), alias, ctes, asOf, depth);
            }
            // PostgreSQL's search path begins with pg_catalog: its relations are found by their names alone.
            Ident catalog = new Ident(SystemSchemas.PG_CATALOG, ref.name().pos());
            if (ref.pseudo() || lookup.system(catalog, ref.name()).isEmpty()) {
                throw e;
            }
            return systemRelation(ref, catalog, alias);
        }
        if (ref.asOf() == null && asOf instanceof AsOf.SystemTime time
                && (ref.pseudo() || !AsOfResolver.takesSystemTime(table, time))) {
            // FOR SYSTEM_TIME of an enclosing derived table, CTE reference or view: MariaDB applies it to the
            // system-versioned tables inside and reads the others as they are.
            asOf = null;
        }
        if (asOf instanceof AsOf.SystemTime) {
            tookSystemTime.add(asOf);
        }
        BoundRelation relation = bind(ref, table, asOf, resolver);
        relations.add(relation);
        bindings.put(ref, new BoundSelect.TableRead(relation));
        Entry entry = new Entry(alias, rename(relation.columns(), ref.columnAliases(), ref.pos()));
        if (ref.columnAliases().isEmpty()) {
            table.columns().forEach(c -> entry.types.put(c.name(), c.type()));
            if (table.systemVersioned()) {
                entry.types.put(table.period().start(), table.period().type());
                entry.types.put(table.period().end(), table.period().type());
            }
        }
        if (table.systemVersioned() && table.period().implicit() && relation.kind() != RelationKind.HISTORY) {
            // Invisible in SELECT *, readable by name; history() lists them, since it is the list of periods.
            int n = table.columns().size();
            entry.hidden.add(entry.columns.get(n));
            entry.hidden.add(entry.columns.get(n + 1));
        }
        return entry;
    }

    /**
     * A function in FROM: the rows of a set-returning one ({@code generate_series}), the one row of a scalar one.
     * Its arguments see the enclosing queries' columns, not those of the FROM it stands in (no LATERAL). Its one
     * column is named by the column alias, else the relation's alias, else the function, as in PostgreSQL.
     */
    private Entry functionTable(Query.FunctionTable table, Frame frame, Ctes ctes, AsOf asOf, int depth) {
        Expr.FunctionCall call = table.call();
        Function function = Function.resolve(call);
        if (function.kind != Function.Kind.SCALAR && function.kind != Function.Kind.SET_RETURNING) {
            throw VersoException.at(ErrorCode.AGGREGATE_MISPLACED, function.sqlName() + " is not allowed in FROM, "
                    + "where a function is scalar or set-returning", call.pos());
        }
        if (table.columnAliases().size() > 1) {
            throw VersoException.at(ErrorCode.COLUMN_COUNT_MISMATCH, table.columnAliases().size()
                    + " column names given for 1 column(s)", table.pos());
        }
        Frame arguments = new Frame(frame.outer);
        arguments.ctes = ctes;
        arguments.asOf = asOf;
        arguments.depth = depth;
        function(call, arguments, Clause.FROM);
        String column = !table.columnAliases().isEmpty() ? table.columnAliases().get(0).name() : table.visibleName();
        return new Entry(table.visibleName(), List.of(column));
    }

    /**
     * A relation of a system schema: rows made from the catalog as the caller may see it, the same at every commit
     * (the catalog is not versioned), so an AS OF of its own is refused and an inherited one does not apply.
     */
    private Entry systemRelation(Query.TableRef ref, Ident schema, String alias) {
        String qualified = schema.name() + "." + ref.name().name();
        SystemRelation relation = lookup.system(schema, ref.name()).orElseThrow(() -> VersoException.at(
                ErrorCode.UNKNOWN_TABLE, "unknown relation '" + qualified + "'", ref.name().pos()));
        if (ref.asOf() != null) {
            throw VersoException.at(ErrorCode.AS_OF_NOT_SUPPORTED, "AS OF does not apply to '" + qualified
                    + "', which lists the catalog as it is now", ref.asOf().pos());
        }
        List<String> columns = rename(relation.columnNames(), ref.columnAliases(), ref.pos());
        bindings.put(ref, new BoundSelect.SystemRead(relation, columns));
        Entry entry = new Entry(alias, columns);
        for (int i = 0; i < columns.size(); i++) {
            entry.types.put(columns.get(i), relation.columns().get(i).type());
        }
        return entry;
    }

    /**
     * A CTE reference. Its recursive reference (inside its own body) reads the rows of the step before. Read
     * with its own AS OF, or inside such a read under another AS OF than its body was analysed with, it is
     * expanded where it is used, as a view is: a copy of its definition, wrapped in a query of its own
     * ({@code WITH [RECURSIVE] c AS (copy) SELECT * FROM c}), inherits that AS OF. Otherwise it reads the
     * WITH's own.
     */
    private Entry cte(Query.TableRef ref, CteDef cte, AsOf inherited, int depth) {
        String alias = ref.visibleName();
        if (defining.contains(cte)) {
            if (ref.asOf() != null) {
                throw VersoException.at(ErrorCode.AS_OF_NOT_SUPPORTED, "AS OF does not apply to '" + ref.name()
                        + "' inside its own recursive query, which reads the rows of the step before: put AS OF on the "
                        + "tables it reads", ref.asOf().pos());
            }
            recursiveSteps.add(currentBlock);
            bindings.put(ref, new BoundSelect.CteRead(ref.name().name()));
            return new Entry(alias, rename(cte.columns(), ref.columnAliases(), ref.pos()));
        }
        AsOf asOf = ref.asOf() != null ? ref.asOf() : inherited;
        if (ref.asOf() == null && (expansions == 0 || asOf == cte.asOf())) {
            bindings.put(ref, new BoundSelect.CteRead(ref.name().name()));
            return new Entry(alias, rename(cte.columns(), ref.columnAliases(), ref.pos()));
        }
        Query.Cte copy = AstCopy.of(cte.cte());
        Pos pos = ref.pos();
        Query.Block all = new Query.Block(false, List.of(new SelectItem.All(pos)), List.of(new Query.TableRef(
                copy.name(), false, null, null, List.of(), pos)), null, List.of(), null, List.of(), pos);
        Query expanded = new Query(List.of(copy), all, List.of(), null, null, null, pos);
        List<String> columns;
        expansions++;
        try {
            columns = query(expanded, cte.outer(), cte.scope(), asOf, depth + 1);
        } finally {
            expansions--;
        }
        requireTaken(ref.asOf(), ref.name().name());
        bindings.put(ref, new BoundSelect.ViewRead(expanded, columns));
        return new Entry(alias, rename(columns, ref.columnAliases(), ref.pos()));
    }

    /**
     * A FOR SYSTEM_TIME given to a derived table, CTE reference or view must reach a table that keeps system
     * time, as in MariaDB (4124).
     */
    private void requireTaken(AsOf asOf, String name) {
        if (asOf instanceof AsOf.SystemTime time && !tookSystemTime.contains(time)) {
            throw VersoException.at(ErrorCode.NOT_SYSTEM_VERSIONED, "'" + name + "' is not system-versioned: no table "
                    + "in it without FOR SYSTEM_TIME or AS OF of its own keeps system time (MariaDB 4124)", time.pos());
        }
    }

    /** A view is expanded where it is used: its body inherits the AS OF that applies to the use. */
    private Entry view(Query.TableRef ref, ViewDef view, String alias, Ctes ctes, AsOf asOf, int depth) {
        if (viewDepth > MAX_DEPTH) {
            throw VersoException.at(ErrorCode.NESTING_TOO_DEEP, "views nest more than " + MAX_DEPTH + " deep",
                    ref.pos());
        }
        // Parsed once per text (Definitions); analysed at each use, since the body inherits the use's AS OF
        // and runs with the caller's privileges. A body already bound in this analysis (the view read twice)
        // is bound again as a copy: bindings are by node identity.
        Query body = Definitions.query(view.query());
        if (!viewBodies.add(body)) {
            body = AstCopy.of(body);
        }
        viewDepth++;
        List<String> columns;
        try {
            // A view body sees no CTE of the statement that uses it.
            columns = query(body, null, Ctes.EMPTY, asOf, depth + 1);
        } catch (VersoException.UserError e) {
            if (e.code() != ErrorCode.UNKNOWN_TABLE) {
                throw e;
            }
            // The body runs with the caller's privileges: a table in it the caller may not know of (or one
            // dropped since) makes the view unknown to the caller, word for word as a view that does not
            // exist, so that no view reveals the name of what it reads.
            throw Refusals.unknownTable(ref.name().name(), ref.name().pos());
        } finally {
            viewDepth--;
        }
        requireTaken(ref.asOf(), ref.name().name());
        if (!view.columns().isEmpty()) {
            columns = view.columns();
        }
        bindings.put(ref, new BoundSelect.ViewRead(body, columns));
        return new Entry(alias, rename(columns, ref.columnAliases(), ref.pos()));
    }

    /** Binds one catalog table read with the AS OF that applies to it (null: current rows). */
    public static BoundRelation bind(Query.TableRef ref, TableDef table, AsOf asOf, AsOfResolver resolver) {
        String alias = ref.visibleName();
        if (ref.pseudo() && table.mode() == TableMode.SYSTEM && (ref.changes() || !table.systemVersioned())) {
            throw VersoException.at(ErrorCode.NO_HISTORY, (ref.changes() ? "changes(" : "history(") + table.name()
                    + "): " + (table.systemVersioned() ? "a system-versioned table lists its versions with history() "
                    + "or FOR SYSTEM_TIME ALL" : "the table is not system-versioned and keeps no history"), ref.pos());
        }
        if (!ref.pseudo() && asOf instanceof AsOf.SystemTime time) {
            Long[] range = resolver.resolveSystemTime(time, table);
            if (time.kind() == AsOf.SystemTimeKind.AS_OF) {
                return new BoundRelation(alias, table, RelationKind.AS_OF, range[1], columns(table, RelationKind.AS_OF));
            }
            return new BoundRelation(alias, table, RelationKind.RANGE, range[1], columns(table, RelationKind.RANGE),
                    range[0]);
        }
        if (ref.pseudo()) {
            if (table.mode() == TableMode.UPSERT) {
                throw VersoException.at(ErrorCode.NO_HISTORY, "table " + table.name()
                        + " is an UPSERT table and keeps no history" + (ref.changes() ? ", so no changes" : ""),
                        ref.pos());
            }
            RelationKind kind = ref.changes() ? RelationKind.CHANGES : RelationKind.HISTORY;
            Long commit = asOf == null ? null : resolver.resolve(asOf, table);
            return new BoundRelation(alias, table, kind, commit, columns(table, kind));
        }
        if (asOf == null) {
            return new BoundRelation(alias, table, RelationKind.CURRENT, null, columns(table, RelationKind.CURRENT));
        }
        return new BoundRelation(alias, table, RelationKind.AS_OF, resolver.resolve(asOf, table),
                columns(table, RelationKind.AS_OF));
    }

    public static List<String> columns(TableDef table, RelationKind kind) {
        Stream<String> own = table.columns().stream().map(ColumnDef::name);
        if (table.systemVersioned()) {
            own = Stream.concat(own, Stream.of(table.period().start(), table.period().end()));
        }
        return switch (kind) {
            case HISTORY -> Stream.concat(own, BoundRelation.HISTORY_COLUMNS.stream()).toList();
            case CHANGES -> Stream.concat(own, BoundRelation.CHANGES_COLUMNS.stream()).toList();
            case CURRENT, AS_OF, RANGE -> own.toList();
        };
    }

    private static List<String> rename(List<String> columns, List<Ident> aliases, Pos pos) {
        if (aliases.isEmpty()) {
            return columns;
        }
        if (aliases.size() > columns.size()) {
            throw VersoException.at(ErrorCode.COLUMN_COUNT_MISMATCH, aliases.size() + " column names given for "
                    + columns.size() + " column(s)", pos);
        }
        List<String> renamed = new ArrayList<>(columns);
        for (int i = 0; i < aliases.size(); i++) {
            renamed.set(i, aliases.get(i).name());
        }
        return renamed;
    }

    /** The name PostgreSQL gives an output column without an alias. */
    static String outputName(Expr expr) {
        if (expr instanceof Expr.ColumnRef ref) {
            return ref.column().name();
        }
        if (expr instanceof Expr.FunctionCall f) {
            return Function.named(f.name().name()).map(Function::sqlName).orElse(f.name().name());
        }
        if (expr instanceof Expr.Cast c) {
            String inner = outputName(c.value());
            return inner.equals("?column?") ? ColumnType.from(c.type()).pgName() : inner;
        }
        if (expr instanceof Expr.Case) {
            return "case";
        }
        if (expr instanceof Expr.Exists) {
            return "exists";
        }
        if (expr instanceof Expr.Special s) {
            return switch (s.form()) {
                case EXTRACT -> "extract";
                case POSITION -> "position";
                case SUBSTRING -> "substring";
                case TRIM_BOTH -> "btrim";
                case TRIM_LEADING -> "ltrim";
                case TRIM_TRAILING -> "rtrim";
                case SUBSCRIPT -> outputName(s.args().get(0));
            };
        }
        return "?column?";
    }

    // ---- scopes --------------------------------------------------------------------------------

    /** One relation of a FROM clause as its expressions see it; alias null for USING's merged columns. */
    private static final class Entry {
        final String alias;
        final List<String> columns;
        final Set<String> qualifiedOnly = new HashSet<>();
        /** Columns found by name but left out of {@code *}: the implicit period columns of system versioning. */
        final Set<String> hidden = new HashSet<>();
        /** The types of a catalog table's columns, for {@link TypeRules}; empty where they are not known here. */
        final Map<String, ColumnType> types = new HashMap<>();

        Entry(String alias, List<String> columns) {
            this.alias = alias;
            this.columns = columns;
        }
    }

    /** The names one block's expressions see; {@code outer} is the enclosing block's (correlation). */
    private static final class Frame {
        final Frame outer;
        final List<Entry> entries = new ArrayList<>();
        final Set<String> windows = new HashSet<>();
        List<String> outputNames = List.of();
        boolean groupBy;
        boolean orderBy;
        Ctes ctes = Ctes.EMPTY;
        AsOf asOf;
        int depth;

        Frame(Frame outer) {
            this.outer = outer;
        }

        List<Entry> matches(String column) {
            List<Entry> found = new ArrayList<>();
            for (Entry e : entries) {
                if (e.columns.contains(column) && !e.qualifiedOnly.contains(column)) {
                    found.add(e);
                }
            }
            return found;
        }

        Entry entry(Ident qualifier) {
            for (Frame f = this; f != null; f = f.outer) {
                for (Entry e : f.entries) {
                    if (qualifier.name().equals(e.alias)) {
                        return e;
                    }
                }
            }
            throw Refusals.notATableOrAlias(qualifier.name(), qualifier.pos());
        }

        List<String> starColumns() {
            List<String> out = new ArrayList<>();
            for (Entry e : entries) {
                for (String c : e.columns) {
                    if (!e.qualifiedOnly.contains(c) && !e.hidden.contains(c)) {
                        out.add(c);
                    }
                }
            }
            return out;
        }

        boolean hasHidden() {
            return entries.stream().anyMatch(e -> !e.hidden.isEmpty());
        }

        /** {@code *} or {@code alias.*} spelled out, for blocks whose relations have hidden columns. */
        List<ResolvedRef> starRefs(Ident qualifier) {
            List<ResolvedRef> out = new ArrayList<>();
            for (Entry e : qualifier == null ? entries : List.of(entry(qualifier))) {
                for (String c : e.columns) {
                    if (!(qualifier == null && e.qualifiedOnly.contains(c)) && !e.hidden.contains(c)) {
                        out.add(new ResolvedRef(e.alias, c));
                    }
                }
            }
            return out;
        }
    }

    /** Where a column reference points: a relation of some block (by identity) and a column. */
    private record Target(Frame frame, Entry entry, String column) {
    }

    private Target resolve(Expr.ColumnRef ref, Frame frame, Clause clause) {
        String column = ref.column().name();
        if (ref.qualifier() != null) {
            for (Frame f = frame; f != null; f = f.outer) {
                for (Entry e : f.entries) {
                    if (ref.qualifier().name().equals(e.alias)) {
                        if (!e.columns.contains(column)) {
                            throw Refusals.unknownColumn(ref.qualifier() + "." + column, ref.pos());
                        }
                        return new Target(f, e, column);
                    }
                }
            }
            throw Refusals.notATableOrAlias(ref.qualifier().name(), ref.qualifier().pos());
        }
        // A bare name in ORDER BY is a result column first, as in PostgreSQL.
        if (clause == Clause.ORDER_BY && frame.orderBy && frame.outputNames.contains(column)) {
            return new Target(frame, null, column);
        }
        for (Frame f = frame; f != null; f = f.outer) {
            List<Entry> found = f.matches(column);
            if (found.size() > 1) {
                throw VersoException.at(ErrorCode.AMBIGUOUS_COLUMN, "column '" + column + "' is in "
                        + String.join(" and ", found.stream().map(e -> String.valueOf(e.alias)).toList())
                        + ": qualify it", ref.pos());
            }
            if (found.size() == 1) {
                return new Target(f, found.get(0), column);
            }
            if (f == frame && clause == Clause.GROUP_BY && f.outputNames.contains(column)) {
                return new Target(frame, null, column);
            }
        }
        throw Refusals.unknownColumn(column, ref.pos());
    }

    // ---- expressions ---------------------------------------------------------------------------

    private final IdentityHashMap<Expr.ColumnRef, Target> targets = new IdentityHashMap<>();

    private void count(Expr expr) {
        if (++nodes > MAX_NODES) {
            throw VersoException.at(ErrorCode.STATEMENT_TOO_LARGE, "a read holds at most " + MAX_NODES
                    + " expression terms", expr.pos());
        }
    }

    private void expr(Expr expr, Frame frame, Clause clause) {
        if (expr == null) {
            return;
        }
        count(expr);
        if (expr instanceof Expr.ColumnRef ref) {
            targets.put(ref, resolve(ref, frame, clause));
        } else if (expr instanceof Expr.FunctionCall f) {
            function(f, frame, clause);
        } else if (expr instanceof Expr.Cast c) {
            ColumnType.from(c.type());
            expr(c.value(), frame, clause);
        } else if (expr instanceof Expr.Subquery s) {
            subqueryOfOneColumn(s.query(), frame, s.pos());
        } else if (expr instanceof Expr.Exists e) {
            query(e.query(), frame, frame.ctes, frame.asOf, frame.depth + 1);
        } else if (expr instanceof Expr.InSubquery in) {
            expr(in.value(), frame, clause);
            subqueryOfOneColumn(in.query(), frame, in.pos());
        } else if (expr instanceof Expr.Quantified q) {
            expr(q.value(), frame, clause);
            subqueryOfOneColumn(q.query(), frame, q.pos());
        } else if (expr instanceof Expr.Parameter p) {
            if (p.index() >= parameterCount) {
                throw VersoException.at(ErrorCode.PARAMETER_COUNT_MISMATCH, "a ? placeholder has no parameter",
                        p.pos());
            }
        } else {
            children(expr).forEach(child -> expr(child, frame, clause));
        }
        TypeRules.check(expr, this::columnType);
    }

    /** A resolved column reference's type when it names a catalog table's column, else null. */
    private ColumnType columnType(Expr.ColumnRef ref) {
        Target target = targets.get(ref);
        return target == null || target.entry() == null ? null : target.entry().types.get(target.column());
    }

    private void subqueryOfOneColumn(Query query, Frame frame, Pos pos) {
        List<String> columns = query(query, frame, frame.ctes, frame.asOf, frame.depth + 1);
        if (columns.size() != 1) {
            throw VersoException.at(ErrorCode.INVALID_EXPRESSION, "the subquery must return one column, not "
                    + columns.size(), pos);
        }
    }

    private void function(Expr.FunctionCall f, Frame frame, Clause clause) {
        Function function = Function.resolve(f);
        boolean aggregate = function.aggregate;
        if ((f.distinct() || !f.orderBy().isEmpty() || f.filter() != null) && !aggregate) {
            throw invalid(f.pos(), "DISTINCT, ORDER BY and FILTER apply to aggregate functions only, not "
                    + function.sqlName());
        }
        if (function.kind == Function.Kind.ORDERED_SET && f.withinGroup().isEmpty()) {
            throw invalid(f.pos(), function.sqlName() + " needs WITHIN GROUP (ORDER BY ...)");
        }
        if (function.kind != Function.Kind.ORDERED_SET && !f.withinGroup().isEmpty()) {
            throw invalid(f.pos(), "WITHIN GROUP applies to percentile_cont and percentile_disc only, not "
                    + function.sqlName());
        }
        if (function.kind == Function.Kind.SET_RETURNING && clause != Clause.FROM) {
            throw VersoException.at(ErrorCode.AGGREGATE_MISPLACED, "set-returning function " + function.sqlName()
                    + " is allowed only in FROM, not in " + clauseName(clause), f.pos());
        }
        if (function == Function.CURRENT_SETTING && !(f.args().get(0) instanceof Expr.Literal name
                && name.kind() == Expr.LiteralKind.STRING && ServerSettings.value(name.text()).isPresent())) {
            throw VersoException.at(ErrorCode.INVALID_EXPRESSION, "current_setting takes the name of a setting, "
                    + "one of " + String.join(", ", ServerSettings.all().keySet()), f.args().get(0).pos());
        }
        if (function.kind == Function.Kind.WINDOW && f.over() == null) {
            throw invalid(f.pos(), function.sqlName() + " is a window function: it needs OVER (...)");
        }
        if (f.over() != null && !aggregate && function.kind != Function.Kind.WINDOW) {
            throw invalid(f.pos(), "OVER applies to window functions and aggregates, not " + function.sqlName());
        }
        if (f.over() != null) {
            if (clause != Clause.SELECT && clause != Clause.ORDER_BY) {
                throw Refusals.misplaced(true, function.sqlName(), clauseName(clause), f.pos());
            }
        } else if (aggregate && clause != Clause.SELECT && clause != Clause.HAVING && clause != Clause.ORDER_BY) {
            throw Refusals.misplaced(false, function.sqlName(), clauseName(clause), f.pos());
        }
        // Arguments of an aggregate may not hold another aggregate; those of a window function may.
        Clause inner = aggregate && f.over() == null ? Clause.FILTER : clause;
        for (Expr a : f.args()) {
            expr(a, frame, inner);
        }
        for (Query.SortItem s : f.orderBy()) {
            expr(s.expr(), frame, inner);
        }
        for (Query.SortItem s : f.withinGroup()) {
            expr(s.expr(), frame, inner);
        }
        expr(f.filter(), frame, Clause.FILTER);
        if (f.over() != null) {
            if (f.over().name() != null) {
                if (!frame.windows.contains(f.over().name().name())) {
                    throw Refusals.unknownWindow(f.over().name().name(), f.over().name().pos());
                }
            } else {
                windowSpec(f.over().spec(), frame);
            }
        }
    }

    private void windowSpec(Query.WindowSpec spec, Frame frame) {
        if (spec.base() != null && !frame.windows.contains(spec.base().name())) {
            throw Refusals.unknownWindow(spec.base().name(), spec.base().pos());
        }
        spec.partitionBy().forEach(e -> expr(e, frame, Clause.WINDOW));
        spec.orderBy().forEach(s -> expr(s.expr(), frame, Clause.WINDOW));
        if (spec.frame() != null) {
            for (Query.FrameBound bound : new Query.FrameBound[] {spec.frame().start(), spec.frame().end()}) {
                if (bound != null && bound.offset() != null) {
                    expr(bound.offset(), frame, Clause.OTHER);
                }
            }
        }
    }

    private static String clauseName(Clause clause) {
        return switch (clause) {
            case SELECT -> "the SELECT list";
            case ORDER_BY -> "ORDER BY";
            case FROM -> "FROM";
            case WHERE -> "WHERE";
            case ON -> "JOIN ... ON";
            case GROUP_BY -> "GROUP BY";
            case HAVING -> "HAVING";
            case WINDOW -> "a window definition";
            case FILTER -> "the arguments of an aggregate";
            default -> "this place";
        };
    }

    private static VersoException invalid(Pos pos, String message) {
        return VersoException.at(ErrorCode.INVALID_EXPRESSION, message, pos);
    }

    /** The direct sub-expressions of an expression (not those inside subqueries). */
    public static List<Expr> children(Expr expr) {
        List<Expr> out = new ArrayList<>();
        if (expr instanceof Expr.Unary u) {
            out.add(u.operand());
        } else if (expr instanceof Expr.Binary b) {
            out.add(b.left());
            out.add(b.right());
        } else if (expr instanceof Expr.Not n) {
            out.add(n.operand());
        } else if (expr instanceof Expr.Between b) {
            out.add(b.value());
            out.add(b.lower());
            out.add(b.upper());
        } else if (expr instanceof Expr.InList in) {
            out.add(in.value());
            out.addAll(in.items());
        } else if (expr instanceof Expr.Like l) {
            out.add(l.value());
            out.add(l.pattern());
        } else if (expr instanceof Expr.IsNull n) {
            out.add(n.value());
        } else if (expr instanceof Expr.Cast c) {
            out.add(c.value());
        } else if (expr instanceof Expr.Case c) {
            if (c.operand() != null) {
                out.add(c.operand());
            }
            for (Expr.When w : c.whens()) {
                out.add(w.condition());
                out.add(w.result());
            }
            if (c.otherwise() != null) {
                out.add(c.otherwise());
            }
        } else if (expr instanceof Expr.FunctionCall f) {
            out.addAll(f.args());
            f.orderBy().forEach(s -> out.add(s.expr()));
            f.withinGroup().forEach(s -> out.add(s.expr()));
            if (f.filter() != null) {
                out.add(f.filter());
            }
        } else if (expr instanceof Expr.Special s) {
            out.addAll(s.args());
        } else if (expr instanceof Expr.InSubquery in) {
            out.add(in.value());
        } else if (expr instanceof Expr.Quantified q) {
            out.add(q.value());
        } else if (expr instanceof Expr.DistinctFrom d) {
            out.add(d.left());
            out.add(d.right());
        } else if (expr instanceof Expr.BooleanTest t) {
            out.add(t.value());
        }
        // Literals, parameters and column references have none; subqueries are queries of their own.
        return out;
    }

    /** Whether an expression holds an aggregate call of its own block (not a window, not in a subquery). */
    private static boolean hasAggregate(Expr expr) {
        if (expr instanceof Expr.FunctionCall f && f.over() == null
                && Function.named(f.name().name()).map(fn -> fn.aggregate).orElse(false)) {
            return true;
        }
        if (expr instanceof Expr.FunctionCall f && f.over() != null) {
            // A window's arguments and definition may aggregate the groups.
            return f.args().stream().anyMatch(ReadAnalyzer::hasAggregate)
                    || (f.over().spec() != null && (f.over().spec().partitionBy().stream().anyMatch(ReadAnalyzer::hasAggregate)
                    || f.over().spec().orderBy().stream().anyMatch(s -> hasAggregate(s.expr()))));
        }
        return children(expr).stream().anyMatch(ReadAnalyzer::hasAggregate);
    }

    /**
     * In a grouped block, every column of the block's own relations must stand inside an aggregate
     * or inside an expression that GROUP BY lists (compared as written, names resolved).
     */
    private final class GroupCheck {
        private final List<Expr> groupBy;
        private final Set<String> keys = new LinkedHashSet<>();
        private final Frame frame;

        GroupCheck(List<Expr> groupBy, Frame frame, List<SelectItem> items) {
            this.groupBy = groupBy;
            this.frame = frame;
            for (Expr g : groupBy) {
                keys.add(shape(g));
                // GROUP BY 2 or GROUP BY alias groups by that select item's expression, as in PostgreSQL.
                Expr named = null;
                if (g instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.INTEGER && lit.text().length() < 10) {
                    int ordinal = Integer.parseInt(lit.text());
                    if (ordinal >= 1 && ordinal <= items.size()
                            && items.subList(0, ordinal).stream().allMatch(i -> i instanceof SelectItem.Item)) {
                        named = ((SelectItem.Item) items.get(ordinal - 1)).expr();
                    }
                } else if (g instanceof Expr.ColumnRef ref && ref.qualifier() == null
                        && (targets.get(ref) == null || targets.get(ref).entry() == null)) {
                    for (SelectItem item : items) {
                        if (item instanceof SelectItem.Item it && it.alias() != null
                                && it.alias().name().equals(ref.column().name())) {
                            named = it.expr();
                        }
                    }
                }
                if (named != null) {
                    keys.add(shape(named));
                }
            }
        }

        void check(Expr expr) {
            if (expr == null || keys.contains(shape(expr))) {
                return;
            }
            if (expr instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.INTEGER) {
                return;
            }
            if (expr instanceof Expr.ColumnRef ref) {
                Target target = targets.get(ref);
                if (target != null && target.frame() == frame && target.entry() != null) {
                    for (Expr g : groupBy) {
                        if (g instanceof Expr.ColumnRef gr && sameTarget(targets.get(gr), target)) {
                            return;
                        }
                        if (g instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.INTEGER) {
                            int ordinal = Integer.parseInt(lit.text().length() > 9 ? "0" : lit.text());
                            if (ordinal >= 1 && ordinal <= frame.outputNames.size()
                                    && frame.outputNames.get(ordinal - 1).equals(target.column())) {
                                return;
                            }
                        }
                    }
                    throw Refusals.notGrouped((ref.qualifier() == null ? "" : ref.qualifier().name() + ".")
                            + ref.column().name(), false, ref.pos());
                }
                return;
            }
            if (expr instanceof Expr.FunctionCall f && f.over() == null
                    && Function.named(f.name().name()).map(fn -> fn.aggregate).orElse(false)) {
                return;
            }
            if (expr instanceof Expr.FunctionCall f && f.over() != null && f.over().spec() != null) {
                f.over().spec().partitionBy().forEach(this::check);
                f.over().spec().orderBy().forEach(s -> check(s.expr()));
            }
            children(expr).forEach(this::check);
        }

        boolean grouped(Entry entry, String column) {
            for (Expr g : groupBy) {
                if (g instanceof Expr.ColumnRef gr && targets.get(gr) != null && targets.get(gr).entry() == entry
                        && targets.get(gr).column().equals(column)) {
                    return true;
                }
            }
            return false;
        }

        private boolean sameTarget(Target a, Target b) {
            return a != null && a.entry() == b.entry() && a.column().equals(b.column());
        }

        /** An expression as written, positions left out and column names resolved. */
        private String shape(Expr expr) {
            StringBuilder out = new StringBuilder();
            shape(expr, out);
            return out.toString();
        }

        private void shape(Expr expr, StringBuilder out) {
            if (expr instanceof Expr.ColumnRef ref) {
                Target t = targets.get(ref);
                out.append("col(").append(t == null ? ref.column().name()
                        : System.identityHashCode(t.entry()) + "." + t.column()).append(')');
                return;
            }
            if (expr instanceof Expr.Literal lit) {
                out.append("lit(").append(lit.kind()).append(',').append(lit.text()).append(')');
                return;
            }
            if (expr instanceof Expr.Subquery || expr instanceof Expr.Exists) {
                out.append("subquery@").append(System.identityHashCode(expr));
                return;
            }
            out.append(expr.getClass().getSimpleName()).append('[');
            if (expr instanceof Expr.Unary u) {
                out.append(u.op());
            } else if (expr instanceof Expr.Binary b) {
                out.append(b.op());
            } else if (expr instanceof Expr.Between b) {
                out.append(b.negated());
            } else if (expr instanceof Expr.InList in) {
                out.append(in.negated());
            } else if (expr instanceof Expr.Like l) {
                out.append(l.negated()).append(l.caseInsensitive());
            } else if (expr instanceof Expr.IsNull n) {
                out.append(n.negated());
            } else if (expr instanceof Expr.Cast c) {
                out.append(ColumnType.from(c.type()).sql());
            } else if (expr instanceof Expr.FunctionCall f) {
                out.append(f.name().name()).append(f.distinct()).append(f.star())
                        .append(f.over() != null ? "over@" + System.identityHashCode(f) : "");
            } else if (expr instanceof Expr.Special s) {
                out.append(s.form()).append(s.text());
            } else if (expr instanceof Expr.DistinctFrom d) {
                out.append(d.negated());
            } else if (expr instanceof Expr.BooleanTest t) {
                out.append(t.negated()).append(t.truth());
            } else if (expr instanceof Expr.Quantified q) {
                out.append("q@").append(System.identityHashCode(q));
            } else if (expr instanceof Expr.InSubquery in) {
                out.append("in@").append(System.identityHashCode(in));
            }
            if (expr instanceof Expr.Case c) {
                out.append(c.operand() != null).append(c.otherwise() != null);
            }
            for (Expr child : children(expr)) {
                out.append(',');
                shape(child, out);
            }
            out.append(']');
        }
    }
}
