package io.verso.engine;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels statements that run past their deadline, as pgjdbc's query timeout does, without its timer. For each
 * statement with a timeout pgjdbc schedules a task on one {@link java.util.Timer} that every connection shares,
 * and purges that timer's queue when the statement ends, both under the timer's lock: every request thread took
 * it twice per one-key read. Here a running statement sits in a concurrent map, and one thread looks every
 * {@link #PERIOD} for those past their deadline and cancels them with the driver's own cancel (a CancelRequest;
 * the statement fails with SQLSTATE 57014, as from the driver's timer, and a statement that has just ended is
 * left alone by the driver). A deadline is kept to within that period.
 */
final class StatementDeadlines implements AutoCloseable {

    static final Duration PERIOD = Duration.ofMillis(100);

    private static final Logger log = LoggerFactory.getLogger(StatementDeadlines.class);

    /** What runs a statement; it may throw what JDBC throws. */
    interface Call<T> {
        T run() throws SQLException;
    }

    private final Map<Statement, Long> running = new ConcurrentHashMap<>();
    /** The thread that cancels, started with the first statement given a deadline. */
    private volatile ScheduledExecutorService sweeper;

    private ScheduledExecutorService sweeper() {
        ScheduledExecutorService started = sweeper;
        if (started != null) {
            return started;
        }
        synchronized (this) {
            if (sweeper == null) {
                sweeper = Executors.newSingleThreadScheduledExecutor(task -> {
                    Thread thread = new Thread(task, "verso-statement-deadlines");
                    thread.setDaemon(true);
                    return thread;
                });
                sweeper.scheduleWithFixedDelay(this::cancelOverdue, PERIOD.toMillis(), PERIOD.toMillis(),
                        TimeUnit.MILLISECONDS);
            }
            return sweeper;
        }
    }

    /** Runs {@code call}, which executes {@code statement}, cancelling the statement after {@code timeoutMillis}. */
    <T> T within(Statement statement, long timeoutMillis, Call<T> call) throws SQLException {
        if (timeoutMillis <= 0) {
            return call.run();
        }
        sweeper();
        running.put(statement, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        try {
            return call.run();
        } finally {
            running.remove(statement);
        }
    }

    private void cancelOverdue() {
        long now = System.nanoTime();
        running.forEach((statement, deadline) -> {
            if (now - deadline >= 0 && running.remove(statement, deadline)) {
                try {
                    statement.cancel();
                } catch (SQLException | RuntimeException e) {
                    log.warn("could not cancel a statement past its deadline", e);
                }
            }
        });
    }

    @Override
    public synchronized void close() {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
    }
}
