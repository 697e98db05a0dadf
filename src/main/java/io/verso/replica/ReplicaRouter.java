package io.verso.replica;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.verso.engine.ClientCommit;
import io.verso.engine.ExecutionResult;
import io.verso.engine.ReadRouter;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionException;

/**
 * Sends each read-only request to a replica that can answer it exactly as the primary would, else
 * to the primary. A replica serves a request only when its snapshot (checked inside the request's
 * own transaction, not from a earlier poll) holds
 * <ul>
 * <li>every commit the request reads AS OF: the engine refuses a commit after its snapshot's
 * latest with AS_OF_BEYOND_LATEST, and here that means "not replayed yet", so the request reruns
 * on the primary;</li>
 * <li>for a request that reads current state, every commit the caller has seen (Verso-Min-Commit)
 * and every commit this instance has made or observed — waiting up to
 * {@code verso.replica.max-wait} for replay;</li>
 * <li>the latest catalog version this instance knows: DDL, DELETE HISTORY, retention and ERASE each
 * make a new catalog version, so an answer AS OF an old commit never comes from a replica that has
 * not replayed an erasure or horizon move this instance knows of.</li>
 * </ul>
 * A caller that sends no Verso-Min-Commit is answered as a primary read would be: the replica's
 * snapshot must also hold the primary's latest commit (for a current read) and catalog version,
 * read from the primary once the replica has answered (one tiny lookup there).
 * A replica that fails mid-request costs the request nothing: the read reruns on the primary and
 * the replica is skipped until a check reaches it again.
 */
