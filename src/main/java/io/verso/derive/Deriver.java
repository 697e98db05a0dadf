package io.verso.derive;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.verso.analyze.BoundRelation;
import io.verso.analyze.BoundSelect;
import io.verso.analyze.DdlAnalyzer;
import io.verso.analyze.ReadAnalyzer;
import io.verso.analyze.TableLookup;
import io.verso.analyze.WriteAnalyzer;
import io.verso.analyze.WriteAnalyzer.RowInput;
import io.verso.catalog.Catalog;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.catalog.ViewDef;
import io.verso.compile.DdlCompiler;
import io.verso.compile.DerivedCompiler;
import io.verso.compile.WriteCompiler;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.Definitions;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Query;
import io.verso.sql.ast.Statement;
import io.verso.sql.ast.TypeSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

/**
 * Creates derived tables and keeps them exact. At every write commit, each derived table whose
 * sources the commit changed is brought up to date inside the same transaction: its query is run
 * over the sources as the commit leaves them, compared in PostgreSQL with the derived table's
 * current rows, and only the keys whose row differs get a version (or a tombstone) at this commit.
 * Created over existing history, a derived table replays every earlier commit of its sources the
 * same way, with the query AS OF that commit, so it is exact AS OF every commit too. An ERASE of a
 * source rebuilds its derived tables from scratch, so the erased keys leave their history as well.
 */
@Service
public class Deriver {

    private static final Logger log = LoggerFactory.getLogger(Deriver.class);
    private static final Pos NOWHERE = new Pos(1, 1);

    private final Catalog catalog;
    private final JdbcTemplate jdbc;
    private final Counter replayed;
    private final Counter incremental;
    private final Counter recomputed;

    public Deriver(Catalog catalog, JdbcTemplate jdbc, MeterRegistry meters) {
        this.catalog = catalog;
        this.jdbc = jdbc;
        this.replayed = Counter.builder("verso.derived.replayed.commits")
                .description("Source commits applied to derived tables while building their history").register(meters);
        this.incremental = Counter.builder("verso.derived.applied").tag("mode", "incremental")
                .description("Source commits applied to a derived table by the source keys they changed")
                .register(meters);
        this.recomputed = Counter.builder("verso.derived.applied").tag("mode", "recompute")
                .description("Source commits applied to a derived table by running its whole query").register(meters);
    }

    /** The definitions of one catalog version, shared by every request that runs at it. */
    private record Cached(long version, List<DerivedDef> derived) {
    }

    private volatile Cached cached = new Cached(-1, List.of());
    private final Cache<DerivedDef, Upkeep> analysed = Caffeine.newBuilder().weakKeys().build();

    /**
     * Every derived table as catalog {@code version} defines it (the version a writer read under the
     * commit lock, so no DDL can change it meanwhile): read once per version, then from memory, so
     * a write to a table that no derived table reads costs no query.
     */
    public List<DerivedDef> all(long version) {
        Cached current = cached;
        if (current.version() == version) {
            return current.derived();
        }
        List<DerivedDef> loaded = all();
        if (version > cached.version()) {
            cached = new Cached(version, loaded);
        }
        return loaded;
    }

    /** Every derived table, in creation order (a derived table comes after those it reads). */
    public List<DerivedDef> all() {
        return jdbc.query("SELECT d.table_id, t.name, d.query, d.sources, d.created_commit FROM verso.derived_tables d"
                + " JOIN verso.user_tables t ON t.id = d.table_id ORDER BY d.table_id", (rs, i) -> new DerivedDef(
                        rs.getLong(1), rs.getString(2), rs.getString(3),
                        List.of((String[]) rs.getArray(4).getArray()), rs.getLong(5)));
    }

    /** Refuses a user's write (or ALTER, or ERASE) of a derived table. */
    public void refuseWrite(List<DerivedDef> derived, Ident table, String statement) {
        if (derived.stream().anyMatch(d -> d.name().equals(table.name()))) {
            throw VersoException.at(ErrorCode.DERIVED_TABLE_READ_ONLY, statement + " cannot change " + table.name()
                    + ": it is a derived table, written only from its sources' commits", table.pos());
        }
    }

