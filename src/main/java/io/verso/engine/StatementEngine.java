package io.verso.engine;

import io.verso.analyze.AsOfResolver;
import io.verso.analyze.BoundRelation;
import io.verso.analyze.BoundSelect;
import io.verso.analyze.RelationKind;
import io.verso.analyze.SystemRelation;
import io.verso.analyze.SystemSchemas;
import io.verso.analyze.TableLookup;
import io.verso.analyze.Values;
import io.verso.analyze.Weight;
import io.verso.catalog.Catalog;
import io.verso.catalog.TableDef;
import io.verso.catalog.ViewDef;
import io.verso.catalog.Views;
import io.verso.compile.CompiledSql;
import io.verso.compile.ParamSlots;
import io.verso.compile.SelectCompiler;
import io.verso.compile.SqlBuilder;
import io.verso.config.VersoProperties;
import io.verso.derive.DeriveContext;
import io.verso.derive.DerivedDef;
import io.verso.derive.Deriver;
import io.verso.compile.ExplainCompiler;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.plan.Plan;
import io.verso.plan.PlanPrinter;
import io.verso.plan.Planner;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Query;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs a request: parse, then in one PostgreSQL transaction analyse, compile and execute each
 * statement, and, if anything was written, record one commit ({@link CommitProtocol}: how writers and
 * readers begin and how a commit is made visible).
 */
@Service
public class StatementEngine {

    /** The PostgreSQL notification channel every write commit notifies, its commit sequence as payload. */
    public static final String COMMIT_CHANNEL = CommitProtocol.COMMIT_CHANNEL;

    private final Catalog catalog;
    private final SqlRunner sql;
    private final VersoProperties properties;
    private final TransactionTemplate transaction;
    private final ResourceLimits limits;
    private final EngineObserver observer;
    private final Views views;
    private final AccessControl access;
    private final ReadRouter router;
    private final SystemVersioning system;
    private final Executor.Parts parts;
    private final AppendChanges appendChanges;
    private final Deriver deriver;
    private final CommitProtocol commits;
    private final KeptReads keptReads;
    private final List<CommitListener> listeners;
    /**
     * The latest commit a request of this instance made, or read on the primary, or that the primary's commit log
     * showed: visible, as is every one before it, to every snapshot the primary gives from now on.
     */
    private final AtomicLong visible = new AtomicLong();