public final class ReplicaRouter implements ReadRouter, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ReplicaRouter.class);

    private static final String REPLICA_STATE = "SELECT (SELECT coalesce(max(seq), 0) FROM verso.commits), "
            + "(SELECT version FROM verso.catalog_version), "
            + "CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() ELSE false END";
    private static final String PRIMARY_STATE = "SELECT (SELECT coalesce(max(seq), 0) FROM verso.commits), "
            + "(SELECT version FROM verso.catalog_version)";

    private final List<Replica> replicas = new ArrayList<>();
    private final JdbcTemplate primary;
    private final ReplicaProperties.Replica settings;
    private final AtomicLong knownLatest = new AtomicLong();
    private final AtomicLong knownCatalog = new AtomicLong();
    private final AtomicInteger next = new AtomicInteger();
    private final Counter primaryReads;
    private final Counter replicaReads;
    private final ScheduledExecutorService checker;
    /** The primary's latest commit at each check, which each replica's lag in seconds is measured against. */
    private final PrimaryTimeline timeline;

    ReplicaRouter(ReplicaProperties properties, DataSource primaryDataSource, JdbcTemplate primary,
                  MeterRegistry registry) throws SQLException {
        this.primary = primary;
        this.settings = properties.replica();
        this.primaryReads = reads(registry, "primary");
        this.replicaReads = reads(registry, "replica");
        List<String> urls = properties.urls();
        HikariDataSource primaryPool = primaryDataSource.isWrapperFor(HikariDataSource.class)
                ? primaryDataSource.unwrap(HikariDataSource.class) : null;
        for (int i = 0; i < urls.size(); i++) {
            Replica replica = new Replica("replica-" + (i + 1), urls.get(i), pool(primaryPool, urls.get(i), i + 1, registry));
            replicas.add(replica);
            register(registry, replica);
        }
        // Twice the lag that makes a replica "lagging", so a lag near that bound reads true.
        this.timeline = new PrimaryTimeline(2 * settings.maxLag().toNanos());
        if (replicas.isEmpty()) {
            checker = null;
        } else {
            checker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "replica-check");
                thread.setDaemon(true);
                return thread;
            });
            checker.scheduleWithFixedDelay(this::check, 0, settings.checkInterval().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** A replica's pool: the primary pool's settings (init SQL, driver properties, credentials) on its URL. */
    private HikariDataSource pool(HikariDataSource primaryPool, String url, int number, MeterRegistry registry) {
        HikariConfig config = new HikariConfig();
        if (primaryPool != null) {
            primaryPool.copyStateTo(config);
        }
        config.setJdbcUrl(url);
        config.setPoolName("replica-" + number);
        if (settings.username() != null) {
            config.setUsername(settings.username());
        }
        if (settings.password() != null) {
            config.setPassword(settings.password());
        }
        if (settings.poolSize() != null) {
            config.setMaximumPoolSize(settings.poolSize());
        }
        config.setMinimumIdle(Math.min(config.getMinimumIdle(), config.getMaximumPoolSize()));
        // A replica that is down at start is skipped, not fatal; a dead one must not hold reads long.
        config.setInitializationFailTimeout(-1);
        // hikaricp_* metrics with pool="replica-n", like the primary's.
        config.setMetricRegistry(null);
        config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
        config.setConnectionTimeout(settings.connectTimeout().toMillis());
        config.setValidationTimeout(Math.min(config.getValidationTimeout(), settings.connectTimeout().toMillis()));
        return new HikariDataSource(config);
    }

    private static Counter reads(MeterRegistry registry, String target) {
        return Counter.builder("verso.reads")
                .description("Read-only requests by where they ran: primary or replica")
                .tag("target", target)
                .register(registry);
    }

    private static void register(MeterRegistry registry, Replica replica) {
        Gauge.builder("verso.replica.up", replica, r -> r.up ? 1 : 0)
                .description("1 when the replica answered its last check or read, else 0")
                .tag("replica", replica.name).register(registry);
        Gauge.builder("verso.replica.lag.commits", replica, r -> r.lagCommits)
                .description("Commits the replica had not replayed at its last check")
                .tag("replica", replica.name).register(registry);
        Gauge.builder("verso.replica.lag.seconds", replica, r -> r.lagSeconds)
                .description("Seconds since the replica last held the primary's latest commit (0 when it does)")
                .tag("replica", replica.name).register(registry);
        Gauge.builder("verso.replica.replayed.commit", replica, r -> r.replayed)
                .description("Latest commit seen on the replica")
                .tag("replica", replica.name).register(registry);
    }

    List<Replica> replicas() {
        return replicas;
    }

    long knownLatest() {
        return knownLatest.get();
    }

    Duration maxLag() {
        return settings.maxLag();
    }

    // ---- routing -------------------------------------------------------------------------------

    @Override
    public ExecutionResult read(Function<ReadTarget, ExecutionResult> attempt) {
        long callers = ClientCommit.minCommit();
        long floor = Math.max(callers, knownLatest.get());
        long catalogFloor = knownCatalog.get();
        Replica replica = choose(floor, catalogFloor);
        if (replica != null) {
            ExecutionResult result = onReplica(replica, callers, floor, catalogFloor, attempt);
            if (result != null) {
                replicaReads.increment();
                ClientCommit.seen(result.readCommit());
                return result;
            }
        }
        ExecutionResult result = attempt.apply(this::learn);
        primaryReads.increment();
        ClientCommit.seen(result.readCommit());
        return result;
    }

    @Override
    public void committed(long commit, boolean catalogChanged) {
        raise(knownLatest, commit);
        ClientCommit.seen(commit);
        if (catalogChanged && !replicas.isEmpty()) {
            // Before the receipt leaves: no replica read through this instance may then miss the change.
            refreshPrimary();
        }
    }

    private void learn(long latestCommit, long catalogVersion) {
        raise(knownLatest, latestCommit);
        raise(knownCatalog, catalogVersion);
    }

    /**
     * A replica known to hold {@code floor}, round robin; else one close behind (it may have caught
     * up since it was last seen); else none.
     */
    private Replica choose(long floor, long catalogFloor) {
        int n = replicas.size();
        if (n == 0) {
            return null;
        }
        int start = Math.floorMod(next.getAndIncrement(), n);
        Replica close = null;
        double closeEnough = 2.0 * settings.checkInterval().toMillis() / 1000.0;
        for (int i = 0; i < n; i++) {
            Replica r = replicas.get((start + i) % n);
            if (!r.up) {
                continue;
            }
            if (r.replayed >= floor && r.catalogVersion >= catalogFloor) {
                return r;
            }
            if (close == null && !r.paused && r.lagSeconds <= closeEnough) {
                close = r;
            }
        }
        return close;
    }

    /** The request's result from {@code replica}, or null when the primary must answer it. */
    private ExecutionResult onReplica(Replica replica, long callers, long floor, long catalogFloor,
                                      Function<ReadTarget, ExecutionResult> attempt) {
        long deadline = System.nanoTime() + settings.maxWait().toNanos();
        // What the answer must hold: {latest commit for a current read, catalog version}.
        long[] needs = {floor, catalogFloor};
        boolean primaryAsked = false;
        while (true) {
            long[] snapshot = {-1, -1};
            RoutingDataSource.use(replica.pool);
            try {
                ExecutionResult result = attempt.apply(new ReadTarget() {
                    @Override
                    public void snapshot(long latest, long version) {
                        replica.saw(latest, version);
                        snapshot[0] = latest;
                        snapshot[1] = version;
                        if (version < needs[1]) {
                            throw new Behind();
                        }
                    }

                    @Override
                    public boolean primary() {
                        return false; // its snapshot may be behind what this instance has seen
                    }
                });
                if (callers < 0 && !primaryAsked) {
                    // A caller that names no commit gets what a primary read would give: every commit
                    // and catalog change acknowledged before it asked, through any instance.
                    askPrimary(needs);
                    primaryAsked = true;
                }
                // A read at fixed commits needs only those (and the catalog version); beyond them, only
                // what the caller has seen, so an erasure it was told of is in the answer.
                boolean fresh = pinned(result) ? snapshot[0] >= callers : snapshot[0] >= needs[0];
                if (fresh && snapshot[1] >= needs[1]) {
                    return result;
                }
                // It read a state from before a commit it must see: wait for replay, or the primary.
            } catch (Behind e) {
                // The catalog version it must see has not replayed yet.
            } catch (VersoException e) {
                if (e.code() == ErrorCode.AS_OF_BEYOND_LATEST) {
                    return null; // a commit it has not replayed: the primary has it (or refuses it itself)
                }
                // An error from a snapshot older than what the caller must see (a table or column made
                // since) is the primary's to give or not.
                if (callers < 0 && !primaryAsked) {
                    askPrimary(needs);
                }
                if (snapshot[0] < needs[0] || snapshot[1] < needs[1]) {
                    return null;
                }
                throw e;
            } catch (DataAccessException | TransactionException e) {
                if (madeSince(e)) {
                    // The statement was bound to a catalog the replica has not replayed yet (the analyzer
                    // refuses unknown tables and columns before any SQL runs): the primary answers it.
                    return null;
                }
                if (callersFault(e)) {
                    throw e;
                }
                if (unreachable(e)) {
                    replica.failed(e);
                    log.warn("read replica {} failed, reading from the primary: {}", replica.name, e.getMessage());
                }
                return null; // e.g. a query cancelled by a conflict with recovery: the primary answers
            } finally {
                RoutingDataSource.use(null);
            }
            if (!awaitReplay(replica, needs[0], needs[1], deadline)) {
                return null;
            }
        }
    }

    /**
     * Raises {@code needs} to the primary's latest commit and catalog version: one lookup of a
     * primary key's last entry and a one-row table. When the primary cannot say, to more than any
     * replica holds, so the primary answers (or reports itself down).
     */
    private void askPrimary(long[] needs) {
        try {
            long[] state = primary.query(PRIMARY_STATE, rs -> {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            });
            learn(state[0], state[1]);
            needs[0] = Math.max(needs[0], state[0]);
            needs[1] = Math.max(needs[1], state[1]);
        } catch (DataAccessException e) {
            needs[0] = Long.MAX_VALUE;
        }
    }

    /** Every statement read at a fixed commit: the answer does not depend on replay beyond it. */
    private static boolean pinned(ExecutionResult result) {
        return !result.results().isEmpty() && result.results().stream()
                .allMatch(r -> r instanceof StatementResult.Rows rows && rows.fixed());
    }

    /** Polls the replica until it holds {@code floor} and {@code catalogFloor}; false at the deadline. */
    private boolean awaitReplay(Replica replica, long floor, long catalogFloor, long deadline) {
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            try {
                long[] state = replica.jdbc.query(PRIMARY_STATE, rs -> {
                    rs.next();
                    return new long[] {rs.getLong(1), rs.getLong(2)};
                });
                replica.saw(state[0], state[1]);
                if (state[0] >= floor && state[1] >= catalogFloor) {
                    return true;
                }
            } catch (DataAccessException e) {
                replica.failed(e);
                return false;
            }
        }
        return false;
    }

    /** Errors the primary would raise as well: the request's own, not the replica's. */
    private static boolean callersFault(RuntimeException e) {
        String state = sqlState(e);
        return state != null && (state.startsWith("22") || state.startsWith("42") || state.equals("57014"));
    }

    /** undefined_table or undefined_column: a table or column made after the replica's snapshot. */
    private static boolean madeSince(RuntimeException e) {
        String state = sqlState(e);
        return "42P01".equals(state) || "42703".equals(state);
    }

    private static boolean unreachable(RuntimeException e) {
        String state = sqlState(e);
        return e instanceof CannotGetJdbcConnectionException || e instanceof CannotCreateTransactionException
                || state == null || state.startsWith("08") || state.startsWith("57P") || state.startsWith("53");
    }

    private static String sqlState(RuntimeException e) {
        Throwable cause = e instanceof DataAccessException dae ? dae.getMostSpecificCause() : e.getCause();
        return cause instanceof SQLException sql ? sql.getSQLState() : null;
    }

    /** Abandons a replica attempt whose snapshot predates the catalog version it must see. */
    private static final class Behind extends RuntimeException {
        Behind() {
            super(null, null, false, false);
        }
    }

    // ---- checks --------------------------------------------------------------------------------

    private void refreshPrimary() {
        try {
            long[] state = primary.query(PRIMARY_STATE, rs -> {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            });
            learn(state[0], state[1]);
        } catch (DataAccessException e) {
            log.debug("primary check failed: {}", e.getMessage());
        }
    }

    /** Every check interval: the primary's latest commit and catalog version, then each replica's. */
    private void check() {
        try {
            refreshPrimary();
            long primaryLatest = knownLatest.get();
            timeline.record(System.nanoTime(), primaryLatest);
            for (Replica replica : replicas) {
                try {
                    Object[] state = replica.jdbc.query(REPLICA_STATE, rs -> {
                        rs.next();
                        return new Object[] {rs.getLong(1), rs.getLong(2), rs.getBoolean(3)};
                    });
                    replica.saw((Long) state[0], (Long) state[1]);
                    replica.paused = (Boolean) state[2];
                    replica.lagCommits = Math.max(0, primaryLatest - replica.replayed);
                    replica.lagSeconds = timeline.secondsBehind(replica.replayed, System.nanoTime());
                    if (!replica.up) {
                        log.info("read replica {} is serving ({})", replica.name, replica.maskedUrl());
                    }
                    replica.error = null;
                    replica.up = true;
                } catch (RuntimeException e) {
                    replica.failed(e);
                }
            }
        } catch (RuntimeException e) {
            log.warn("replica check failed", e);
        }
    }

    private static void raise(AtomicLong value, long to) {
        value.accumulateAndGet(to, Math::max);
    }

    @Override
    public void destroy() {
        if (checker != null) {
            checker.shutdownNow();
        }
        replicas.forEach(r -> r.pool.close());
    }
}