    /**
     * Refuses to drop or rename a table derived tables read, naming those of them the caller may see
     * ({@code visible}): the others are counted, never named.
     */
    public void refuseDependency(List<DerivedDef> derived, Ident table, String statement,
                                 Predicate<TableDef> visible) {
        refuse(derived.stream().filter(d -> d.sources().contains(table.name())).toList(), table, statement, visible);
    }

    /**
     * Refuses DROP VIEW of a view that a derived table reads, directly or through other views: the view is
     * expanded into the derived table's query at every commit of its sources, which would then find no such
     * relation. Only an admin of all tables drops a view, so every dependent is named.
     */
    public void refuseDroppingView(List<DerivedDef> derived, Ident view,
                                   Function<String, Optional<ViewDef>> views) {
        refuse(derived.stream().filter(d -> viewsRead(d, views).contains(view.name())).toList(), view, "DROP VIEW",
                table -> true);
    }

    /** The views {@code d}'s query reads, those inside views included, as far as its analysis reaches. */
    private Set<String> viewsRead(DerivedDef d, Function<String, Optional<ViewDef>> views) {
        Set<String> read = new HashSet<>();
        TableLookup lookup = new TableLookup() {
            @Override
            public TableDef table(Ident name) {
                return catalog.find(name.name()).orElseThrow(() -> Refusals.unknownTable(name.name(), name.pos()));
            }

            @Override
            public Optional<ViewDef> view(String name) {
                read.add(name);
                return views.apply(name);
            }
        };
        try {
            ReadAnalyzer.query(Definitions.query(d.query()), lookup,
                    new io.verso.analyze.AsOfResolver(List.of(), Long.MAX_VALUE), 0);
        } catch (VersoException e) {
            // A query that no longer analyses reads at least the views its analysis reached.
        }
        return read;
    }

    private void refuse(List<DerivedDef> dependents, Ident name, String statement,
                        Predicate<TableDef> visible) {
        if (dependents.isEmpty()) {
            return;
        }
        List<String> named = dependents.stream().filter(d -> catalog.find(d.name()).map(visible::test).orElse(false))
                .map(DerivedDef::name).toList();
        int unnamed = dependents.size() - named.size();
        String which = named.isEmpty() ? dependents.size() + " derived table(s) you may not see"
                : "derived table(s) " + String.join(", ", named) + (unnamed == 0 ? ""
                : " and " + unnamed + " you may not see");
        throw VersoException.at(ErrorCode.DERIVED_DEPENDENCY, statement + " " + name.name() + " is refused: " + which
                + " read it; they must be dropped first", name.pos());
    }

    /**
     * SHOW DERIVED TABLES: name, key, query, sources, the commit it is applied through, and how its
     * shape lets source commits be applied ({@link #mode}); only the tables {@code visible} to the
     * caller, as SHOW TABLES.
     */
    public List<List<Object>> show(long appliedThrough, Predicate<TableDef> visible) {
        List<List<Object>> rows = new ArrayList<>();
        for (DerivedDef d : all()) {
            TableDef table = catalog.find(d.name()).orElseThrow();
            if (!visible.test(table)) {
                continue;
            }
            rows.add(java.util.Arrays.asList(d.name(),
                    String.join(", ", table.keyColumns().stream().map(ColumnDef::name).toList()), d.query(),
                    String.join(", ", d.sources()), Long.toString(appliedThrough), mode(d, table)));
        }
        return rows;
    }

