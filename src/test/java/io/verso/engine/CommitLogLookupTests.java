package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.compile.CompiledSql;
import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Lookups in the commit log that must cost the same however long it is: the latest commit that wrote a table,
 * which a one-key read of a system-versioned table asks (CommitProtocol.readAlone), and the latest commit at or
 * before a time (AS OF TIMESTAMP, FOR SYSTEM_TIME: TimeCompiler). PostgreSQL must find each through an index, not by
 * walking the log back from its newest commit (it did: 33 ms a read for a table last written 200,000 commits
 * ago). Judged on PostgreSQL's own plan and answer, over a long log written and rolled back in the test.
 */
class CommitLogLookupTests extends IntegrationTest {

    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    PlatformTransactionManager transactions;
    @Autowired
    io.verso.config.VersoProperties properties;

    @Test
    void aTableWrittenLongAgoIsFoundByTheIndexByTable() {
        TransactionTemplate rolledBack = new TransactionTemplate(transactions);
        rolledBack.executeWithoutResult(status -> {
            long from = jdbc.queryForObject("SELECT coalesce(max(seq), 0) + 1 FROM verso.commits", Long.class);
            jdbc.update("INSERT INTO verso.commits (seq, committed_at, row_count) SELECT s, now(), 1"
                    + " FROM generate_series(?::bigint, ? + 50000) s", from, from);
            jdbc.update("INSERT INTO verso.commit_tables (commit_seq, table_name, row_count) SELECT s, 'lw_busy', 1"
                    + " FROM generate_series(?::bigint, ? + 50000) s", from, from);
            jdbc.update("INSERT INTO verso.commit_tables (commit_seq, table_name, row_count) VALUES (?, 'lw_quiet', 1)",
                    from);
            jdbc.execute("ANALYZE verso.commits, verso.commit_tables");
            SqlRunner sql = new SqlRunner(jdbc);
            CommitProtocol commits = new CommitProtocol(sql, null);
            CompiledSql one = new CompiledSql("SELECT 1", List.of());
            for (CompiledSql state : List.of(commits.readAlone(lastWrite("lw_quiet"), one, true),
                    commits.readAlone(lastWrite("lw_busy", "lw_quiet", "lw_never"), one, false))) {
                List<String> plan = sql.texts(new CompiledSql("EXPLAIN " + state.sql(), state.binds()))
                        .stream().map(row -> row[0]).toList();
                assertThat(String.join("\n", plan)).as(state.sql()).contains("commit_tables_by_table");
                // The log's newest entries first only for the table written by every commit: found at once.
                for (int i = 0; i < plan.size(); i++) {
                    if (plan.get(i).contains("commit_tables_pkey")) {
                        assertThat(plan.get(i + 1)).as(String.join("\n", plan)).contains("'lw_busy'");
                    }
                }
            }
            List<String[]> read = sql.texts(commits.readAlone(lastWrite("lw_busy", "lw_quiet", "lw_never"),
                    new CompiledSql("SELECT 1", List.of()), true));
            assertThat(read.get(0)[0]).isEqualTo(String.valueOf(from + 50000));
            assertThat(read.get(0)[2]).isEqualTo(String.valueOf(from + 50000));
            List<String[]> current = sql.texts(commits.readAlone(lastWrite("lw_quiet"),
                    new CompiledSql("SELECT 1", List.of()), false));
            assertThat(current.get(0)[0]).isEqualTo("0");
            assertThat(current.get(0)[2]).isEqualTo(String.valueOf(from));
            assertThat(sql.texts(commits.readAlone(lastWrite("lw_never"), new CompiledSql("SELECT 1", List.of()), true))
                    .get(0)[2]).isNull();
            status.setRollbackOnly();
        });
    }

