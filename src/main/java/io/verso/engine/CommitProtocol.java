package io.verso.engine;

import io.verso.compile.CompiledSql;
import io.verso.compile.SqlBuilder;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Idempotency;
import io.verso.sql.ast.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Supplier;
import org.springframework.dao.DataAccessException;

/**
 * The commit protocol, and all of its SQL: how a writer begins (the commit lock, its sequence, its time),
 * how a reader takes its snapshot, and how a writer ends (the idempotency mark, the commit record, the
 * notification, the wait for every writer of a lower sequence). Writers of different tables run at once
 * (see {@link #COMMIT_LOCK}); each draws its sequence under a short lock and waits, before it commits, for
 * every writer of a lower sequence to end, so sequences increase in visibility order and a reader's
 * snapshot always holds a prefix of the commits.
 */
final class CommitProtocol {

    /**
     * The commit lock (an advisory lock, db/migration/V18): shared by writers that name their tables up
     * front, held alone by every other writer, from before its sequence is drawn until it is visible.
     */
    static final long COMMIT_LOCK = 0x7665_7273_6f00_0001L;

    /** The PostgreSQL notification channel every write commit notifies, its commit sequence as payload. */
    static final String COMMIT_CHANNEL = "verso_commits";

    private final SqlRunner sql;
    private final ResourceLimits limits;

    CommitProtocol(SqlRunner sql, ResourceLimits limits) {
        this.sql = sql;
        this.limits = limits;
    }

    /**
     * What a writer holds once begun: its sequence and time, the latest commit made before it (which bounds
     * AS OF: the sequence has gaps where requests failed), the catalog version no other writer can change
     * while it holds the commit lock, and whether any derived table exists.
     */
    record Writer(long commit, Instant time, long latest, long catalogVersion, boolean anyDerived) {
    }

    /** A reader's snapshot: the latest commit it holds and its catalog version. */
    record Snapshot(long latest, long catalogVersion) {
    }

    /**
     * Begins a writer in one round trip: the request's resource limits (ResourceLimits), transaction-local,
     * in a statement of their own so that the statement timeout bounds begin_commit's waits for other
     * writers; then verso.begin_commit (db/migration/V18): the commit lock, shared when every table the
     * request writes is named up front (then each of those tables' locks, so writers of different tables
     * work at once), else exclusive; the sequence, drawn under a short lock and held until this transaction
     * ends; the commit's time from the database clock, never behind an earlier commit's.
     */
    Writer beginWrite(List<Statement> statements) {
        List<String> named = namedTables(statements);
        CompiledSql begin = new SqlBuilder().sql("SELECT b.* FROM verso.begin_commit(").bind(limits.timeout())
                .sql(", ").bind(new CompiledSql.ArrayBind("text", named == null ? new Object[0] : named.toArray()))
                .sql(", ").bind(named == null).sql(") AS b").build();
        return waitingForWriters(() -> sql.queryAfter(limits.settings(new SqlBuilder().sql("SELECT "), sql).build(),
                begin, rs -> {
                    rs.next();
                    return new Writer(rs.getLong(1), rs.getObject(2, OffsetDateTime.class).toInstant(), rs.getLong(3),
                            rs.getLong(4), rs.getBoolean(5));
                }));
    }

