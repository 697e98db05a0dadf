package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.verso.catalog.Catalog;
import io.verso.catalog.Views;
import io.verso.config.VersoProperties;
import io.verso.derive.Deriver;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.AccessControl;
import io.verso.security.Caller;
import io.verso.sql.SqlParser;
import io.verso.support.IntegrationTest;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * A writer's waits for other writers (the commit lock, its tables' locks, the end of every writer of a
 * lower sequence) end within the statement timeout with STATEMENT_TIMEOUT and write nothing, whoever
 * holds the lock and for however long. The shared context's timeout is 30 s, so these requests run on an
 * engine built from the context's beans with a timeout of {@link #TIMEOUT}; the lock holder is a second
 * connection, as another instance's writer would be.
 */
class WriteWaitTimeoutTests extends IntegrationTest {

    private static final Duration TIMEOUT = Duration.ofMillis(800);

    @Autowired
    private Catalog catalog;
    @Autowired
    private Views views;
    @Autowired
    private SqlRunner runner;
    @Autowired
    private VersoProperties properties;
    @Autowired
    private PlatformTransactionManager transactions;
    @Autowired
    private EngineObserver observer;
    @Autowired
    private AccessControl access;
    @Autowired
    private ObjectProvider<ReadRouter> router;
    @Autowired
    private Deriver deriver;
    @Autowired
    private ObjectProvider<CommitListener> listeners;
    @Autowired
    private DataSource dataSource;

    private StatementEngine engine;
    private String t;

    @BeforeEach
    void engineWithAShortTimeout() {
        VersoProperties shortTimeout = new VersoProperties(TIMEOUT, properties.maxRequestBytes(),
                properties.maxStatements(), properties.maxResultRows(), properties.maxResultChars(),
                properties.workMem(), properties.tempFileLimit(), properties.maxConcatBytes(),
                properties.maxRecursiveRows());
        engine = new StatementEngine(catalog, views, runner, shortTimeout, transactions, observer, access, router,
                deriver, listeners);
        t = table("waits");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT) VERSIONED");
    }

    @Test
    void aWriterWaitingForTheCommitLockTimesOutAndWritesNothing() throws SQLException {
        // What a DDL statement or an UPDATE ... WHERE of another request holds while it runs.
        whileHeld("SELECT pg_advisory_xact_lock(" + CommitProtocol.COMMIT_LOCK + ")", () -> {
            refusedWithinTheTimeout("UPSERT INTO " + t + " VALUES (1, 'a')");
            refusedWithinTheTimeout("UPDATE " + t + " SET v = 'b' WHERE k = 1");
        });
    }

    @Test
    void aWriterWaitingForItsTableTimesOutWhileWritersOfOtherTablesGoOn() throws SQLException {
        String other = otherTable();
        // A long writer of t, as begin_commit (V18) locks a table it writes.
        whileHeld("SELECT pg_advisory_xact_lock(1986359924, hashtext('" + t + "'))", () -> {
            refusedWithinTheTimeout("UPSERT INTO " + t + " VALUES (1, 'a')");
            assertThat(write("UPSERT INTO " + other + " VALUES (1)")).isNotNull();
        });
    }

    @Test
    void aWriterWaitingForAnEarlierSequenceTimesOutAndWritesNothing() throws SQLException {
        // Another table's writer that drew its sequence and has not ended: later sequences wait for it.
        whileHeld("SELECT * FROM verso.begin_commit('60s', ARRAY['" + otherTable() + "'], false)",
                () -> refusedWithinTheTimeout("UPSERT INTO " + t + " VALUES (1, 'a')"));
    }

    /**
     * Runs {@code during} while a second connection holds what {@code lock} takes, in a transaction that
     * PostgreSQL ends after 20 s idle whatever happens here (were a writer's wait unbounded, it would end
     * then and the test fail, not hang the suite); then writes to t go on.
     */
    private void whileHeld(String lock, Runnable during) throws SQLException {
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            execute(holder, "SET LOCAL idle_in_transaction_session_timeout = '20s'");
            execute(holder, lock);
            during.run();
            holder.rollback();
        }
        assertThat(write("UPSERT INTO " + t + " VALUES (1, 'a')")).isNotNull();
        assertThat(sql.rows("SELECT k, v FROM " + t)).isEqualTo(List.of(List.of("1", "a")));
    }

    private String otherTable() {
        String other = table("waits_other");
        sql.write("CREATE TABLE " + other + " (k INT PRIMARY KEY) VERSIONED");
        return other;
    }

    private void refusedWithinTheTimeout(String statement) {
        long started = System.nanoTime();
        assertThatThrownBy(() -> write(statement))
                .isInstanceOfSatisfying(VersoException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.STATEMENT_TIMEOUT);
                    assertThat(e.getMessage()).contains("other writers", "verso.statement-timeout");
                });
        long elapsed = Duration.ofNanos(System.nanoTime() - started).toMillis();
        assertThat(elapsed).isBetween(TIMEOUT.toMillis() - 50, TIMEOUT.toMillis() + 2_000);
        assertThat(sql.rows("SELECT k FROM " + t + " WHERE k = 1")).isEmpty();
    }

    private Long write(String statement) {
        return Caller.asSystem(() -> engine.execute(SqlParser.parse(statement), List.of(), "waits").commit());
    }

    private static void execute(Connection connection, String statement) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(statement);
        }
    }
}
