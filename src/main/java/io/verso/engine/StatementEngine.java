package io.verso.engine;

import io.verso.analyze.AsOfResolver;
import io.verso.analyze.BoundChange;
import io.verso.analyze.BoundRelation;
import io.verso.analyze.BoundSelect;
import io.verso.analyze.RelationKind;
import io.verso.analyze.DdlAnalyzer;
import io.verso.analyze.GroupBatch;
import io.verso.analyze.ReadAnalyzer;
import io.verso.analyze.TableLookup;
import io.verso.analyze.Weight;
import io.verso.analyze.WriteAnalyzer.RowInput;
import io.verso.analyze.WriteAnalyzer;
import io.verso.catalog.Catalog;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.IndexScope;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.catalog.ViewDef;
import io.verso.catalog.Views;
import io.verso.commits.CommitRecord;
import io.verso.compile.CompiledSql;
import io.verso.compile.DdlCompiler;
import io.verso.compile.SelectCompiler;
import io.verso.compile.SqlBuilder;
import io.verso.compile.TimeCompiler;
import io.verso.compile.WriteCompiler;
import io.verso.config.VersoProperties;
import io.verso.derive.DeriveContext;
import io.verso.derive.DerivedDef;
import io.verso.derive.Deriver;
import io.verso.engine.StatementResult.Column;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.security.AccessControl;
import io.verso.security.Caller;
import io.verso.security.Privilege;
import io.verso.security.VersoPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import io.verso.catalog.ViewDef;
import io.verso.catalog.Views;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs a request: parse, then in one PostgreSQL transaction analyse, compile and execute each
 * statement, and, if anything was written, record one commit. Writers of different tables run at
 * once (see {@link #COMMIT_LOCK}); each draws its sequence under a short lock and waits, before it
 * commits, for every writer of a lower sequence to end, so sequences increase in visibility order and
 * a reader's snapshot always holds a prefix of the commits.
 */
@Service
public class StatementEngine {

    /**
     * The commit lock (an advisory lock, db/migration/V18): shared by writers that name their tables up
     * front, held alone by every other writer, from before its sequence is drawn until it is visible.
     */
    static final long COMMIT_LOCK = 0x7665_7273_6f00_0001L;

    /** The PostgreSQL notification channel every write commit notifies, its commit sequence as payload. */
    public static final String COMMIT_CHANNEL = "verso_commits";

    private final Catalog catalog;
    private final Lifecycle lifecycle;
    private final SqlRunner sql;
    private final VersoProperties properties;
    private final TransactionTemplate transaction;
    private final ResourceLimits limits;
    private final EngineObserver observer;
    private final Views views;
    private final AccessControl access;
    private final AccessStatements accessStatements;
    private final ReadRouter router;
    private final SystemVersioning system;
    private final Deriver deriver;

    public StatementEngine(Catalog catalog, Views views, SqlRunner sql,
                           VersoProperties properties, PlatformTransactionManager transactions,
                           EngineObserver observer, AccessControl access, ObjectProvider<ReadRouter> router,
                           Deriver deriver) {
        this.catalog = catalog;
        this.deriver = deriver;
        this.views = views;
        this.lifecycle = new Lifecycle(catalog, sql);
        this.system = new SystemVersioning(catalog, sql);
        this.sql = sql;
        this.properties = properties;
        this.limits = new ResourceLimits(properties);
        // Isolation is set by the first statement of each transaction (see Request.run), not through
        // the connection, which would cost a round trip to set and another to reset per request.
        this.transaction = new TransactionTemplate(transactions);
        this.observer = observer;
        this.access = access;
        this.accessStatements = new AccessStatements(access, catalog);
        this.router = router.getIfAvailable(() -> ReadRouter.PRIMARY_ONLY);
    }

    /**
     * Runs a request given as statements: parsed from text by {@code /v1/sql}, or built directly by
     * the REST and GraphQL surfaces and internal jobs, whose nodes carry the origin of the input they
     * came from. It runs for the calling principal ({@link Caller#current()}), whose privileges every
     * table the statements touch is checked against; {@code actor} names who asked when security is
     * off (no principal), or null.
     */
    public ExecutionResult execute(SqlParser.Script script, List<Object> params, String actor) {
        long started = System.nanoTime();
        try {
            ExecutionResult result = run(script, params, actor);
            observer.executed(result, Duration.ofNanos(System.nanoTime() - started));
            return result;
        } catch (VersoException e) {
            observer.error(e.code());
            throw e;
        } catch (StackOverflowError e) {
            // A chain of thousands of AND/OR/|| terms: every stage recurses over the expression tree, and the
            // transaction (if one had started) has been rolled back on the way out.
            observer.error(ErrorCode.EXPRESSION_TOO_DEEP);
            throw VersoException.user(ErrorCode.EXPRESSION_TOO_DEEP, "an expression of the request chains or nests "
                    + "too many terms to evaluate; use IN (...) for long lists of alternatives, or split the request");
        } catch (RuntimeException e) {
            observer.error(ErrorCode.INTERNAL_ERROR);
            throw e;
        }
    }

    /**
     * Whether the statements are light for admission ({@link Weight}: one-key reads, small writes, look-ups),
     * judged on the table definitions this instance already holds: no database round trip.
     */
    public boolean light(SqlParser.Script script) {
        Catalog.Snapshot snapshot = catalog.latestSnapshot();
        return snapshot != null && Weight.light(script.statements(), name -> {
            Optional<TableDef> table = snapshot.cached(name);
            return table == null ? Optional.empty() : table.map(TableDef::keyColumns);
        });
    }

    /** Statements a surface built, whose parameters are exactly {@code params}. */
    public ExecutionResult execute(List<Statement> statements, List<Object> params, String actor) {
        return execute(new SqlParser.Script(statements, params.size()), params, actor);
    }

    private ExecutionResult run(SqlParser.Script script, List<Object> params, String actor) {
        if (script.statements().size() > properties.maxStatements()) {
            throw VersoException.user(ErrorCode.TOO_MANY_STATEMENTS, "a request holds at most "
                    + properties.maxStatements() + " statements, not " + script.statements().size());
        }
        if (params.size() != script.parameterCount()) {
            throw VersoException.pointing(ErrorCode.PARAMETER_COUNT_MISMATCH, "the statements have "
                    + script.parameterCount() + " ? placeholder(s) but " + params.size() + " parameter(s) were given",
                    "/params");
        }
        boolean writes = script.statements().stream().anyMatch(Statement::writes);
        try {
            VersoPrincipal principal = Caller.current();
            String recorded = principal.name() != null ? principal.name() : actor;
            if (!writes) {
                Statement only = script.statements().size() == 1 ? script.statements().get(0) : null;
                return router.read(target -> {
                    if (only instanceof Statement.Select select) {
                        ExecutionResult fast = new Request(params, false, principal, recorded, target).runOnce(select);
                        if (fast != null) {
                            return fast;
                        }
                    }
                    return transaction.execute(status ->
                            new Request(params, false, principal, recorded, target).run(script.statements(), status));
                });
            }
            Request request = new Request(params, true, principal, recorded, null);
            ExecutionResult result = transaction.execute(status -> request.run(script.statements(), status));
            if (result.commit() != null) {
                // A request whose writes were all rolled back made no commit.
                if (request.catalogChanged) {
                    catalog.forgetLatest();
                }
                router.committed(result.commit(), request.catalogChanged);
            }
            return result;
        } catch (VersoException e) {
            throw e;
        } catch (DataAccessException | TransactionException e) {
            throw PgErrors.translate(e);
        }
    }

    /** The state of one request: its commit, the positions it handed out, the tables it touched. */
    private final class Request implements RequestContext, TableLookup, DeriveContext {
        private final List<Object> params;
        private final boolean writes;
        private final String actor;
        private final VersoPrincipal principal;
        /** What the running statement needs on the tables it names. */
        private Privilege needed = Privilege.SELECT;
        private final ReadRouter.ReadTarget target;
        private final Map<String, TableDef> tables = new HashMap<>();
        private final Map<String, Long> touched = new LinkedHashMap<>();
        private long commit;
        private Instant commitTime;
        private AsOfResolver asOf;
        private Catalog.Snapshot catalogSnapshot;
        private int position;
        private boolean catalogChanged;
        /** START TRANSACTION seen (a savepoint to ROLLBACK to) and what was touched then; see transactionControl. */
        private Map<String, Long> touchedAtStart;
        private boolean rolledBack;
        /** Derived table definitions, read once per writing request (null until needed). */
        private List<DerivedDef> derived;
        /** The catalog version a writer saw under the commit lock, and whether it has run DDL since. */
        private long writerCatalogVersion = -1;
        private boolean ranDdl;
        private final Set<String> erased = new HashSet<>();
        private final Set<String> derivedCreated = new HashSet<>();
        private boolean readPast;
        /** Derived tables are being brought up to date: lookups are the engine's, not the caller's. */
        private boolean upkeep;
        /** Bound before its snapshot is known (runOnce): no lookup may leave the request's round trip. */
        private boolean once;

        Request(List<Object> params, boolean writes, VersoPrincipal principal, String actor,
                ReadRouter.ReadTarget target) {
            this.params = params;
            this.writes = writes;
            this.principal = principal;
            this.actor = actor;
            this.target = target;
        }

        @Override
        public long commit() {
            return commit;
        }

        @Override
        public List<Object> params() {
            return params;
        }

        @Override
        public AsOfResolver asOf() {
            return asOf;
        }

        @Override
        public String actor() {
            return actor;
        }

        ExecutionResult run(List<Statement> statements, org.springframework.transaction.TransactionStatus status) {
            long latest;
            if (writes) {
                // One round trip: the request's resource limits (ResourceLimits), transaction-local, in a statement
                // of their own so that the statement timeout bounds begin_commit's waits for other writers; then
                // verso.begin_commit (db/migration/V18): the commit lock, shared when every table the request
                // writes is named up front (then each of those tables' locks, so writers of different tables
                // work at once), else exclusive; the sequence, drawn under a short lock and held until this
                // transaction ends; the commit's time from the database clock, never behind an earlier commit's;
                // the latest commit made before this one, which bounds AS OF (the sequence has gaps where
                // requests failed); the catalog version, which no other writer can change while this one holds
                // the commit lock; whether any derived table exists.
                List<String> named = namedTables(statements);
                CompiledSql begin = new SqlBuilder().sql("SELECT b.* FROM verso.begin_commit(").bind(limits.timeout())
                        .sql(", ").bind(new CompiledSql.ArrayBind("text", named == null ? new Object[0]
                                : named.toArray())).sql(", ").bind(named == null).sql(") AS b").build();
                Object[] drawn = waitingForWriters(() -> sql.queryAfter(
                        limits.settings(new SqlBuilder().sql("SELECT "), sql).build(), begin, rs -> {
                            rs.next();
                            return new Object[] {rs.getLong(1), rs.getObject(2, java.time.OffsetDateTime.class),
                                rs.getLong(3), rs.getLong(4), rs.getBoolean(5)};
                        }));
                commit = (Long) drawn[0];
                commitTime = ((java.time.OffsetDateTime) drawn[1]).toInstant();
                latest = (Long) drawn[2];
                writerCatalogVersion = (Long) drawn[3];
                catalogSnapshot = catalog.snapshot(writerCatalogVersion);
                if (!(Boolean) drawn[4]) {
                    derived = List.of();
                }
            } else {
                // Reads: one snapshot for every statement of the request. Writes stay READ COMMITTED, so
                // that after taking the lock each statement sees every earlier commit.
                sql.update(new SqlBuilder().sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").build());
                // One round trip: the resource limits, the latest commit and the catalog version of this snapshot.
                long[] state = sql.query(readState(), rs -> {
                    rs.next();
                    return new long[] {rs.getLong(1), rs.getLong(2)};
                });
                latest = state[0];
                target.snapshot(latest, state[1]);
                catalogSnapshot = catalog.snapshot(state[1]);
            }
            asOf = new AsOfResolver(params, latest, this::commitAt).withInstants(instants());
            List<StatementResult> results = new ArrayList<>();
            for (Statement statement : statements) {
                results.add(execute(statement));
            }
            if (writes && rolledBack && touched.isEmpty()) {
                // Everything this request wrote was rolled back: it makes no commit (its sequence is a gap).
                status.setRollbackOnly();
                return new ExecutionResult(null, latest, results);
            }
            if (writes) {
                // Derived tables follow their sources inside this transaction: the commit is seen whole or not at all.
                if (!touched.isEmpty()) {
                    // The engine's own work, not the caller's: a writer of a source needs no privilege on the
                    // derived tables that read it or on their other sources (CREATE DERIVED TABLE checked those).
                    upkeep = true;
                    try {
                        deriver.apply(this, derived(), Set.copyOf(touched.keySet()), erased, derivedCreated);
                    } finally {
                        upkeep = false;
                    }
                }
                Set<CommitRecord.TableTouched> tablesTouched = touched.entrySet().stream()
                        .map(e -> new CommitRecord.TableTouched(e.getKey(), e.getValue()))
                        .collect(Collectors.toCollection(LinkedHashSet::new));
                long rows = touched.values().stream().mapToLong(Long::longValue).sum();
                // The request's Idempotency-Key, marked with this commit in this transaction (security.Idempotency).
                io.verso.security.Idempotency.current().ifPresent(claim -> sql.update(new SqlBuilder()
                        .sql("UPDATE verso.idempotency_keys SET commit_seq = ").bind(commit).sql(" WHERE principal = ")
                        .bind(claim.principal()).sql(" AND key = ").bind(claim.key()).build()));
                // One round trip: the commit record and its tables; the notification, inside the transaction, so
                // PostgreSQL delivers it only once the commit is visible (feed.CommitSignal); then the wait for
                // every writer of a lower sequence to end, so commits become visible in sequence order; and, when
                // this request began the transaction, COMMIT itself (SqlRunner.updateAndCommit).
                CompiledSql record = new SqlBuilder().sql("WITH c AS (INSERT INTO verso.commits (seq, committed_at, row_count, ")
                        .sql("principal) VALUES (").bind(commit).sql(", CAST(").bind(commitTime.toString())
                        .sql(" AS timestamptz), ").bind(rows).sql(", CAST(").bind(actor).sql(" AS text))), ")
                        .sql("t AS (INSERT INTO verso.commit_tables (commit_seq, table_name, row_count) SELECT ")
                        .bind(commit).sql(", n, r FROM unnest(").bind(new CompiledSql.ArrayBind("text",
                                tablesTouched.stream().map(CommitRecord.TableTouched::tableName).toArray()))
                        .sql(", ").bind(new CompiledSql.ArrayBind("bigint",
                                tablesTouched.stream().map(CommitRecord.TableTouched::rowCount).toArray()))
                        .sql(") AS x (n, r)) SELECT pg_notify(").bind(COMMIT_CHANNEL).sql(", ")
                        .bind(Long.toString(commit)).sql("), verso.await_earlier_commits(").bind(commit).sql(")")
                        .build();
                waitingForWriters(() -> {
                    if (status.isNewTransaction()) {
                        sql.updateAndCommit(record);
                    } else {
                        sql.query(record, rs -> null);
                    }
                    return null;
                });
            }
            return new ExecutionResult(writes ? commit : null, writes ? commit : latest, results, readPast);
        }

        /**
         * The read's settings and state in one statement: the latest commit and the catalog version of its
         * snapshot, then its resource limits (transaction-local: ResourceLimits). Settings every read
         * transaction needs go here.
         */
        private CompiledSql readState() {
            return limits.settings(new SqlBuilder().sql("SELECT (SELECT coalesce(max(seq), 0) FROM verso.commits), ")
                    .sql("(SELECT version FROM verso.catalog_version), "), sql).build();
        }

        /**
         * A single SELECT in one database round trip ({@link SqlRunner#readOnce}): bound against the
         * newest catalog version this instance has seen, then run together with the lookup of its
         * snapshot's latest commit and catalog version. The router is told that state before the rows are
         * read, and may abandon the attempt as before. Null (run the request the ordinary way, which also
         * gives every error its usual form) when the statement needs a lookup while it is bound (a
         * definition not cached, a view, AS OF a time), when it fails to bind, or when the snapshot holds
         * another catalog version or not a commit it reads AS OF.
         */
        ExecutionResult runOnce(Statement.Select select) {
            Catalog.Snapshot assumed = catalog.latestSnapshot();
            if (assumed == null) {
                return null;
            }
            catalogSnapshot = assumed;
            once = true;
            asOf = new AsOfResolver(params, Long.MAX_VALUE, (value, latestCommit) -> {
                throw NotOnce.INSTANCE;
            }).withInstants(new AsOfResolver.Instants() {
                @Override
                public Instant at(Expr value) {
                    throw NotOnce.INSTANCE;
                }

                @Override
                public long commitAt(Instant t, boolean strict, long latestCommit) {
                    throw NotOnce.INSTANCE;
                }
            });
            BoundSelect bound;
            CompiledSql compiled;
            try {
                bound = ReadAnalyzer.select(select, this, asOf, params.size());
                compiled = SelectCompiler.compile(bound, params);
            } catch (NotOnce | VersoException | StackOverflowError e) {
                return null;
            }
            long[] state = new long[2];
            ResultReader.Table table = sql.readOnce(readState(), compiled, properties.maxResultRows(), rs -> {
                rs.next();
                state[0] = rs.getLong(1);
                state[1] = rs.getLong(2);
                target.snapshot(state[0], state[1]);
                return state[1] == assumed.version() && bound.relations().stream()
                        .allMatch(r -> r.asOf() == null || r.asOf() <= state[0]);
            }, rs -> ResultReader.read(rs, properties.maxResultRows(), properties.maxResultChars()));
            if (table == null) {
                return null;
            }
            asOf = new AsOfResolver(params, state[0]);
            boolean pinned = bound.relations().stream().anyMatch(StatementEngine::atFixedCommit);
            boolean fixed = bound.relations().stream().allMatch(StatementEngine::atFixedCommit);
            return new ExecutionResult(null, state[0], List.of(new StatementResult.Rows("SELECT", table.columns(),
                    table.rows(), readAt(bound), pinned, fixed)), pinned);
        }

        @Override
        public TableDef table(Ident name) {
            if (once && !tables.containsKey(name.name()) && catalogSnapshot.cached(name.name()) == null) {
                throw NotOnce.INSTANCE; // a lookup in another snapshot than the read's
            }
            TableDef table = tables.computeIfAbsent(name.name(), n -> (catalogSnapshot != null
                    ? catalogSnapshot.find(n) : catalog.find(n)).orElse(null));
            if (table == null) {
                tables.remove(name.name());
                throw VersoException.at(ErrorCode.UNKNOWN_TABLE, "unknown table '" + name.name() + "'", name.pos());
            }
            if (!upkeep) {
                access.check(principal, table, needed, name.name(), name.pos());
            }
            return table;
        }

        @Override
        public Optional<ViewDef> view(String name) {
            if (once) {
                throw NotOnce.INSTANCE;
            }
            return views.find(name);
        }

        /** The latest commit made at or before the time {@code value} names, 0 before the first commit. */
        private long commitAt(Expr value, long latestCommit) {
            AsOfResolver.requireConstant(value);
            try {
                return sql.query(TimeCompiler.commitAtOrBefore(value, latestCommit, params), rs -> {
                    rs.next();
                    return rs.getLong(1);
                });
            } catch (DataAccessException e) {
                // PostgreSQL judges the time's text; its refusal is about this value, wherever it was given.
                VersoException refused = PgErrors.translate(e);
                if (refused instanceof VersoException.UserError user && user.origin() == null) {
                    throw VersoException.at(user.code(), user.getMessage(), value.pos());
                }
                throw refused;
            }
        }

        @Override
        public void authorize(TableDef table, Ident asked) {
            access.check(principal, table, needed, asked.name(), asked.pos());
        }

        @Override
        public AsOfResolver.Instants instants() {
            return new AsOfResolver.Instants() {
                @Override
                public Instant at(Expr value) {
                    AsOfResolver.requireConstant(value);
                    try {
                        java.time.OffsetDateTime t = sql.query(TimeCompiler.instant(value, params), rs -> {
                            rs.next();
                            return rs.getObject(1, java.time.OffsetDateTime.class);
                        });
                        if (t == null) {
                            throw VersoException.at(ErrorCode.INVALID_SYSTEM_TIME, "FOR SYSTEM_TIME takes a time, "
                                    + "not NULL", value.pos());
                        }
                        return t.toInstant();
                    } catch (DataAccessException e) {
                        throw VersoException.at(ErrorCode.INVALID_SYSTEM_TIME, "FOR SYSTEM_TIME takes a time (a "
                                + "TIMESTAMP literal, a string such as '2025-12-31 23:59:59', a parameter or a constant "
                                + "expression): " + PgErrors.translate(e).getMessage(), value.pos());
                    }
                }

                @Override
                public long commitAt(Instant t, boolean strict, long latestCommit) {
                    return sql.query(TimeCompiler.commitAt(t, strict, latestCommit), rs -> {
                                rs.next();
                                return rs.getLong(1);
                            });
                }
            };
        }

        @Override
        public void catalogChanged() {
            catalogChanged = true;
            tables.clear();
            if (writes) {
                // From here on this transaction's own catalog, not the committed version's cache.
                catalogSnapshot = null;
            }
        }

        @Override
        public List<String[]> texts(CompiledSql statement) {
            return sql.texts(statement);
        }

        @Override
        public int update(CompiledSql statement) {
            return sql.update(statement);
        }

        @Override
        public List<String[]> columnTypes(CompiledSql statement) {
            return sql.query(statement, rs -> {
                var meta = rs.getMetaData();
                List<String[]> types = new ArrayList<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    types.add(new String[] {meta.getColumnTypeName(i), Integer.toString(meta.getPrecision(i)),
                            Integer.toString(meta.getScale(i))});
                }
                return types;
            });
        }

        /**
         * The derived tables: shared per catalog version (no query when cached), read afresh once this
         * request has run DDL, whose changes no other request may see yet.
         */
        private List<DerivedDef> derived() {
            if (derived == null) {
                derived = ranDdl || writerCatalogVersion < 0 ? deriver.all() : deriver.all(writerCatalogVersion);
            }
            return derived;
        }

        /** Users write sources; derived tables are written by the engine only, and outlive no source. */
        private void guardDerived(Statement statement) {
            Ident target = statement.target();
            if (target == null) {
                return;
            }
            if (statement.writeVerb() != null) {
                deriver.refuseWrite(derived(), target, statement.writeVerb());
            }
            if (statement.dependencyVerb() != null) {
                deriver.refuseDependency(derived(), target, statement.dependencyVerb());
            }
        }

        @Override
        public void touch(String table, long rows) {
            touched.merge(table, rows, Long::sum);
        }

        private StatementResult execute(Statement statement) {
            // CREATE DERIVED TABLE reads its sources into a new table: SELECT on each (subqueries, joins and
            // views' tables included); creating the table is checked as CREATE TABLE's (createDerived).
            needed = statement instanceof Statement.Select || statement instanceof Statement.Describe
                    || statement instanceof Statement.ShowCreateTable || statement instanceof Statement.CreateDerived
                    ? Privilege.SELECT
                    : statement instanceof Statement.InsertRows || statement instanceof Statement.Update
                    || statement instanceof Statement.Delete ? Privilege.WRITE : Privilege.ADMIN;
            if (statement instanceof Statement.Access a) {
                return accessStatements.execute(a, principal);
            }
            if (statement instanceof Statement.Select s) {
                return select(s);
            }
            if (statement instanceof Statement.TransactionControl t) {
                return transactionControl(t);
            }
            if (writes) {
                guardDerived(statement);
                if (!(statement instanceof Statement.InsertRows || statement instanceof Statement.Update
                        || statement instanceof Statement.Delete)) {
                    ranDdl = true;
                    derived = null;
                }
            }
            if (statement instanceof Statement.Erase e) {
                erased.add(e.table().name());
            }
            if (statement instanceof Statement.CreateDerived c) {
                return createDerived(c);
            }
            if (statement instanceof Statement.ShowDerived) {
                return new StatementResult.Rows("SHOW DERIVED TABLES", List.of(new Column("name", "TEXT"),
                        new Column("primary_key", "TEXT"), new Column("query", "TEXT"), new Column("sources", "TEXT"),
                        new Column("applied_through", "BIGINT"), new Column("mode", "TEXT")),
                        deriver.show(asOf.latestCommit(), t -> access.visible(principal, t)), null);
            }
            if (statement instanceof Statement.AlterSystemVersioning a) {
                return system.alter(a, table(a.table()), this, commitTime);
            }
            if (statement instanceof Statement.DeleteHistory d && (table(d.table()).mode() == TableMode.SYSTEM
                    || d.before() == null || d.before() instanceof io.verso.sql.ast.AsOf.SystemTime)) {
                return system.deleteHistory(d, table(d.table()), this);
            }
            if (statement instanceof Statement.InsertRows i) {
                return insertRows(i);
            }
            if (statement instanceof Statement.Update u) {
                return update(u);
            }
            if (statement instanceof Statement.Delete d) {
                return delete(d);
            }
            if (statement instanceof Statement.DeleteKeys d) {
                TableDef table = keyedTable(d.table(), "DELETE");
                List<RowInput> rows = WriteAnalyzer.tombstones(d, table, params);
                if (rows.isEmpty()) {
                    return StatementResult.Written.empty("DELETE", table.name());
                }
                return write("DELETE", table, rows.size(),
                        WriteAnalyzer.batches(table, rows, table.versionedGroups(), true, position, d.pos()));
            }
            if (statement instanceof Statement.CreateTable c) {
                return createTable(c);
            }
            if (statement instanceof Statement.DropTable d) {
                return dropTable(d);
            }
            if (statement instanceof Statement.CreateView c) {
                return createView(c);
            }
            if (statement instanceof Statement.DropView d) {
                return dropView(d);
            }
            if (statement instanceof Statement.ShowTables) {
                return showTables();
            }
            if (statement instanceof Statement.Describe d) {
                return describe(table(d.table()));
            }
            if (statement instanceof Statement.ShowCreateTable s) {
                TableDef table = table(s.table());
                List<List<Object>> rows = new ArrayList<>();
                rows.add(List.of(table.name(), DdlAnalyzer.showCreate(table)));
                return new StatementResult.Rows("SHOW CREATE TABLE",
                        List.of(new Column("table", "TEXT"), new Column("create_statement", "TEXT")), rows, null);
            }
            return lifecycle.execute(statement, this);
        }

        /**
         * MariaDB's framing inside one request: START TRANSACTION / BEGIN sets a savepoint, ROLLBACK
         * returns to it (undoing rows, history and catalog changes since), COMMIT ends the frame. The
         * request stays one PostgreSQL transaction and makes at most one commit.
         */
        private StatementResult transactionControl(Statement.TransactionControl control) {
            switch (control.action()) {
                case START -> {
                    sql.update(new SqlBuilder().sql("SAVEPOINT verso_frame").build());
                    touchedAtStart = new LinkedHashMap<>(touched);
                }
                case COMMIT -> touchedAtStart = null;
                case ROLLBACK -> {
                    if (touchedAtStart == null) {
                        throw VersoException.at(ErrorCode.INVALID_REQUEST, "ROLLBACK without START TRANSACTION "
                                + "(or BEGIN) earlier in the request: each request is one transaction", control.pos());
                    }
                    sql.update(new SqlBuilder().sql("ROLLBACK TO SAVEPOINT verso_frame").build());
                    touched.clear();
                    touched.putAll(touchedAtStart);
                    touchedAtStart = null;
                    rolledBack = true;
                    catalogChanged();
                }
            }
            return new StatementResult.Changed(control.action() == Statement.TransactionAction.START
                    ? "START TRANSACTION" : control.action().name(), null, true, null);
        }

        private List<RowInput> queried(Statement.InsertRows statement) {
            return queriedRows(statement, table(statement.table()));
        }

        // ---- reads -----------------------------------------------------------------------------

        private StatementResult select(Statement.Select select) {
            BoundSelect bound;
            CompiledSql compiled;
            try {
                bound = ReadAnalyzer.select(select, this, asOf, params.size());
                compiled = SelectCompiler.compile(bound, params);
            } catch (StackOverflowError e) {
                throw VersoException.user(ErrorCode.STATEMENT_TOO_LARGE, "the statement nests too deeply");
            }
            ResultReader.Table table = sql.query(compiled, rs -> ResultReader.read(rs, properties.maxResultRows(),
                    properties.maxResultChars()));
            boolean pinned = bound.relations().stream().anyMatch(StatementEngine::atFixedCommit);
            boolean fixed = bound.relations().stream().allMatch(StatementEngine::atFixedCommit) && !asOf.openByTime();
            readPast |= pinned;
            return new StatementResult.Rows("SELECT", table.columns(), table.rows(), readAt(bound), pinned, fixed);
        }

        /**
         * The commit a read was served at: the one commit every relation was read at, else (current
         * rows, or relations at different commits) the latest commit of the request's snapshot.
         */
        private long readAt(BoundSelect bound) {
            Set<Long> commitsRead = bound.relations().stream()
                    .map(r -> r.asOf() == null ? asOf.latestCommit() : r.asOf())
                    .collect(Collectors.toCollection(HashSet::new));
            return commitsRead.size() == 1 ? commitsRead.iterator().next() : asOf.latestCommit();
        }

        private StatementResult showTables() {
            List<List<Object>> rows = new ArrayList<>();
            for (TableDef t : catalog.all()) {
                if (!access.visible(principal, t)) {
                    continue;
                }
                rows.add(List.of(t.name(), t.mode().name(), String.valueOf(t.createdCommit())));
            }
            return new StatementResult.Rows("SHOW TABLES", List.of(new Column("name", "TEXT"),
                    new Column("mode", "TEXT"), new Column("created_commit", "BIGINT")), rows, null);
        }

        /** One row per column (kind COLUMN), then one per index (kind INDEX), then one per CHECK (kind CHECK). */
        private StatementResult describe(TableDef table) {
            List<List<Object>> rows = new ArrayList<>();
            for (ColumnDef c : table.columns()) {
                String ordering = null;
                if (table.isOrderingColumn(c)) {
                    GroupDef g = table.group(c.groupId());
                    ordering = g.validBy().contains(c.name()) ? "VALID BY" : "REVISION BY";
                }
                rows.add(java.util.Arrays.asList("COLUMN", c.name(), c.type().display(), !c.notNull(),
                        c.defaultValue(), c.isKey() ? c.keyPosition() + 1 : null,
                        c.isKey() || !table.mode().keyed() ? null : table.group(c.groupId()).name(), ordering, null,
                        null, null));
            }
            if (table.systemVersioned() && !table.period().implicit()) {
                for (String period : List.of(table.period().start(), table.period().end())) {
                    rows.add(java.util.Arrays.asList("COLUMN", period, table.period().type().display(), false, null,
                            null, null, period.equals(table.period().start()) ? "ROW START" : "ROW END", null, null,
                            null));
                }
            }
            for (var index : table.indexes()) {
                String columns = String.join(", ", index.columns().stream()
                        .map(p -> table.columnByPhysical(p).map(ColumnDef::name).orElse(p)).toList());
                rows.add(java.util.Arrays.asList("INDEX", index.name(), null, null, null, null, null, null, columns,
                        index.scope().name(), null));
            }
            for (var check : table.checks()) {
                rows.add(java.util.Arrays.asList("CHECK", check.name(), null, null, null, null, null, null, null, null,
                        check.expression()));
            }
            return new StatementResult.Rows("DESCRIBE", List.of(new Column("kind", "TEXT"), new Column("name", "TEXT"),
                    new Column("type", "TEXT"), new Column("nullable", "BOOLEAN"), new Column("default", "TEXT"),
                    new Column("key_position", "INTEGER"), new Column("attribute_group", "TEXT"),
                    new Column("ordering", "TEXT"), new Column("index_columns", "TEXT"),
                    new Column("index_scope", "TEXT"), new Column("check_expression", "TEXT")), rows, null);
        }

        // ---- writes ----------------------------------------------------------------------------

        private StatementResult insertRows(Statement.InsertRows statement) {
            String kind = statement.upsert() ? "UPSERT" : "INSERT";
            TableDef table = table(statement.table());
            if (table.mode() == TableMode.SYSTEM) {
                return system.insert(statement, table, this, commitTime, this::queried);
            }
            if (table.mode() == TableMode.APPEND && (statement.upsert() || statement.group() != null)) {
                throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, (statement.upsert() ? "UPSERT"
                        : "ATTRIBUTE GROUP") + " needs a keyed table; " + table.name()
                        + " is an APPEND table: use INSERT", statement.pos());
            }
            // VALUES go to column arrays directly (the ingest path); a query's rows come back as text rows.
            WriteAnalyzer.ValuesRows values = statement.query() == null
                    ? WriteAnalyzer.valuesRows(statement, table, params) : null;
            List<RowInput> rows = values == null ? queriedRows(statement, table) : null;
            int count = values != null ? values.size() : rows.size();
            if (count == 0) {
                return StatementResult.Written.empty(kind, table.name());
            }
            Set<String> given = values != null ? values.given() : rows.get(0).values().keySet();
            List<GroupDef> groups = table.mode() == TableMode.APPEND ? List.of()
                    : WriteAnalyzer.touchedGroups(table, given, statement.group());
            List<GroupBatch> batches = values != null
                    ? WriteAnalyzer.batches(table, values, groups, position, statement.pos())
                    : WriteAnalyzer.batches(table, rows, groups, false, position, statement.pos());
            if (!statement.upsert() && table.mode().keyed()) {
                refuseLiveKeys(table, batches.get(0), statement.pos());
            }
            return checked(write(kind, table, count, batches), table, batches, statement.pos());
        }

        /** The table's CHECK constraints hold for the rows the write touched, as they are now. */
        private StatementResult checked(StatementResult result, TableDef table, List<GroupBatch> batches, Pos pos) {
            if (table.mode() == TableMode.APPEND) {
                Checks.verify(sql, table, checks -> io.verso.compile.CheckCompiler.written(table, checks, commit), pos);
            } else {
                String[][] keys = new String[table.keyColumns().size()][];
                System.arraycopy(batches.get(0).values(), 0, keys, 0, keys.length);
                Checks.verify(sql, table, checks -> io.verso.compile.CheckCompiler.keyed(table, checks, keys), pos);
            }
            return result;
        }

        /**
         * The rows of INSERT/UPSERT ... query: the query runs in this request's transaction (so at this
         * commit's snapshot, AS OF any commit), each value cast to its column's type as an INSERT would,
         * in the query's order, else ordered by the target's key so the write is deterministic.
         */
        private List<RowInput> queriedRows(Statement.InsertRows statement, TableDef table) {
            List<Ident> named = WriteAnalyzer.namedColumns(statement, table);
            BoundSelect bound = ReadAnalyzer.query(statement.query(), this, asOf, params.size());
            if (bound.columns().size() != named.size()) {
                throw VersoException.at(ErrorCode.COLUMN_COUNT_MISMATCH, "the query returns " + bound.columns().size()
                        + " columns for " + named.size() + " columns of " + table.name(), statement.query().pos());
            }
            List<ColumnDef> columns = named.stream().map(n -> table.column(n.name()).orElseThrow()).toList();
            CompiledSql queried = WriteCompiler.queriedRows(bound, table, columns, statement.query().orderBy().isEmpty(),
                    params);
            List<RowInput> rows = new ArrayList<>();
            int r = 0;
            for (String[] texts : sql.texts(queried)) {
                Map<String, Object> values = new LinkedHashMap<>();
                for (int i = 0; i < named.size(); i++) {
                    values.put(named.get(i).name(), texts[i]);
                }
                rows.add(new RowInput(values, Map.of(), "row " + (++r) + " of the query"));
            }
            return rows;
        }

        private void refuseLiveKeys(TableDef table, GroupBatch batch, Pos pos) {
            List<ColumnDef> keys = table.keyColumns();
            String[][] keyValues = new String[keys.size()][];
            System.arraycopy(batch.values(), 0, keyValues, 0, keys.size());
            List<String[]> live = sql.texts(WriteCompiler.liveKeys(table, keys, keyValues));
            if (!live.isEmpty()) {
                throw VersoException.at(ErrorCode.KEY_EXISTS, "INSERT refuses key " + describeKey(keys, live.get(0))
                        + ": it has a current row in " + table.name() + " (use UPSERT to write a new version)", pos);
            }
        }

        private StatementResult write(String kind, TableDef table, int rows, List<GroupBatch> batches) {
            long versions = 0;
            long current = 0;
            boolean[] rowCurrent = new boolean[rows];
            int first = position;
            for (GroupBatch batch : batches) {
                if (table.mode() == TableMode.APPEND) {
                    versions += sql.update(WriteCompiler.append(table, batch.columns(), batch.values(),
                            batch.positions(), commit));
                    current = versions;
                    java.util.Arrays.fill(rowCurrent, true);
                } else {
                    Object[] outcome = sql.query(WriteCompiler.groupWrite(batch, commit), rs -> {
                        rs.next();
                        java.sql.Array won = rs.getArray(2);
                        return new Object[] {rs.getLong(1), won == null ? new Integer[0] : (Integer[]) won.getArray()};
                    });
                    versions += (Long) outcome[0];
                    Integer[] won = (Integer[]) outcome[1];
                    current += won.length;
                    for (Integer p : won) {
                        rowCurrent[p - first] = true;
                    }
                }
            }
            position += rows;
            touch(table.name(), versions);
            List<String[]> keys = new ArrayList<>(rows);
            GroupBatch sample = batches.get(0);
            int keyCount = table.keyColumns().size();
            for (int r = 0; r < rows; r++) {
                String[] key = new String[keyCount];
                for (int k = 0; k < keyCount; k++) {
                    key[k] = sample.values()[k][r];
                }
                keys.add(key);
            }
            return new StatementResult.Written(kind, table.name(), rows, versions, current, versions - current,
                    keys, rowCurrent);
        }

        private StatementResult update(Statement.Update statement) {
            if (table(statement.table()).mode() == TableMode.SYSTEM) {
                return system.update(statement, table(statement.table()), this, commitTime);
            }
            TableDef table = keyedTable(statement.table(), "UPDATE");
            BoundChange.Update update = WriteAnalyzer.update(statement, table, params.size());
            List<ColumnDef> columns = update.columns();
            List<RowInput> rows = new ArrayList<>();
            for (String[] texts : sql.texts(WriteCompiler.updatedRows(update, params))) {
                Map<String, Object> values = new LinkedHashMap<>();
                for (int i = 0; i < columns.size(); i++) {
                    values.put(columns.get(i).name(), texts[i]);
                }
                rows.add(new RowInput(values, Map.of(), "the row of key " + describeKey(table.keyColumns(), texts)));
            }
            if (rows.isEmpty()) {
                return StatementResult.Written.empty("UPDATE", table.name());
            }
            List<GroupBatch> batches = WriteAnalyzer.batches(table, rows, update.groups(), false, position,
                    statement.pos());
            return checked(write("UPDATE", table, rows.size(), batches), table, batches, statement.pos());
        }

        private StatementResult delete(Statement.Delete statement) {
            if (table(statement.table()).mode() == TableMode.SYSTEM) {
                return system.delete(statement, table(statement.table()), this, commitTime);
            }
            TableDef table = keyedTable(statement.table(), "DELETE");
            BoundChange.Delete delete = WriteAnalyzer.delete(statement, table, params);
            List<Map<String, Object>> keys = delete.keys();
            if (keys == null) {
                List<ColumnDef> keyColumns = table.keyColumns();
                keys = new ArrayList<>();
                for (String[] texts : sql.texts(WriteCompiler.deletedKeys(delete, params))) {
                    Map<String, Object> key = new LinkedHashMap<>();
                    for (int i = 0; i < keyColumns.size(); i++) {
                        key.put(keyColumns.get(i).name(), texts[i]);
                    }
                    keys.add(key);
                }
            }
            List<RowInput> rows = WriteAnalyzer.tombstones(delete, keys);
            if (rows.isEmpty()) {
                return StatementResult.Written.empty("DELETE", table.name());
            }
            return write("DELETE", table, rows.size(),
                    WriteAnalyzer.batches(table, rows, table.versionedGroups(), true, position, statement.pos()));
        }

        private TableDef keyedTable(Ident name, String statement) {
            TableDef table = table(name);
            if (table.mode() == TableMode.APPEND) {
                throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, statement + " needs a keyed table; "
                        + table.name() + " is an APPEND table, which keeps every row as written", name.pos());
            }
            return table;
        }

        // ---- DDL -------------------------------------------------------------------------------

        private StatementResult createTable(Statement.CreateTable create) {
            access.requireGlobalAdmin(principal, "CREATE TABLE", create.pos());
            if (catalog.find(create.name().name()).isPresent()) {
                if (create.ifNotExists()) {
                    return new StatementResult.Changed("CREATE TABLE", create.name().name(), false, null);
                }
                throw VersoException.at(ErrorCode.TABLE_EXISTS, "table '" + create.name() + "' already exists",
                        create.name().pos());
            }
            if (views.find(create.name().name()).isPresent()) {
                throw VersoException.at(ErrorCode.TABLE_EXISTS, "a view named '" + create.name() + "' already exists",
                        create.name().pos());
            }
            if (create.systemVersioning() != null) {
                StatementResult created = system.create(create, commit);
                catalogChanged();
                touch(create.name().name(), 0);
                return created;
            }
            TableDef defined = DdlAnalyzer.createTable(create, commit);
            TableDef table = catalog.create(defined.withChecks(io.verso.analyze.CheckConstraints.define(create,
                    defined)));
            DdlCompiler.createTable(table).forEach(sql::update);
            Checks.validate(sql, table);
            catalogChanged();
            touch(table.name(), 0);
            // UNIQUE columns and column sets: unique indexes over current rows, named as PostgreSQL would.
            for (List<Ident> unique : create.unique()) {
                String name = table.name() + "_" + String.join("_", unique.stream().map(Ident::name).toList()) + "_key";
                if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 63) {
                    name = name.substring(0, 40) + "_" + Integer.toHexString(name.hashCode()) + "_key";
                }
                lifecycle.execute(new Statement.CreateIndex(new Ident(name, create.pos()), false, create.name(),
                        unique, IndexScope.CURRENT, true, unique.stream().map(u -> false).toList(),
                        create.pos()), this);
            }
            return new StatementResult.Changed("CREATE TABLE", table.name(), true, null);
        }

        /**
         * A derived table is a new table, so creating one needs what CREATE TABLE needs (ADMIN on ALL TABLES,
         * which also makes the creator its administrator), and reads its sources, so SELECT on each of them,
         * checked as its query is bound: without it a caller could copy rows it may not read into a table it
         * may. Building its history is then the engine's work, as keeping it is.
         */
        private StatementResult createDerived(Statement.CreateDerived create) {
            access.requireGlobalAdmin(principal, "CREATE DERIVED TABLE", create.pos());
            DerivedDef def = deriver.create(create, this);
            derived = null;
            derivedCreated.add(def.name());
            upkeep = true;
            try {
                deriver.build(def, this);
            } finally {
                upkeep = false;
            }
            return new StatementResult.Changed("CREATE DERIVED TABLE", def.name(), true, null);
        }

        private StatementResult createView(Statement.CreateView create) {
            String name = create.name().name();
            if (catalog.find(name).isPresent() || views.find(name).isPresent()) {
                if (create.ifNotExists()) {
                    return new StatementResult.Changed("CREATE VIEW", name, false, null);
                }
                throw VersoException.at(ErrorCode.VIEW_EXISTS, "a table or view named '" + name + "' already exists",
                        create.name().pos());
            }
            if (SqlParser.parse(create.text()).parameterCount() > 0) {
                throw VersoException.at(ErrorCode.INVALID_DEFINITION, "a view's query cannot hold ? parameters",
                        create.query().pos());
            }
            // Analysed now so a view that cannot be read is refused; read again at every use.
            List<String> columns = ReadAnalyzer.query(create.query(), this, asOf, 0).columns();
            if (create.columns().size() > columns.size()) {
                throw VersoException.at(ErrorCode.COLUMN_COUNT_MISMATCH, "view " + name + " names "
                        + create.columns().size() + " columns but its query returns " + columns.size(), create.pos());
            }
            List<String> names = new ArrayList<>(create.columns().isEmpty() ? List.of()
                    : create.columns().stream().map(Ident::name).toList());
            if (!names.isEmpty()) {
                names.addAll(columns.subList(names.size(), columns.size()));
            }
            if (new HashSet<>(names.isEmpty() ? columns : names).size() != columns.size()) {
                throw VersoException.at(ErrorCode.DUPLICATE_NAME, "view " + name + " would have two columns of the "
                        + "same name: give them aliases", create.query().pos());
            }
            views.create(new ViewDef(name, names, create.text()), commit);
            touch(name, 0);
            return new StatementResult.Changed("CREATE VIEW", name, true, null);
        }

        private StatementResult dropView(Statement.DropView drop) {
            String name = drop.name().name();
            if (!views.delete(name)) {
                if (drop.ifExists()) {
                    return new StatementResult.Changed("DROP VIEW", name, false, null);
                }
                throw VersoException.at(ErrorCode.UNKNOWN_TABLE, "unknown view '" + name + "'", drop.name().pos());
            }
            touch(name, 0);
            return new StatementResult.Changed("DROP VIEW", name, true, null);
        }

        private StatementResult dropTable(Statement.DropTable drop) {
            var found = catalog.find(drop.name().name()).filter(t -> access.visible(principal, t));
            if (found.isEmpty()) {
                if (drop.ifExists()) {
                    return new StatementResult.Changed("DROP TABLE", drop.name().name(), false, null);
                }
                throw VersoException.at(ErrorCode.UNKNOWN_TABLE, "unknown table '" + drop.name() + "'",
                        drop.name().pos());
            }
            authorize(found.get(), drop.name());
            sql.update(DdlCompiler.dropTable(found.get()));
            catalog.delete(found.get());
            catalogChanged();
            touch(found.get().name(), 0);
            return new StatementResult.Changed("DROP TABLE", found.get().name(), true, null);
        }
    }

    /**
     * A writer's step that waits for other writers (begin_commit's commit and table locks, the end of every
     * writer of a lower sequence before it commits), bounded by the statement timeout like any statement:
     * cancelled by it, the request is told what it waited for rather than that it ran too long. Its
     * transaction is rolled back on the way out.
     */
    private static <T> T waitingForWriters(java.util.function.Supplier<T> step) {
        try {
            return step.get();
        } catch (DataAccessException e) {
            if (PgErrors.timedOut(e)) {
                throw VersoException.user(ErrorCode.STATEMENT_TIMEOUT, "the write waited longer than the statement "
                        + "timeout (verso.statement-timeout) for other writers to finish (a writer of the same table, "
                        + "a request that writes alone such as DDL or UPDATE ... WHERE, or an earlier commit); "
                        + "nothing was written: retry it");
            }
            throw e;
        }
    }

    /**
     * The tables the request writes when every statement names its one table up front (INSERT/UPSERT
     * VALUES, DELETE by keys): such a writer locks just those tables and shares the commit lock with
     * writers of other tables. Null for anything else (a query, UPDATE/DELETE WHERE, DDL, ERASE, ...),
     * which may read or change any table and so holds the commit lock alone.
     */
    private static List<String> namedTables(List<Statement> statements) {
        List<String> named = new ArrayList<>();
        for (Statement statement : statements) {
            if (statement instanceof Statement.InsertRows i && i.query() == null) {
                named.add(i.table().name());
            } else if (statement instanceof Statement.DeleteKeys d) {
                named.add(d.table().name());
            } else {
                return null;
            }
        }
        return named;
    }

    /** A read that {@code runOnce} cannot bind without a lookup of its own: it runs the ordinary way. */
    private static final class NotOnce extends RuntimeException {
        static final NotOnce INSTANCE = new NotOnce();

        private NotOnce() {
            super(null, null, false, false);
        }
    }

    /**
     * A relation read up to a fixed commit (AS OF, FOR SYSTEM_TIME AS OF / FROM / BETWEEN, history or
     * changes AS OF), not current rows nor everything so far (FOR SYSTEM_TIME ALL, plain history).
     */
    private static boolean atFixedCommit(BoundRelation relation) {
        return relation.kind() != RelationKind.CURRENT && relation.asOf() != null;
    }

    static String describeKey(List<ColumnDef> keys, String[] values) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            parts.add(keys.get(i).name() + "=" + values[i]);
        }
        return "(" + String.join(", ", parts) + ")";
    }
}
