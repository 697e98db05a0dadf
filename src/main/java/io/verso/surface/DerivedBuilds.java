package io.verso.surface;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.verso.derive.BuildProgress;
import io.verso.engine.ExecutionResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Caller;
import io.verso.security.VersoPrincipal;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.surface.Resources.BuildError;
import io.verso.surface.Resources.DerivedBuild;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Derived tables created over REST, whose build over the sources' existing history may outlast the
 * request. The CREATE DERIVED TABLE runs on a thread of its own, for the caller, as one request
 * (one transaction, one commit, nothing created if it fails); the request waits for it a while and
 * is answered with the outcome, or with a build resource to ask again. The build's progress and
 * outcome are written to {@code verso.derived_builds} (V21) in transactions of their own as it
 * runs, so any instance answers for it; only the caller who started it and administrators may read
 * it, anyone else is told it does not exist.
 */
@Service
public class DerivedBuilds {

    private static final Logger log = LoggerFactory.getLogger(DerivedBuilds.class);
    /** Progress is written at most this often while commits are replayed (each write is a transaction). */
    private static final long PROGRESS_NANOS = 1_000_000_000L;
    /** Finished builds are kept this long for their callers to read. */
    private static final String KEPT = "7 days";

    private final Statements statements;
    private final JdbcTemplate jdbc;
    /** Progress writes: committed at once, beside the build's transaction, which commits only at its end. */
    private final TransactionTemplate beside;
    private final ThreadPoolExecutor executor;
    private final Set<UUID> running = ConcurrentHashMap.newKeySet();
    /** Builds asked for on this instance that have not ended: queued or running. */
    private final Set<UUID> pending = ConcurrentHashMap.newKeySet();
    private final DerivedBuildProperties properties;