    /**
     * {@code incremental} when the query's shape lets a source commit be applied by the keys it
     * changed ({@link Locality}, {@link Footprint}; a keyless table by the rows appended), else
     * {@code recompute}: the {@code mode} tags of {@code verso.derived.applied}. A commit of an
     * incremental table still recomputes when it changes too many keys (the metric shows it).
     */
    private String mode(DerivedDef d, TableDef table) {
        if (table.mode() == TableMode.APPEND) {
            return "incremental";
        }
        Query query = Definitions.query(d.query());
        BoundSelect bound;
        try {
            // The catalog's own tables, whoever asks: a view among the sources is unknown here, and a query
            // over a view is recomputed anyway.
            bound = ReadAnalyzer.query(query, name -> catalog.find(name.name()).orElseThrow(() ->
                    Refusals.unknownTable(name.name(), name.pos())),
                    new io.verso.analyze.AsOfResolver(List.of(), Long.MAX_VALUE), 0);
        } catch (VersoException e) {
            return "recompute";
        }
        return Locality.of(query, bound, table) != null || Footprint.of(query, bound, table) != null
                ? "incremental" : "recompute";
    }

    /**
     * CREATE DERIVED TABLE: checks the query (its sources looked up, and so authorized, by
     * {@code request}) and defines the table, empty; {@link #build} then gives it its history.
     */
    public DerivedDef create(Statement.CreateDerived create, DeriveContext request) {
        String name = create.name().name();
        if (catalog.find(name).isPresent()) {
            throw Refusals.tableExists(name, create.name().pos());
        }
        DeterminismRules.check(create.text(), create.query().pos());
        if (SqlParser.parse(create.text()).parameterCount() > 0) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "a derived table's query cannot hold ? parameters",
                    create.query().pos());
        }
        BoundSelect bound = ReadAnalyzer.query(create.query(), request, request.asOf(), 0);
        boolean keyless = create.primaryKey().isEmpty();
        if (keyless && Appending.of(create.query(), bound) == null) {
            throw VersoException.at(ErrorCode.PRIMARY_KEY_REQUIRED, "a derived table without PRIMARY KEY is an "
                    + "APPEND table, so its query must only ever add rows: a projection or filter of one APPEND "
                    + "table (no GROUP BY, aggregate, DISTINCT, join, subquery, set operation or LIMIT); else give "
                    + "PRIMARY KEY (...): the columns that identify a row of its query's result", create.pos());
        }
        Set<String> sources = new LinkedHashSet<>();
        for (BoundRelation relation : bound.relations()) {
            if (relation.table().mode() == TableMode.UPSERT) {
                throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, "a derived table reads VERSIONED, APPEND or "
                        + "derived tables; " + relation.table().name() + " is an UPSERT table and keeps no history",
                        create.query().pos());
            }
            sources.add(relation.table().name());
        }
        if (sources.isEmpty()) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "a derived table's query reads at least one table",
                    create.query().pos());
        }
        List<String[]> types = request.columnTypes(DerivedCompiler.noRows(bound));
        List<Statement.ColumnDefinition> columns = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            Ident column = new Ident(bound.columns().get(i), create.query().pos());
            columns.add(new Statement.ColumnDefinition(column, type(column, types.get(i)), false, null,
                    create.query().pos()));
        }
        for (Ident key : create.primaryKey()) {
            if (!bound.columns().contains(key.name())) {
                throw VersoException.at(ErrorCode.UNKNOWN_COLUMN, "primary key column '" + key.name()
                        + "' is not a column of the query's result " + bound.columns(), key.pos());
            }
        }
        TableDef table = catalog.create(DdlAnalyzer.createTable(new Statement.CreateTable(create.name(), false,
                columns, create.primaryKey(), List.of(), keyless ? Statement.Mode.APPEND : Statement.Mode.VERSIONED,
                Statement.Ordering.NONE, create.pos()), request.commit()));
        DdlCompiler.createTable(table).forEach(request::update);
        DerivedDef defined = new DerivedDef(table.id(), table.name(), create.text(), List.copyOf(sources),
                request.commit());
        request.update(DerivedCompiler.record(defined.tableId(), defined.query(), defined.sources(), request.commit()));
        request.catalogChanged();
        return defined;
    }

    /**
     * Brings every derived table up to date with this request's commit. {@code touched}: the tables
     * the request changed; {@code erased}: those it erased keys of; {@code created}: derived tables
     * created by this request (already built through it).
     */
    public void apply(DeriveContext request, List<DerivedDef> derived, Set<String> touched, Set<String> erased,
                      Set<String> created) {
        if (derived.isEmpty()) {
            return;
        }
        Set<String> changed = new HashSet<>(touched);
        Set<String> rebuilt = new HashSet<>(erased);
        for (DerivedDef d : derived) {
            if (created.contains(d.name())) {
                continue;
            }
            if (d.sources().stream().anyMatch(rebuilt::contains)) {
                TableDef table = request.table(new Ident(d.name(), NOWHERE));
                DerivedCompiler.clear(table).forEach(request::update);
                build(d, request);
                rebuilt.add(d.name());
                changed.add(d.name());
            } else if (d.sources().stream().anyMatch(changed::contains)) {
                long written = applyAt(d, request, null, true);
                if (written > 0) {
                    changed.add(d.name());
                    request.touch(d.name(), written);
                }
            }
        }
    }

    /** Replays every earlier commit of the sources in order, then applies the request's own commit. */
    public void build(DerivedDef d, DeriveContext request) {
        List<Long> commits = sourceCommits(d, request);
        log.info("Derived table {}: building its history over {} earlier source commit(s)", d.name(), commits.size());
        BuildProgress progress = BuildProgress.current();
        progress.planned(d.name(), commits.size());
        int done = 0;
        long rows = 0;
        for (long commit : commits) {
            // The first commit builds the whole state (the sources may have history before it that is gone).
            rows += applyAt(d, request, commit, done > 0);
            replayed.increment();
            progress.applied(d.name(), ++done, rows);
            if (done % 100 == 0) {
                log.info("Derived table {}: {} of {} source commits applied (through commit {})", d.name(), done,
                        commits.size(), commit);
            }
        }
        long written = applyAt(d, request, null, !commits.isEmpty());
        request.touch(d.name(), written);
        progress.applied(d.name(), done, rows + written);
        log.info("Derived table {}: built through commit {}", d.name(), request.commit());
    }

    /** The commits before this one at which some source's rows changed, from the horizon of the sources on. */
    private List<Long> sourceCommits(DerivedDef d, DeriveContext request) {
        List<TableDef> sources = d.sources().stream().map(name -> request.table(new Ident(name, NOWHERE))).toList();
        return request.texts(DerivedCompiler.sourceCommits(sources, request.commit())).stream()
                .map(r -> Long.parseLong(r[0])).toList();
    }

    /**
     * Writes the difference between the query's result (AS OF {@code asOf}, or as this request
     * leaves the sources when null) and the derived table's current rows, as versions at that
     * commit. Returns the number of versions written.
     */
    private long applyAt(DerivedDef d, DeriveContext request, Long asOf, boolean byKeys) {
        TableDef table = request.table(new Ident(d.name(), NOWHERE));
        if (table.mode() == TableMode.APPEND) {
            return append(d, table, request, asOf == null ? request.commit() : asOf);
        }
        Query plain = Definitions.query(d.query());
        Upkeep upkeep = asOf == null ? current(d, plain, table, request)
                : analyse(plain, new Query(plain.with(), plain.body(), plain.orderBy(), new AsOf.AtCommit(asOf,
                        plain.pos()), plain.limit(), plain.offset(), plain.pos()), table, request);
        BoundSelect bound = upkeep.bound();
        // Where the query allows, only the keys the source commit changed are recomputed and compared.
        DerivedCompiler.Among only = null;
        if (byKeys && upkeep.locality() != null) {
            only = upkeep.locality().affected(request, asOf == null ? request.commit() : asOf);
        } else if (byKeys && upkeep.footprint() != null) {
            only = upkeep.footprint().affected(request, asOf);
        }
        (only == null ? recomputed : incremental).increment();
        if (log.isDebugEnabled()) {
            log.debug("Derived table {}: commit {} applied by {}", d.name(), asOf == null ? request.commit() : asOf,
                    only == null ? "recompute" : "keys");
        }
        if (only != null && only.nothing()) {
            return 0;
        }
        List<ColumnDef> columns = table.columns();
        if (bound.columns().size() != columns.size()) {
            throw VersoException.user(ErrorCode.INVALID_DEFINITION, "derived table " + d.name() + " has "
                    + columns.size() + " columns but its query now returns " + bound.columns().size()
                    + ": a source changed under it; drop and create it again");
        }
        List<ColumnDef> keys = table.keyColumns();
        List<String[]> diff = request.texts(DerivedCompiler.difference(table, bound, only));
        if (diff.isEmpty()) {
            return 0;
        }
        List<RowInput> rows = new ArrayList<>();
        List<RowInput> tombstones = new ArrayList<>();
        for (String[] texts : diff) {
            boolean gone = "t".equals(texts[columns.size()]);
            Map<String, Object> values = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                ColumnDef column = columns.get(i);
                if (column.isKey() && texts[i] == null) {
                    throw conflict(d, "a row whose key column " + column.name() + " is NULL", asOf);
                }
                if (column.isKey() || !gone) {
                    values.put(column.name(), texts[i]);
                }
            }
            if (Long.parseLong(texts[columns.size() + 1]) > 1) {
                throw conflict(d, "two rows for key " + keyText(keys, values), asOf);
            }
            (gone ? tombstones : rows).add(new RowInput(values, Map.of(), "derived table " + d.name()));
        }
        long commit = asOf == null ? request.commit() : asOf;
        long versions = 0;
        // Positions after the request's own ones cannot be needed: one version per key and commit.
        if (!rows.isEmpty()) {
            versions += write(request, WriteAnalyzer.batches(table, rows, List.of(table.defaultGroup()), false, 0,
                    NOWHERE), commit);
        }
        if (!tombstones.isEmpty()) {
            versions += write(request, WriteAnalyzer.batches(table, tombstones, table.groups(), true, rows.size(),
                    NOWHERE), commit);
        }
        return versions;
    }

    /**
     * The query as read for one commit ({@code query}: {@code plain}, or {@code plain} AS OF a commit it
     * replays), bound, and how its shape lets that commit be applied by keys ({@link Locality}, else
     * {@link Footprint}, else neither).
     */
    private record Upkeep(BoundSelect bound, Locality locality, Footprint footprint) {

        /**
         * Whether this analysis holds for every request at the catalog version it was made at. A view's body
         * is read from the catalog at each use and can be replaced without a new catalog version, so a query
         * over a view is analysed at every commit.
         */
        boolean shared() {
            return bound.bindings().values().stream().noneMatch(b -> b instanceof BoundSelect.ViewRead);
        }
    }

    /**
     * The query as a request's own commit reads it, analysed once per definition of a catalog version
     * where that holds ({@link Upkeep#shared}): it depends on that version alone (upkeep checks no
     * privilege, and the query holds no AS OF), and {@link #all(long)} shares one version's definitions
     * between its requests. Kept by the definition's identity and weakly, so a version's analyses go
     * with its definitions; those read afresh (by a request that ran DDL) are analysed afresh.
     */
    private Upkeep current(DerivedDef d, Query plain, TableDef table, DeriveContext request) {
        Upkeep kept = analysed.getIfPresent(d);
        if (kept != null) {
            return kept;
        }
        Upkeep upkeep = analyse(plain, plain, table, request);
        if (upkeep.shared()) {
            analysed.put(d, upkeep);
        }
        return upkeep;
    }

    private static Upkeep analyse(Query plain, Query query, TableDef table, DeriveContext request) {
        BoundSelect bound = ReadAnalyzer.query(query, request, request.asOf(), 0);
        Locality locality = Locality.of(plain, bound, table);
        return new Upkeep(bound, locality, locality == null ? Footprint.of(plain, bound, table) : null);
    }

    /**
     * A keyless derived table (APPEND): the query's rows over the source rows appended at
     * {@code commit}, appended at that commit. Its query is a projection or filter of one APPEND
     * table ({@link Appending}), so those are exactly the rows the commit adds to its result.
     */
    private long append(DerivedDef d, TableDef table, DeriveContext request, long commit) {
        Query query = Definitions.query(d.query());
        BoundSelect plain = ReadAnalyzer.query(query, request, request.asOf(), 0);
        Appending appending = Appending.of(query, plain);
        if (appending == null) {
            throw VersoException.user(ErrorCode.INVALID_DEFINITION, "derived table " + d.name() + " has no PRIMARY KEY "
                    + "but its query no longer only adds rows: a source changed under it; drop and create it again");
        }
        BoundSelect bound = ReadAnalyzer.query(appending.at(commit), request, request.asOf(), 0);
        List<ColumnDef> columns = table.columns();
        if (bound.columns().size() != columns.size()) {
            throw VersoException.user(ErrorCode.INVALID_DEFINITION, "derived table " + d.name() + " has "
                    + columns.size() + " columns but its query now returns " + bound.columns().size()
                    + ": a source changed under it; drop and create it again");
        }
        incremental.increment();
        return request.update(DerivedCompiler.append(table, bound, commit));
    }

    private static long write(DeriveContext request, List<io.verso.analyze.GroupBatch> batches, long commit) {
        if (batches.isEmpty()) {
            return 0;
        }
        return Long.parseLong(request.texts(WriteCompiler.write(batches, commit)).get(0)[0]);
    }

    private static VersoException conflict(DerivedDef d, String what, Long asOf) {
        return VersoException.user(ErrorCode.DERIVED_KEY_CONFLICT, "derived table " + d.name() + ": its query returns "
                + what + (asOf == null ? "" : " as of commit " + asOf) + "; its PRIMARY KEY must identify one row");
    }

    private static String keyText(List<ColumnDef> keys, Map<String, Object> values) {
        List<String> parts = new ArrayList<>();
        for (ColumnDef key : keys) {
            parts.add(key.name() + "=" + values.get(key.name()));
        }
        return "(" + String.join(", ", parts) + ")";
    }

    /** The column type a derived table stores a query column in. */
    private static TypeSpec type(Ident column, String[] pg) {
        Pos pos = column.pos();
        int precision = Integer.parseInt(pg[1]);
        int scale = Integer.parseInt(pg[2]);
        return switch (pg[0]) {
            case "int2" -> new TypeSpec("smallint", null, null, pos);
            case "int4" -> new TypeSpec("integer", null, null, pos);
            case "int8" -> new TypeSpec("bigint", null, null, pos);
            case "numeric" -> precision > 0 && precision <= 1000
                    ? new TypeSpec("numeric", precision, scale, pos) : new TypeSpec("numeric", null, null, pos);
            case "float4" -> new TypeSpec("real", null, null, pos);
            case "float8" -> new TypeSpec("double precision", null, null, pos);
            case "bool" -> new TypeSpec("boolean", null, null, pos);
            case "text", "bpchar", "varchar", "name" -> new TypeSpec("text", null, null, pos);
            case "date" -> new TypeSpec("date", null, null, pos);
            case "timestamp" -> new TypeSpec("timestamp", null, null, pos);
            case "timestamptz" -> new TypeSpec("timestamptz", null, null, pos);
            case "uuid" -> new TypeSpec("uuid", null, null, pos);
            case "jsonb", "json" -> new TypeSpec("jsonb", null, null, pos);
            default -> throw VersoException.at(ErrorCode.INVALID_DEFINITION, "column " + column.name()
                    + " of the query has type " + pg[0] + ", which a table cannot hold: CAST it", pos);
        };
    }
}