    /**
     * PostgreSQL plans the one-key read's statement once per connection, not at every read: its generic plan
     * costs what a custom one does (an array of table names estimated at ten made it look ten times dearer,
     * and each read was planned anew, 0.2-0.4 ms of PostgreSQL's CPU). Its binds are typed, so pgjdbc sends it
     * without a Sync of its own first (CompiledSql.TextBind).
     */
    @Test
    void theOneKeyReadIsPlannedOnceAndItsBindsAreTyped() {
        TransactionTemplate oneSession = new TransactionTemplate(transactions);
        oneSession.executeWithoutResult(status -> {
            SqlRunner sql = new SqlRunner(jdbc);
            CommitProtocol commits = new CommitProtocol(sql, null);
            CompiledSql query = new CompiledSql("SELECT * FROM (VALUES (1, 'one'), (2, 'two')) AS t(k, v) WHERE k = "
                    + "CAST(? AS bigint)", List.of(new CompiledSql.TextBind("2")));
            for (List<String> tables : List.of(List.of("pl_one"), List.of("pl_one", "pl_two"))) {
                CompiledSql read = commits.readAlone(CommitProtocol.lastWriteOfAny(tables), query, tables.size() == 1);
                assertThat(read.binds()).allMatch(b -> b instanceof CompiledSql.TextBind || b instanceof Long);
                for (int i = 0; i < 12; i++) {
                    assertThat(sql.texts(read).get(0)[5]).isEqualTo("two");
                }
                Long generic = jdbc.queryForObject("SELECT generic_plans FROM pg_prepared_statements WHERE statement = ?",
                        Long.class, read.sql().replace("?", "$%d").formatted(
                                java.util.stream.IntStream.rangeClosed(1, read.binds().size()).boxed().toArray()));
                assertThat(generic).as(read.sql()).isPositive();
            }
            status.setRollbackOnly();
        });
    }

    /**
     * The resource limits every transaction sets first (a writer's first statement, a read's state) go typed:
     * an untyped string makes pgjdbc describe the statement and send a Sync round trip of its own before it.
     */
    @Test
    void theSettingsEveryTransactionBeginsWithAreSentTyped() {
        ResourceLimits limits = new ResourceLimits(properties);
        SqlRunner sql = new SqlRunner(jdbc);
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            CompiledSql settings = limits.settings(new io.verso.compile.SqlBuilder().sql("SELECT "), sql).build();
            assertThat(settings.binds()).hasSizeGreaterThanOrEqualTo(4).allMatch(CompiledSql.TextBind.class::isInstance);
            sql.texts(settings);
            assertThat(jdbc.queryForObject("SELECT current_setting('statement_timeout')", String.class))
                    .isEqualTo(properties.statementTimeout().toSeconds() + "s");
            CompiledSql session = limits.sessionSettings();
            assertThat(session.binds()).hasSize(3).allMatch(CompiledSql.TextBind.class::isInstance);
            assertThat(sql.texts(session)).hasSize(1);
            status.setRollbackOnly();
        });
    }

    @Test
    void theCommitAtATimeLongAgoIsFoundByTheIndexByTime() {
        TransactionTemplate rolledBack = new TransactionTemplate(transactions);
        rolledBack.executeWithoutResult(status -> {
            long from = jdbc.queryForObject("SELECT coalesce(max(seq), 0) + 1 FROM verso.commits", Long.class);
            // A commit a second from a day after the latest on: times never go back, as verso.begin_commit draws them.
            java.time.Instant start = jdbc.queryForObject("SELECT coalesce(max(committed_at), now()) + INTERVAL '1 day'"
                    + " FROM verso.commits", java.time.OffsetDateTime.class).toInstant();
            jdbc.update("INSERT INTO verso.commits (seq, committed_at, row_count) SELECT s, CAST(? AS timestamptz)"
                    + " + (s - ?) * INTERVAL '1 second', 1 FROM generate_series(?::bigint, ? + 50000) s",
                    start.toString(), from, from, from);
            jdbc.execute("ANALYZE verso.commits");
            SqlRunner sql = new SqlRunner(jdbc);
            long latest = from + 50000;
            java.time.Instant second = start.plusSeconds(10);
            CompiledSql lookup = io.verso.compile.TimeCompiler.commitAt(second, false, latest);
            String plan = String.join("\n", sql.texts(new CompiledSql("EXPLAIN " + lookup.sql(), lookup.binds()))
                    .stream().map(row -> row[0]).toList());
            assertThat(plan).as(lookup.sql()).contains("commits_by_time");
            assertThat(sql.texts(lookup).get(0)[0]).isEqualTo(String.valueOf(from + 10));
            assertThat(sql.texts(io.verso.compile.TimeCompiler.commitAt(second, true, latest)).get(0)[0])
                    .isEqualTo(String.valueOf(from + 9));
            // Up to the snapshot's latest commit only, and 0 before the first.
            assertThat(sql.texts(io.verso.compile.TimeCompiler.commitAt(second, false, from + 3)).get(0)[0])
                    .isEqualTo(String.valueOf(from + 3));
            assertThat(sql.texts(io.verso.compile.TimeCompiler.commitAt(java.time.Instant.parse("1999-01-01T00:00:00Z"),
                    false, latest)).get(0)[0]).isEqualTo("0");
            status.setRollbackOnly();
        });
    }

    private static CompiledSql lastWrite(String... tables) {
        return CommitProtocol.lastWriteOfAny(List.of(tables));
    }
}