    DerivedBuilds(Statements statements, JdbcTemplate jdbc, PlatformTransactionManager transactions,
                  DerivedBuildProperties properties, MeterRegistry meters) {
        this.statements = statements;
        this.jdbc = jdbc;
        this.properties = properties;
        this.beside = new TransactionTemplate(transactions);
        this.beside.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        AtomicInteger threads = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(properties.threads(), properties.threads(), 0, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(Math.max(1, properties.queue())), work -> {
                    Thread thread = new Thread(work, "derived-build-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        Gauge.builder("verso.derived.builds", running, Set::size)
                .description("Derived table builds asked for over REST running on this instance").register(meters);
        Gauge.builder("verso.derived.builds.queued", executor, e -> e.getQueue().size())
                .description("Derived table builds asked for over REST waiting for a thread").register(meters);
    }

    /** A build as its request is answered: {@code finished} (created: a failure is thrown instead), or running. */
    public record Started(DerivedBuild build, boolean finished) {
    }

    /**
     * Starts creating the derived table {@code body} defines ({@code name}, {@code query}, optional
     * {@code primaryKey}) and waits for it (the client's {@code asked} wait up to the longest allowed,
     * none when it asked for an asynchronous answer, else the configured wait): a build that fails
     * within the wait throws its problem, as any request would.
     */
    public Started start(String body, boolean respondAsync, Duration asked) {
        Duration wait = asked != null ? (asked.compareTo(properties.maxWait()) > 0 ? properties.maxWait() : asked)
                : respondAsync ? Duration.ZERO : properties.defaultWait();
        Statement.CreateDerived create = definition(body);
        VersoPrincipal caller = Caller.current();
        UUID id = UUID.randomUUID();
        record(id, caller, create.name().name());
        Future<DerivedBuild> build;
        // The build's log lines carry the request's id, as the request's own do.
        Map<String, String> logContext = MDC.getCopyOfContextMap();
        try {
            build = executor.submit(() -> {
                if (logContext != null) {
                    MDC.setContextMap(logContext);
                }
                try {
                    return run(id, caller, create);
                } finally {
                    MDC.clear();
                }
            });
        } catch (RejectedExecutionException e) {
            pending.remove(id);
            jdbc.update("DELETE FROM verso.derived_builds WHERE id = ?", id);
            throw new VersoException.ServerError(ErrorCode.OVERLOADED, "too many derived table builds are running or "
                    + "waiting (" + executor.getActiveCount() + " running): ask again later", null);
        }
        if (wait.isZero()) {
            return new Started(load(id), false);
        }
        try {
            return new Started(build.get(wait.toMillis(), TimeUnit.MILLISECONDS), true);
        } catch (TimeoutException e) {
            return new Started(load(id), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Started(load(id), false);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** GET /v1/derived-builds/{id}: the build, if the caller started it or is an administrator. */
    public DerivedBuild status(String id) {
        VersoException.UserError unknown = VersoException.pointing(ErrorCode.UNKNOWN_BUILD,
                "unknown derived table build '" + Commits.shorten(id) + "'", "id");
        UUID uuid;
        try {
            uuid = UUID.fromString(id);
        } catch (IllegalArgumentException notAnId) {
            throw unknown;
        }
        VersoPrincipal caller = Caller.current();
        Owned build = find(uuid);
        if (build == null || !caller.admin() && (caller.name() == null || !caller.name().equals(build.principal()))) {
            throw unknown;
        }
        return build.build();
    }

    /** The request body as the statement it stands for; the query's errors give line and column within it. */
    private static Statement.CreateDerived definition(String body) {
        JsonNode definition = RequestJson.object(body);
        String name = RequestJson.string(definition, "name", "/name", true);
        if (name.isEmpty()) {
            throw RequestJson.invalid("\"name\" must not be empty", "/name");
        }
        List<Ident> primaryKey = RequestJson.names(definition, "primaryKey", "/primaryKey").stream()
                .map(key -> new Ident(key, Pos.pointer("/primaryKey"))).toList();
        String query = RequestJson.string(definition, "query", "/query", true);
        if (query.isBlank()) {
            throw RequestJson.invalid("\"query\" must not be empty", "/query");
        }
        SqlParser.Script script = SqlParser.parse(query);
        if (script.statements().size() != 1 || !(script.statements().get(0) instanceof Statement.Select select)) {
            throw RequestJson.invalid("\"query\" must be one SELECT (the derived table's defining query)", "/query");
        }
        // Stored as CREATE DERIVED TABLE stores it: the query alone, without a closing semicolon.
        return new Statement.CreateDerived(new Ident(name, Pos.pointer("/name")), primaryKey, select.query(),
                query.strip().replaceAll("[;\\s]+$", ""), Pos.pointer("/"));
    }

    /** The build's thread: the statement for the caller, its progress and outcome recorded as it goes. */
    private DerivedBuild run(UUID id, VersoPrincipal caller, Statement.CreateDerived create) {
        running.add(id);
        try {
            beside(() -> jdbc.update("UPDATE verso.derived_builds SET state = 'RUNNING', updated_at = clock_timestamp() "
                    + "WHERE id = ? AND state = 'QUEUED'", id));
            ExecutionResult result = Caller.as(caller, () -> BuildProgress.reporting(new Progress(id),
                    () -> statements.run(List.of(create), List.of(), "/")));
            finish(id, result.commit(), null, null, null);
            return load(id);
        } catch (VersoException e) {
            finish(id, null, e.code(), e.code().status(), e.getMessage());
            throw e;
        } catch (RuntimeException e) {
            log.error("Derived table build {} of {} failed", id, create.name().name(), e);
            finish(id, null, ErrorCode.INTERNAL_ERROR, 500, "the build failed; the service log says why (build "
                    + id + ")");
            throw e;
        } finally {
            running.remove(id);
            pending.remove(id);
        }
    }

    /** Hears the build's progress on its thread and writes it down, at most once a second. */
    private final class Progress implements BuildProgress {
        private final UUID id;
        private int total = -1;
        private long written = System.nanoTime();

        Progress(UUID id) {
            this.id = id;
        }

        @Override
        public void planned(String table, int commits) {
            total = commits;
            beside(() -> jdbc.update("UPDATE verso.derived_builds SET commits_total = ?, "
                    + "updated_at = clock_timestamp() WHERE id = ?", commits, id));
        }

        @Override
        public void applied(String table, int commits, long rows) {
            long now = System.nanoTime();
            if (commits < total && now - written < PROGRESS_NANOS) {
                return;
            }
            written = now;
            beside(() -> jdbc.update("UPDATE verso.derived_builds SET commits_applied = ?, rows_written = ?, "
                    + "updated_at = clock_timestamp() WHERE id = ?", commits, rows, id));
        }
    }

    private void record(UUID id, VersoPrincipal caller, String table) {
        jdbc.update("DELETE FROM verso.derived_builds WHERE finished_at < clock_timestamp() - CAST(? AS interval)",
                KEPT);
        jdbc.update("INSERT INTO verso.derived_builds (id, principal, table_name, state, started_at, updated_at) "
                + "VALUES (?, ?, ?, 'QUEUED', clock_timestamp(), clock_timestamp())", id, caller.name(), table);
        pending.add(id);
    }

    private void finish(UUID id, Long commit, ErrorCode code, Integer status, String detail) {
        try {
            beside(() -> jdbc.update("UPDATE verso.derived_builds SET state = ?, commit_seq = ?, error_code = ?, "
                    + "error_status = ?, error_detail = ?, updated_at = clock_timestamp(), "
                    + "finished_at = clock_timestamp() WHERE id = ? AND finished_at IS NULL",
                    code == null ? "SUCCEEDED" : "FAILED", commit,
                    code == null ? null : code.name(), status, detail, id));
        } catch (RuntimeException e) {
            // The build's own outcome stands (the table exists, or not); its record stays QUEUED or RUNNING.
            log.error("Derived table build {}: its outcome could not be recorded", id, e);
        }
    }

    private void beside(Runnable write) {
        beside.executeWithoutResult(status -> write.run());
    }

    /** A build and the principal that started it. */
    private record Owned(String principal, DerivedBuild build) {
    }

    private DerivedBuild load(UUID id) {
        return find(id).build();
    }

    /** The build recorded as {@code id}, or null. */
    private Owned find(UUID id) {
        List<Owned> found = jdbc.query("SELECT id, table_name, state, commits_total, commits_applied, rows_written, "
                + "commit_seq, error_code, error_status, error_detail, started_at, updated_at, finished_at, principal "
                + "FROM verso.derived_builds WHERE id = ?", (rs, i) -> new Owned(rs.getString(14), new DerivedBuild(
                        rs.getString(1), rs.getString(2), rs.getString(3), rs.getObject(4, Long.class), rs.getLong(5),
                        rs.getLong(6), Commits.text(rs.getObject(7, Long.class)), rs.getString(8) == null ? null
                                : new BuildError(rs.getString(8), rs.getInt(9), rs.getString(10)),
                        instant(rs.getObject(11, OffsetDateTime.class)),
                        instant(rs.getObject(12, OffsetDateTime.class)),
                        instant(rs.getObject(13, OffsetDateTime.class)))), id);
        return found.isEmpty() ? null : found.get(0);
    }

    private static String instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant().toString();
    }

    /**
     * Builds still running when the service stops are rolled back with their transaction (the
     * connection closes), and builds still queued never run: their records say so, so no caller waits
     * for them.
     */
    @PreDestroy
    void stop() throws InterruptedException {
        executor.shutdown();
        if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
            executor.shutdownNow();
        }
        for (UUID id : Set.copyOf(pending)) {
            finish(id, null, ErrorCode.BUILD_INTERRUPTED, ErrorCode.BUILD_INTERRUPTED.status(), "the service "
                    + "stopped before the build ended; nothing was created: ask again");
        }
    }
}