    /**
     * Begins a reader: one snapshot for every statement of the request. Writes stay READ COMMITTED, so
     * that after taking the lock each statement sees every earlier commit.
     */
    Snapshot beginRead() {
        sql.update(new SqlBuilder().sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").build());
        return sql.query(readState(), rs -> {
            rs.next();
            return new Snapshot(rs.getLong(1), rs.getLong(2));
        });
    }

    /**
     * The read's settings and state in one statement: the latest commit and the catalog version of its
     * snapshot, then its resource limits (transaction-local: ResourceLimits). Settings every read
     * transaction needs go here.
     */
    CompiledSql readState() {
        return limits.settings(new SqlBuilder().sql("SELECT (SELECT coalesce(max(seq), 0) FROM verso.commits), ")
                .sql("(SELECT version FROM verso.catalog_version), "), sql).build();
    }

    /**
     * {@code query}, a read of current rows or AS OF commits, as one statement that also returns its
     * snapshot's state: the latest commit ({@code latest}; else 0, for a read of current rows whose caller
     * knows a commit to report), the catalog version, and {@code lastChanged} (a scalar expression: the latest
     * commit that changed what a read of current rows reads; null for any other read), then a marker (null when
     * the query found no rows: the LEFT JOIN keeps the state's row) and the query's columns. One statement is one
     * snapshot. Rows come in the query's order only as a nested loop happens to keep it: the caller runs no query
     * with ORDER BY so.
     */
    CompiledSql readAlone(CompiledSql lastChanged, CompiledSql query, boolean latest) {
        List<Object> binds = new ArrayList<>(query.binds().size() + 4);
        if (lastChanged != null) {
            binds.addAll(lastChanged.binds());
        }
        binds.addAll(query.binds());
        return new CompiledSql("SELECT s.*, q.* FROM (SELECT "
                + (latest ? "(SELECT coalesce(max(seq), 0) FROM verso.commits), " : "CAST(0 AS bigint), ")
                + "(SELECT version FROM verso.catalog_version), "
                + (lastChanged == null ? "CAST(NULL AS bigint)" : lastChanged.sql()) + ") AS s "
                + "LEFT JOIN LATERAL (SELECT TRUE, q0.* FROM (" + query.sql() + ") AS q0) AS q ON TRUE", binds);
    }

    /**
     * What {@link #readAlone} of a read of current rows returns first, without its query: 0, the catalog version
     * and {@code lastChanged}.
     */
    CompiledSql stateAlone(CompiledSql lastChanged) {
        return new CompiledSql("SELECT CAST(0 AS bigint), (SELECT version FROM verso.catalog_version), "
                + lastChanged.sql(), lastChanged.binds());
    }

    /**
     * The latest commit that wrote any of {@code tables}, one bind each, for {@link #readAlone}: {@code greatest} of
     * each one's last write (it skips the nulls of tables never written). Not {@code max} over {@code unnest} of an
     * array: PostgreSQL estimates an array parameter at ten elements, so the statement's generic plan looked ten
     * times dearer than any custom one and it planned the statement anew at every read (0.2–0.4 ms of its CPU, ten
     * times the read itself); with one subquery a table, the generic plan costs what a custom one does.
     */
    static CompiledSql lastWriteOfAny(List<String> tables) {
        StringJoiner each = new StringJoiner(", ", "greatest(", ")");
        List<Object> binds = new ArrayList<>(tables.size());
        for (String table : tables) {
            each.add("(" + LAST_WRITE + "?" + LAST_WRITE_ORDER + ")");
            binds.add(new CompiledSql.TextBind(table));
        }
        return new CompiledSql(tables.isEmpty() ? "CAST(NULL AS bigint)" : each.toString(), binds);
    }

    /**
     * The latest commit that wrote one table, from the index by table (V29): its last entry, found in a few
     * pages however many commits the log holds. Spelled so: {@code max(commit_seq) ... WHERE table_name =
     * ANY (...)} cannot take that index in order, and PostgreSQL walked the log back from its newest commit
     * until it met the table (33 ms for a table last written 200,000 commits ago, where this takes 0.1 ms);
     * the ORDER BY is the index's own, which the primary key's (commit_seq, table_name) cannot give.
     */
    private static final String LAST_WRITE = "SELECT commit_seq FROM verso.commit_tables WHERE table_name = ";
    private static final String LAST_WRITE_ORDER = " ORDER BY table_name DESC, commit_seq DESC LIMIT 1";

    /** The columns {@link #readAlone} puts before the query's: the state's three and the marker. */
    static final int READ_ALONE_STATE = 4;

    /**
     * Ends a writer: the request's Idempotency-Key marked with this commit in this transaction
     * (security.Idempotency); then, in one round trip, the commit record and the tables it touched
     * ({@code touched}: rows per table, in order); the notification, inside the transaction, so PostgreSQL
     * delivers it only once the commit is visible (feed.CommitSignal); the wait for every writer of a lower
     * sequence to end, so commits become visible in sequence order; and, when this request began the
     * transaction ({@code commitsItself}), COMMIT itself (SqlRunner.updateAndCommit).
     */
    void finishWrite(Writer writer, Map<String, Long> touched, String actor, boolean commitsItself) {
        long commit = writer.commit();
        long rows = touched.values().stream().mapToLong(Long::longValue).sum();
        // A claim a retry took over (this request's database session was lost meanwhile) is the retry's:
        // this request must not commit beside it.
        Idempotency.current().ifPresent(claim -> {
            if (sql.update(new CompiledSql(Idempotency.MARK, claim.markBinds(commit))) != 1) {
                throw VersoException.user(ErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT, "a retry with Idempotency-Key '"
                        + claim.key() + "' took the key over while this request ran; this one wrote nothing");
            }
        });
        CompiledSql record = new SqlBuilder().sql("WITH c AS (INSERT INTO verso.commits (seq, committed_at, row_count, ")
                .sql("principal) VALUES (").bind(commit).sql(", CAST(").bind(writer.time().toString())
                .sql(" AS timestamptz), ").bind(rows).sql(", CAST(").bind(actor).sql(" AS text))), ")
                .sql("t AS (INSERT INTO verso.commit_tables (commit_seq, table_name, row_count) SELECT ")
                .bind(commit).sql(", n, r FROM unnest(")
                .bind(new CompiledSql.ArrayBind("text", touched.keySet().toArray()))
                .sql(", ").bind(new CompiledSql.ArrayBind("bigint", touched.values().toArray()))
                .sql(") AS x (n, r)) SELECT pg_notify(").bind(COMMIT_CHANNEL).sql(", ")
                .bind(Long.toString(commit)).sql("), verso.await_earlier_commits(").bind(commit).sql(")")
                .build();
        waitingForWriters(() -> {
            if (commitsItself) {
                sql.updateAndCommit(record);
            } else {
                sql.query(record, rs -> null);
            }
            return null;
        });
    }

    /**
     * A writer's step that waits for other writers (begin_commit's commit and table locks, the end of every
     * writer of a lower sequence before it commits), bounded by the statement timeout like any statement:
     * cancelled by it, the request is told what it waited for rather than that it ran too long. Its
     * transaction is rolled back on the way out.
     */
    private static <T> T waitingForWriters(Supplier<T> step) {
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
}