    public StatementEngine(Catalog catalog, Views views, SqlRunner sql,
                           VersoProperties properties, PlatformTransactionManager transactions,
                           EngineObserver observer, AccessControl access, ObjectProvider<ReadRouter> router,
                           Deriver deriver, ObjectProvider<CommitListener> listeners) {
        this.catalog = catalog;
        this.deriver = deriver;
        this.views = views;
        this.system = new SystemVersioning(catalog, sql);
        Lifecycle lifecycle = new Lifecycle(catalog, views, sql);
        this.parts = new Executor.Parts(catalog, new DdlStatements(catalog, views, access, sql, system, lifecycle,
                deriver), lifecycle, system, new AccessStatements(access, catalog));
        this.appendChanges = new AppendChanges(sql);
        this.sql = sql;
        this.properties = properties;
        this.limits = new ResourceLimits(properties);
        this.commits = new CommitProtocol(sql, limits);
        // Isolation is set by the first statement of each transaction (see Request.run), not through
        // the connection, which would cost a round trip to set and another to reset per request.
        this.transaction = new TransactionTemplate(transactions);
        this.observer = observer;
        this.access = access;
        this.keptReads = new KeptReads(access);
        this.router = router.getIfAvailable(() -> ReadRouter.PRIMARY_ONLY);
        this.listeners = listeners.orderedStream().toList();
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
     * Whether commit {@code commit} is known to be visible, without asking the database: a request of this
     * instance has read or made it (or a later one). Commits become visible in sequence order, so once a
     * snapshot held a commit every later snapshot holds it and every commit before it.
     */
    public boolean knownVisible(long commit) {
        return visible.get() >= commit;
    }

    /** Commit {@code commit} was read from the primary's commit log: it is visible, and every one before it. */
    public void visibleOnPrimary(long commit) {
        visible.accumulateAndGet(commit, Math::max);
    }

    /**
     * The commit a read of current rows on the primary may report instead of looking the latest up (with the last
     * change of what it reads, if later): the latest this instance knows visible, read before the read's snapshot
     * is taken. 0, so the read looks the latest up, when no commit is known yet or its caller has seen a later one
     * ({@code seen}: Verso-Min-Commit, atLeastCommit; -1 for none), whose answer must not report less.
     */
    private long knownFor(long seen) {
        long known = visible.get();
        return seen <= known ? known : 0;
    }

    /**
     * The state a one-key read of current rows would be answered at, without reading its rows: the commit it would
     * report ({@link #knownFor}), the catalog version and its keys' last change ({@link ExecutionResult#lastChanged}),
     * from the plan an earlier read of the same shape kept for this caller ({@link KeptReads}, which checks the
     * caller's grants). On the primary, in a snapshot of its own. Null when no such plan is kept, the caller has seen
     * ({@code seen}: Verso-Min-Commit, atLeastCommit; -1 for none) a later commit than this instance knows, or the
     * catalog moved: the read itself then answers.
     */
    public KeyState keyState(Statement.Select select, List<Object> params, long seen) {
        Catalog.Snapshot assumed = catalog.latestSnapshot();
        long known = knownFor(seen);
        KeptReads.Read read = assumed == null || known == 0 ? null
                : keptReads.find(select, params, assumed.version(), Caller.current());
        if (read == null || read.state() == null) {
            return null;
        }
        try {
            KeyState state = sql.query(ParamSlots.fill(read.state(), params), rs -> {
                rs.next();
                return new KeyState(Math.max(known, rs.getLong(3)), rs.getLong(2), rs.getLong(3));
            });
            return state.catalogVersion() == assumed.version() ? state : null;
        } catch (DataAccessException e) {
            throw PgErrors.translate(e);
        }
    }

    /** See {@link #keyState}. */
    public record KeyState(long readCommit, long catalogVersion, long lastChanged) {
    }

    /**
     * Whether the statements are light for admission ({@link Weight}: one-key reads, small writes, look-ups),
     * judged on the table definitions this instance already holds: no database round trip.
     */
    public boolean light(SqlParser.Script script) {
        Catalog.Snapshot snapshot = catalog.latestSnapshot();
        return snapshot != null && Weight.light(script.statements(), keys(snapshot));
    }

    /** The key columns of the tables {@code snapshot} holds in memory, for {@link Weight}. */
    private static Weight.Keys keys(Catalog.Snapshot snapshot) {
        return name -> {
            Optional<TableDef> table = snapshot.cached(name);
            return table == null ? Optional.empty() : table.map(TableDef::keyColumns);
        };
    }

    /** Statements a surface built, whose parameters are exactly {@code params}. */
    public ExecutionResult execute(List<Statement> statements, List<Object> params, String actor) {
        return execute(new SqlParser.Script(statements, params.size()), params, actor);
    }

    /**
     * Numbers among the parameters are bound as NUMERIC wherever they stand: one beyond NUMERIC's range
     * ({@code 1e999999999}) is refused here, before any statement or the driver would write it out in digits.
     */
    private static void checkNumbers(List<Object> params) {
        for (int i = 0; i < params.size(); i++) {
            if (params.get(i) instanceof java.math.BigDecimal number) {
                try {
                    Values.bounded(number);
                } catch (IllegalArgumentException e) {
                    throw VersoException.pointing(ErrorCode.INVALID_VALUE, "parameter " + (i + 1) + " (" + number
                            + ") is out of range for NUMERIC, which holds at most 131072 digits before the point and "
                            + "16383 after it", "/params/" + i);
                }
            }
        }
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
        checkNumbers(params);
        boolean writes = script.statements().stream().anyMatch(Statement::writes);
        try {
            VersoPrincipal principal = Caller.current();
            // Every commit names a principal: the caller's, else (security off) the actor header's, else the service's.
            String recorded = principal.name() != null ? principal.name()
                    : actor != null && !actor.isBlank() ? actor : VersoPrincipal.SYSTEM_NAME;
            if (!writes) {
                Statement only = script.statements().size() == 1 ? script.statements().get(0) : null;
                return router.read(attempt -> {
                    ReadRouter.ReadTarget target = attempt.primary() ? (latest, version) -> {
                        attempt.snapshot(latest, version);
                        visibleOnPrimary(latest);
                    } : attempt;
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
                visibleOnPrimary(result.commit());
                router.committed(result.commit(), request.catalogChanged);
                for (CommitListener listener : listeners) {
                    listener.committed(result.commit(), request.catalogChanged);
                }
            }
            return result;
        } catch (VersoException e) {
            throw e;
        } catch (DataAccessException | TransactionException e) {
            throw PgErrors.translate(e);
        }
    }

    /** The state of one request: its commit, the positions it handed out, the tables it touched. */
    private final class Request implements Executor.Steps, TableLookup, DeriveContext {
        private final List<Object> params;
        private final boolean writes;
        private final String actor;
        private final VersoPrincipal principal;
        /**
         * What the running statement needs on its target, the one table it writes, alters or drops
         * ({@link #privileges}); every relation it reads is looked up through {@link #reads} and needs SELECT.
         */
        private Set<Privilege> needed = Set.of(Privilege.SELECT);
        /** The planner's view of the catalog: each lookup checked for the privileges the plan asks. */
        private final Planner.Tables planned = new Planner.Tables() {
            @Override
            public TableDef table(Ident name, Set<Privilege> privileges) {
                return lookup(name, privileges);
            }

            @Override
            public Optional<ViewDef> view(String name) {
                return Request.this.view(name);
            }

            @Override
            public Optional<SystemRelation> system(Ident schema, Ident name) {
                return Request.this.system(schema, name);
            }
        };
        /** The analyzers' view of the catalog: whatever the statement does to its target, what it reads needs SELECT. */
        private final TableLookup reads = new TableLookup() {
            @Override
            public TableDef table(Ident name) {
                return lookup(name, Set.of(Privilege.SELECT));
            }

            @Override
            public Optional<ViewDef> view(String name) {
                return Request.this.view(name);
            }

            @Override
            public Optional<SystemRelation> system(Ident schema, Ident name) {
                return Request.this.system(schema, name);
            }
        };
        private final ReadRouter.ReadTarget target;
        private final CommitTimes times;
        private final RowWrites rowWrites;
        private final Executor executor;
        private final Map<String, TableDef> tables = new HashMap<>();
        private final Map<String, Long> touched = new LinkedHashMap<>();
        private long commit;
        private Instant commitTime;
        /** The writer's state once begun (writes only). */
        private CommitProtocol.Writer writer;
        private AsOfResolver asOf;
        private Catalog.Snapshot catalogSnapshot;
        private boolean catalogChanged;
        /** START TRANSACTION seen (a savepoint to ROLLBACK to) and what was touched then; see transactionControl. */
        private Map<String, Long> touchedAtStart;
        /** The START TRANSACTION / BEGIN of the frame still open, null when none is. */
        private Statement.TransactionControl openFrame;
        private boolean rolledBack;
        /** Derived table definitions, read once per writing request (null until needed). */
        private List<DerivedDef> derived;
        /** The catalog version a writer saw under the commit lock, and whether it has run DDL since. */
        private long writerCatalogVersion = -1;
        /** The catalog version a read-only request's snapshot holds. */
        private Long readVersion;
        private boolean ranDdl;
        private final Set<String> erased = new HashSet<>();
        private final Set<String> derivedCreated = new HashSet<>();
        private boolean readPast;
        /** Derived tables are being brought up to date: lookups are the engine's, not the caller's. */
        private boolean upkeep;
        /** Bound before its snapshot is known (runOnce): no lookup may leave the request's round trip. */
        private boolean once;
        /** The result rows and characters left to the request's statements together. */
        private final ResultBudget budget = new ResultBudget(properties.maxResultRows(), properties.maxResultChars());
        /** The ordinal of the running statement; the statements' count while derived tables follow. */
        private int step;
        /** Per table, the first and last step that changed it; see {@link #stateRead}. */
        private final Map<String, int[]> changedAt = new HashMap<>();
        /** The first and last step that changed the catalog (or rolled back), which may change any read. */
        private final int[] catalogChangedAt = {-1, -1};
        /** Steps of a writing request whose SELECT read current rows, with the tables those were of. */
        private final Map<Integer, Set<String>> currentReads = new LinkedHashMap<>();

        Request(List<Object> params, boolean writes, VersoPrincipal principal, String actor,
                ReadRouter.ReadTarget target) {
            this.params = params;
            this.writes = writes;
            this.principal = principal;
            this.actor = actor;
            this.target = target;
            this.times = new CommitTimes(sql, params);
            this.rowWrites = new RowWrites(sql, system, appendChanges, this);
            this.executor = new Executor(parts, this, rowWrites);
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

        @Override
        public VersoPrincipal principal() {
            return principal;
        }

        @Override
        public Planner.Tables planned() {
            return planned;
        }

        @Override
        public Instant commitTime() {
            return commitTime;
        }

        /**
         * A derived table applies to itself the rows an APPEND source gains at each commit (derive/Appending,
         * Footprint, Locality): an APPEND table derived tables read takes no UPDATE or DELETE, which end rows.
         */
        @Override
        public void refuseEndingRows(Ident table, String statement) {
            deriver.refuseDependency(derived(), table, statement + " of the APPEND table", this::visible);
        }

        ExecutionResult run(List<Statement> statements, org.springframework.transaction.TransactionStatus status) {
            long latest;
            if (writes) {
                writer = commits.beginWrite(statements);
                commit = writer.commit();
                commitTime = writer.time();
                latest = writer.latest();
                writerCatalogVersion = writer.catalogVersion();
                sql.preparedUnder(writerCatalogVersion);
                catalogSnapshot = catalog.snapshot(writerCatalogVersion);
                if (!writer.anyDerived()) {
                    derived = List.of();
                }
            } else {
                CommitProtocol.Snapshot snapshot = commits.beginRead();
                latest = snapshot.latest();
                readVersion = snapshot.catalogVersion();
                target.snapshot(latest, snapshot.catalogVersion());
                sql.preparedUnder(snapshot.catalogVersion());
                catalogSnapshot = catalog.snapshot(snapshot.catalogVersion());
            }
            asOf = new AsOfResolver(params, latest, times).withInstants(times);
            List<StatementResult> results = new ArrayList<>();
            boolean changedAnything = false;
            for (step = 0; step < statements.size(); step++) {
                Statement statement = statements.get(step);
                needed = Planner.targetPrivileges(statement);
                int run = writes ? rowWrites.keyUpdateRun(statements, step) : 1;
                if (run > 1) {
                    List<Statement.Update> updates = new ArrayList<>(run);
                    for (Statement s : statements.subList(step, step + run)) {
                        guardDerived(s);
                        updates.add((Statement.Update) s);
                    }
                    List<StatementResult> written = rowWrites.keyUpdates(updates);
                    results.addAll(written);
                    changedAnything |= written.stream().anyMatch(StatementEngine::changes);
                    step += run - 1;
                    continue;
                }
                StatementResult result = execute(statement);
                results.add(result);
                changedAnything |= !(statement instanceof Statement.TransactionControl) && changes(result);
            }
            if (openFrame != null) {
                // A MariaDB session that ends inside its transaction keeps nothing of it. Committing the frame
                // would keep what the caller never committed; rolling back only the frame would answer 200 for
                // writes that were dropped. The request is refused, and its transaction rolled back whole.
                throw VersoException.at(ErrorCode.TRANSACTION_NOT_ENDED, "the request ends inside the transaction "
                        + "this START TRANSACTION (or BEGIN) opened: end it with COMMIT to keep its writes or "
                        + "ROLLBACK to drop them; nothing of the request was written", openFrame.pos());
            }
            if (writes && touched.isEmpty() && (rolledBack || !changedAnything)) {
                // Everything this request wrote was rolled back, or it changed nothing (DROP ... IF EXISTS of
                // what is not there, or not there for this caller): it makes no commit (its sequence is a gap).
                status.setRollbackOnly();
                return new ExecutionResult(null, latest, settle(results, null, latest));
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
                commits.finishWrite(writer, touched, actor, status.isNewTransaction());
            }
            return new ExecutionResult(writes ? commit : null, writes ? commit : latest,
                    writes ? settle(results, commit, latest) : results, readPast, writes ? null : readVersion, null);
        }

        /**
         * A writing request's SELECTs of current rows, given the commit whose state they read: this
         * request's own when nothing after the SELECT changed its tables (derived tables follow their
         * sources after the last statement), else the commit before this request when nothing before it
         * did, else none (the rows were a state inside this request that no commit holds).
         */
        private List<StatementResult> settle(List<StatementResult> results, Long made, long before) {
            currentReads.forEach((at, read) -> {
                StatementResult.Rows rows = (StatementResult.Rows) results.get(at);
                results.set(at, new StatementResult.Rows(rows.statement(), rows.columns(), rows.rows(),
                        stateRead(at, read, made, before), rows.pinned(), rows.fixed()));
            });
            return results;
        }

        private Long stateRead(int at, Set<String> read, Long made, long before) {
            boolean changedBefore = catalogChangedAt[0] >= 0 && catalogChangedAt[0] < at;
            boolean changedAfter = catalogChangedAt[1] > at;
            for (String table : read) {
                int[] steps = changedAt.get(table);
                if (steps != null) {
                    changedBefore |= steps[0] < at;
                    changedAfter |= steps[1] > at;
                }
            }
            if (made != null && !changedAfter) {
                return made;
            }
            return changedBefore ? null : commitOrNone(before);
        }

        /**
         * A single SELECT in one database round trip ({@link SqlRunner#readOnce}): bound against the
         * newest catalog version this instance has seen, then run together with the lookup of its
         * snapshot's latest commit and catalog version. The router is told that state before the rows are
         * read, and may abandon the attempt as before. Null (run the request the ordinary way, which also
         * gives every error its usual form) when the statement needs a lookup while it is bound (a
         * definition not cached, a view, AS OF a time), when it fails to bind, or when the snapshot holds
         * another catalog version or not a commit it reads AS OF.
         * <p>
         * A one-key read of current rows on the primary does not look the latest commit up (item 1 of issue 26:
         * a tenth of what the read costs PostgreSQL). It reports the later of the latest commit this instance
         * knew visible before the statement ran and the last commit that wrote what it read: every commit up to
         * the first is in the statement's snapshot (commits become visible in sequence order), none after the
         * second changed what it read, so its rows are the read's rows AS OF that commit. Unless the caller has
         * seen a later commit (Verso-Min-Commit), which the answer then reports as a full lookup finds it.
         */
        ExecutionResult runOnce(Statement.Select select) {
            Catalog.Snapshot assumed = catalog.latestSnapshot();
            if (assumed == null) {
                return null;
            }
            KeptReads.Read read = keptReads.find(select, params, assumed.version(), principal);
            if (read == null) {
                read = planOnce(select, assumed);
                if (read == null) {
                    return null;
                }
            }
            BoundSelect bound = read.bound();
            long known = read.current() != null && target.primary() ? knownFor(ClientCommit.minCommit()) : 0;
            boolean current = known > 0;
            long[] state = new long[3];
            SqlRunner.RowMapper<Boolean> accept = rs -> {
                state[0] = current ? Math.max(known, rs.getLong(3)) : rs.getLong(1);
                state[1] = rs.getLong(2);
                target.snapshot(state[0], state[1]);
                return state[1] == assumed.version() && bound.relations().stream()
                        .allMatch(r -> r.asOf() == null || r.asOf() <= state[0]);
            };
            CompiledSql statement = ParamSlots.fill(current ? read.current() : read.statement(), params);
            ResultReader.Table table;
            if (read.alone()) {
                table = sql.readAlone(assumed.version(), limits.sessionSettings(), statement, limits.timeoutMillis(),
                        budget.rowsLeft(), rs -> {
                            state[2] = rs.getLong(3);
                            return accept.map(rs);
                        }, rs -> ResultReader.readFrom(rs, budget, CommitProtocol.READ_ALONE_STATE + 1));
            } else {
                table = sql.readOnce(assumed.version(), commits.readState(), statement, budget.rowsLeft(), rs -> {
                    rs.next();
                    return accept.map(rs);
                }, rs -> ResultReader.read(rs, budget));
            }
            if (table == null) {
                return null;
            }
            asOf = new AsOfResolver(params, state[0]);
            boolean pinned = bound.relations().stream().anyMatch(StatementEngine::atFixedCommit);
            boolean fixed = bound.relations().stream().allMatch(StatementEngine::atFixedCommit);
            Long lastChanged = read.current() != null ? state[2] : null;
            return new ExecutionResult(null, state[0], List.of(new StatementResult.Rows("SELECT", table.columns(),
                    table.rows(), readAt(bound), pinned, fixed)), pinned, state[1], lastChanged);
        }

        /**
         * Plans {@link #runOnce}'s read in the catalog snapshot {@code assumed}, or null when it cannot be one
         * statement (a time to resolve, a view, a table not in memory, a refusal: the batch will say), and keeps the
         * plan of a one-key read of current rows ({@link KeptReads}).
         */
        private KeptReads.Read planOnce(Statement.Select select, Catalog.Snapshot assumed) {
            catalogSnapshot = assumed;
            once = true;
            // The parameters as slots: a plan that looks at none of their values may be kept for other values.
            ParamSlots slots = new ParamSlots(params);
            asOf = new AsOfResolver(slots, Long.MAX_VALUE, (value, latestCommit) -> {
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
            AccessControl.Grants grants = keptReads.grantsBefore(principal);
            Plan.Read plan;
            try {
                plan = Planner.read(select, planned, asOf, slots);
            } catch (NotOnce | VersoException | StackOverflowError e) {
                return null;
            }
            BoundSelect bound = plan.bound();
            // A one-key read (light, so no sort or hash to bound) in order of no ORDER BY is one statement with
            // its state; anything else is the batch of BEGIN, state, query and COMMIT, still one round trip.
            boolean alone = select.query().orderBy().isEmpty() && Weight.light(List.of(select), keys(assumed));
            CompiledSql statement = plan.query();
            boolean current = bound.relations().stream()
                    .allMatch(r -> r.kind() == RelationKind.CURRENT && r.asOf() == null);
            CompiledSql currentRows = null;
            CompiledSql state = null;
            if (alone) {
                // What a read of current rows reports besides its rows: when its keys last changed, else when its
                // table was last written (no key named, or a table of whole rows).
                CompiledSql lastChanged = null;
                if (current) {
                    lastChanged = SelectCompiler.keysLastChanged(bound, slots);
                    if (lastChanged != null) {
                        state = commits.stateAlone(lastChanged);
                    } else {
                        lastChanged = CommitProtocol.lastWriteOfAny(bound.relations().stream()
                                .map(r -> r.table().name()).distinct().toList());
                    }
                    currentRows = commits.readAlone(lastChanged, statement, false);
                }
                statement = commits.readAlone(lastChanged, statement, true);
            }
            KeptReads.Read read = new KeptReads.Read(bound, statement, alone, currentRows, state);
            if (alone && bound.relations().stream()
                    .allMatch(r -> r.kind() == RelationKind.CURRENT || r.kind() == RelationKind.AS_OF)) {
                keptReads.keep(select, params, assumed.version(), principal, grants, read, slots.looked());
            }
            return read;
        }

        /** The statement's target (or, for reads and DESCRIBE, the table it names), with what the statement needs. */
        @Override
        public TableDef table(Ident name) {
            return lookup(name, needed);
        }

        @Override
        public TableLookup reads() {
            return reads;
        }

        private TableDef lookup(Ident name, Set<Privilege> privileges) {
            if (once && !tables.containsKey(name.name()) && catalogSnapshot.cached(name.name()) == null) {
                throw NotOnce.INSTANCE; // a lookup in another snapshot than the read's
            }
            TableDef table = tables.computeIfAbsent(name.name(), n -> (catalogSnapshot != null
                    ? catalogSnapshot.find(n) : catalog.find(n)).orElse(null));
            if (table == null) {
                tables.remove(name.name());
                throw Refusals.unknownTable(name.name(), name.pos());
            }
            if (!upkeep) {
                for (Privilege privilege : privileges) {
                    access.check(principal, table, privilege, name.name(), name.pos());
                }
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

        /**
         * A relation of a system schema, its rows from what this caller may see: the tables SHOW TABLES lists, and
         * the views it may read, each read for no rows to learn its columns (one it may not read, or that reads a
         * table dropped since, is not listed). A view listed while views are being listed sees none of them, so a
         * view over information_schema does not list itself forever.
         */
        @Override
        public Optional<SystemRelation> system(Ident schema, Ident name) {
            if (once) {
                throw NotOnce.INSTANCE;
            }
            return SystemSchemas.relation(schema.name(), name.name(), new SystemSchemas.Visible() {
                @Override
                public String database() {
                    return SystemSchemas.OWNER;
                }

                @Override
                public List<TableDef> tables() {
                    return catalog.all().stream().filter(Request.this::visible)
                            .sorted(java.util.Comparator.comparing(TableDef::name)).toList();
                }

                @Override
                public List<SystemSchemas.View> views() {
                    if (listingViews) {
                        return List.of();
                    }
                    if (readableViews == null) {
                        readableViews = readableViews();
                    }
                    return readableViews;
                }
            });
        }

        private boolean listingViews;
        /**
         * The views the running statement's system relations list, read once for all of them (each costs a read
         * for no rows); forgotten at each statement, as view DDL before it may have changed them.
         */
        private List<SystemSchemas.View> readableViews;

        private List<SystemSchemas.View> readableViews() {
            listingViews = true;
            try {
                List<SystemSchemas.View> readable = new ArrayList<>();
                for (String name : views.names().stream().sorted().toList()) {
                    ViewDef view = views.find(name).orElse(null);
                    if (view == null) {
                        continue;
                    }
                    Pos pos = Pos.pointer("");
                    Query.Block all = new Query.Block(false, List.of(new Query.SelectItem.All(pos)), List.of(
                            new Query.TableRef(new Ident(name, pos), false, null, null, List.of(), pos)), null,
                            List.of(), null, List.of(), pos);
                    Statement.Select none = new Statement.Select(new Query(List.of(), all, List.of(), null,
                            new Expr.Literal(Expr.LiteralKind.INTEGER, "0", pos), null, pos), pos);
                    try {
                        CompiledSql compiled = Planner.read(none, planned, asOf, params).query();
                        List<SystemRelation.Column> columns = sql.query(compiled, rs -> ResultReader.read(rs, budget))
                                .columns().stream().map(c -> new SystemRelation.Column(c.name(),
                                        CatalogListings.columnType(c.type()))).toList();
                        readable.add(new SystemSchemas.View(name, view.query(), columns));
                    } catch (VersoException.UserError e) {
                        ErrorCode.Category category = e.code().category();
                        if (category != ErrorCode.Category.FORBIDDEN && category != ErrorCode.Category.NOT_FOUND
                                && category != ErrorCode.Category.BAD_INPUT) {
                            throw e;
                        }
                    }
                }
                return readable;
            } finally {
                listingViews = false;
            }
        }

        @Override
        public void authorize(TableDef table, Ident asked) {
            for (Privilege privilege : needed) {
                access.check(principal, table, privilege, asked.name(), asked.pos());
            }
        }

        @Override
        public boolean visible(TableDef table) {
            return access.visible(principal, table);
        }

        @Override
        public AsOfResolver.Instants instants() {
            return times;
        }

        @Override
        public void catalogChanged() {
            catalogChanged = true;
            sql.schemaChanged();
            changed(catalogChangedAt);
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

        /**
         * Users write sources; derived tables are written by the engine only, and outlive no source. Judged only
         * for a caller who may do the statement to its target: anyone else gets the statement's own answer (an
         * unknown table, a missing privilege), and a refusal names only derived tables the caller may see.
         */
        private void guardDerived(Statement statement) {
            Ident target = statement.target();
            if (target == null) {
                return;
            }
            TableDef table = (catalogSnapshot != null ? catalogSnapshot.find(target.name())
                    : catalog.find(target.name())).orElse(null);
            if (table == null || !needed.stream().allMatch(p -> access.holds(principal, table, p))) {
                return;
            }
            if (statement.writeVerb() != null) {
                deriver.refuseWrite(derived(), target, statement.writeVerb());
            }
            if (statement.dependencyVerb() != null) {
                deriver.refuseDependency(derived(), target, statement.dependencyVerb(),
                        t -> access.visible(principal, t));
            }
        }

        @Override
        public void touch(String table, long rows) {
            touched.merge(table, rows, Long::sum);
            changed(changedAt.computeIfAbsent(table, t -> new int[] {-1, -1}));
        }

        private void changed(int[] firstAndLast) {
            if (firstAndLast[0] < 0) {
                firstAndLast[0] = step;
            }
            firstAndLast[1] = step;
        }

        /**
         * One statement: what it needs of its target, then, in a writing request, the rules about derived tables
         * every write and definition keeps, then the statement itself ({@link Executor}).
         */
        private StatementResult execute(Statement statement) {
            needed = Planner.targetPrivileges(statement);
            readableViews = null;
            if (writes && statement.writes()) {
                guardDerived(statement);
                if (!(statement instanceof Statement.RowWrite || statement instanceof Statement.Access)) {
                    // A definition: derived tables are read afresh from this transaction's catalog from here on.
                    ranDdl = true;
                    derived = null;
                }
            }
            return statement.accept(executor);
        }

        @Override
        public void erasing(Ident table) {
            erased.add(table.name());
        }

        @Override
        public StatementResult showDerived() {
            return CatalogListings.showDerived(deriver.show(asOf.latestCommit(), this::visible));
        }

        /**
         * MariaDB's framing inside one request: START TRANSACTION / BEGIN sets a savepoint, ROLLBACK
         * returns to it (undoing rows, history and catalog changes since), COMMIT ends the frame. The
         * request stays one PostgreSQL transaction and makes at most one commit.
         */
        @Override
        public StatementResult transactionControl(Statement.TransactionControl control) {
            switch (control.action()) {
                case START -> {
                    sql.update(new SqlBuilder().sql("SAVEPOINT verso_frame").build());
                    touchedAtStart = new LinkedHashMap<>(touched);
                    openFrame = control;
                }
                case COMMIT -> {
                    touchedAtStart = null;
                    openFrame = null;
                }
                case ROLLBACK -> {
                    if (touchedAtStart == null) {
                        throw VersoException.at(ErrorCode.INVALID_REQUEST, "ROLLBACK without START TRANSACTION "
                                + "(or BEGIN) earlier in the request: each request is one transaction", control.pos());
                    }
                    sql.update(new SqlBuilder().sql("ROLLBACK TO SAVEPOINT verso_frame").build());
                    touched.clear();
                    touched.putAll(touchedAtStart);
                    touchedAtStart = null;
                    openFrame = null;
                    rolledBack = true;
                    catalogChanged();
                }
            }
            return new StatementResult.Changed(control.action() == Statement.TransactionAction.START
                    ? "START TRANSACTION" : control.action().name(), null, true, null);
        }

        // ---- reads -----------------------------------------------------------------------------

        /**
         * EXPLAIN: the plan of the statement, which does not run, printed as the golden plan files are; with
         * ANALYZE, each of its reads run under PostgreSQL's EXPLAIN ANALYZE (reads only: the request is read-only).
         */
        @Override
        public StatementResult explain(Statement.Explain explain) {
            Plan plan = Planner.plan(explain.statement(), planned, asOf, params);
            List<List<Object>> rows = new ArrayList<>();
            PlanPrinter.print(plan).forEach(line -> rows.add(List.of(line)));
            if (explain.analyze()) {
                List<CompiledSql> queries = plan.queries();
                for (int i = 0; i < queries.size(); i++) {
                    rows.add(List.of("PostgreSQL's plan of the read" + (queries.size() > 1 ? " " + (i + 1) : "")
                            + ", run:"));
                    sql.texts(ExplainCompiler.analyze(queries.get(i))).forEach(line -> rows.add(List.of("  " + line[0])));
                }
            }
            return new StatementResult.Rows("EXPLAIN", List.of(new StatementResult.Column("plan", "TEXT")), rows, null);
        }

        @Override
        public StatementResult select(Statement.Select select) {
            BoundSelect bound;
            CompiledSql compiled;
            try {
                Plan.Read plan = Planner.read(select, planned, asOf, params);
                bound = plan.bound();
                compiled = plan.query();
            } catch (StackOverflowError e) {
                throw Refusals.statementNestsTooDeeply();
            }
            ResultReader.Table table = sql.query(compiled, rs -> ResultReader.read(rs, budget));
            boolean pinned = bound.relations().stream().anyMatch(StatementEngine::atFixedCommit);
            boolean fixed = bound.relations().stream().allMatch(StatementEngine::atFixedCommit) && !asOf.openByTime()
                    && !bound.readsSystem();
            readPast |= pinned;
            Long at = readAt(bound);
            if (writes && bound.relations().stream().anyMatch(r -> r.asOf() == null)) {
                currentReads.put(step, bound.relations().stream().filter(r -> r.asOf() == null)
                        .map(r -> r.table().name()).collect(Collectors.toSet()));
            }
            return new StatementResult.Rows("SELECT", table.columns(), table.rows(), at, pinned, fixed);
        }

        /**
         * The commit a read was served at: the one commit every relation was read at, else (current
         * rows, or relations at different commits) the latest commit of the request's snapshot; none
         * before the first commit. A writing request settles its reads of current rows at its end.
         */
        private Long readAt(BoundSelect bound) {
            Long read = null;
            for (BoundRelation relation : bound.relations()) {
                long at = relation.asOf() == null ? asOf.latestCommit() : relation.asOf();
                if (read != null && read != at) {
                    return commitOrNone(asOf.latestCommit()); // relations read at different commits
                }
                read = at;
            }
            return commitOrNone(read == null ? asOf.latestCommit() : read);
        }

        // ---- DDL -------------------------------------------------------------------------------

        /**
         * A derived table is a new table, so creating one needs what CREATE TABLE needs (ADMIN on ALL TABLES,
         * which also makes the creator its administrator), and reads its sources, so SELECT on each of them,
         * checked as its query is bound: without it a caller could copy rows it may not read into a table it
         * may. Building its history is then the engine's work, as keeping it is.
         */
        @Override
        public StatementResult createDerived(Statement.CreateDerived create) {
            access.requireGlobalAdmin(principal, "CREATE DERIVED TABLE", create.pos());
            DdlStatements.refuseViewName(views, create.name());
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
    }

    /** Whether a statement's result reports a change: a write (even of no rows), or DDL that did something. */
    private static boolean changes(StatementResult result) {
        return result instanceof StatementResult.Written
                || result instanceof StatementResult.Changed changed && changed.changed();
    }

    /** A commit sequence, or none for the state before the first commit (which AS OF COMMIT refuses). */
    private static Long commitOrNone(long commit) {
        return commit > 0 ? commit : null;
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
}
