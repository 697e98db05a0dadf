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
 * Every one-key read looks up the latest commit that wrote its table (CommitProtocol.readAlone, tableState),
 * so that lookup must cost the same however long the commit log is and however long ago the table was last
 * written: PostgreSQL must find it through the log's index by table, not by walking the log back from its
 * newest commit until it meets the table (it did: 33 ms a read for a table last written 200,000 commits ago).
 * Judged on PostgreSQL's own plan, over a long log written and rolled back inside the test's transaction.
 */
class LastWriteLookupTests extends IntegrationTest {

    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    PlatformTransactionManager transactions;

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
            for (CompiledSql state : List.of(commits.readAlone(List.of("lw_quiet"), new CompiledSql("SELECT 1", List.of())),
                    commits.readAlone(List.of("lw_busy", "lw_quiet", "lw_never"), new CompiledSql("SELECT 1", List.of())),
                    commits.tableState("lw_quiet"))) {
                String plan = String.join("\n", sql.texts(new CompiledSql("EXPLAIN " + state.sql(), state.binds()))
                        .stream().map(row -> row[0]).toList());
                assertThat(plan).as(state.sql()).contains("commit_tables_by_table").doesNotContain("commit_tables_pkey");
            }
            List<String[]> read = sql.texts(commits.readAlone(List.of("lw_busy", "lw_quiet", "lw_never"),
                    new CompiledSql("SELECT 1", List.of())));
            assertThat(read.get(0)[2]).isEqualTo(String.valueOf(from + 50000));
            assertThat(sql.texts(commits.readAlone(List.of("lw_quiet"), new CompiledSql("SELECT 1", List.of())))
                    .get(0)[2]).isEqualTo(String.valueOf(from));
            assertThat(sql.texts(commits.readAlone(List.of("lw_never"), new CompiledSql("SELECT 1", List.of())))
                    .get(0)[2]).isNull();
            status.setRollbackOnly();
        });
    }
}
