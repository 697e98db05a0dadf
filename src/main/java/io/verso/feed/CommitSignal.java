package io.verso.feed;

import io.verso.commits.CommitRepository;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Wakes feed streams when a commit becomes visible, on any instance. Every write commit sends
 * {@code NOTIFY verso_commits} inside its transaction, so PostgreSQL delivers it only once the
 * commit is visible; one connection per instance LISTENs (started with the first stream). Waiters
 * also wake on their own after {@code poll}, and then look at the commit log, so a lost listener
 * connection costs latency, never a change.
 */
@Component
public class CommitSignal implements DisposableBean {

    public static final String CHANNEL = io.verso.engine.StatementEngine.COMMIT_CHANNEL;
    private static final Logger log = LoggerFactory.getLogger(CommitSignal.class);

    private final DataSource dataSource;
    private final CommitRepository commits;
    private final Object monitor = new Object();
    private long latestSignalled;
    private Thread listener;
    private volatile boolean stopped;

    public CommitSignal(DataSource dataSource, CommitRepository commits) {
        this.dataSource = dataSource;
        this.commits = commits;
    }

    /** The latest visible commit, read from the commit log. */
    public long latest() {
        return commits.latest();
    }

    /**
     * Returns the latest visible commit once it is after {@code commit}, or after {@code timeout}
     * whatever it is.
     */
    public long awaitAfter(long commit, Duration timeout) throws InterruptedException {
        startListening();
        long deadline = System.nanoTime() + timeout.toNanos();
        long poll = Duration.ofSeconds(1).toNanos();
        while (true) {
            long latest = latest();
            long left = deadline - System.nanoTime();
            if (latest > commit || left <= 0) {
                return latest;
            }
            synchronized (monitor) {
                if (latestSignalled <= commit) {
                    long wait = Math.min(left, poll);
                    monitor.wait(Math.max(1, wait / 1_000_000), (int) (wait % 1_000_000));
                }
            }
        }
    }

    private synchronized void startListening() {
        if (listener == null && !stopped) {
            listener = new Thread(this::listen, "verso-commit-listener");
            listener.setDaemon(true);
            listener.start();
        }
    }

    private void listen() {
        while (!stopped) {
            try (Connection connection = dataSource.getConnection()) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + CHANNEL);
                }
                connection.setAutoCommit(true);
                PGConnection pg = connection.unwrap(PGConnection.class);
                while (!stopped) {
                    PGNotification[] notifications = pg.getNotifications(1000);
                    if (notifications == null || notifications.length == 0) {
                        continue;
                    }
                    long max = 0;
                    for (PGNotification n : notifications) {
                        try {
                            max = Math.max(max, Long.parseLong(n.getParameter()));
                        } catch (NumberFormatException ignored) {
                            // Not ours: every notification still wakes the waiters, who read the commit log.
                        }
                    }
                    synchronized (monitor) {
                        latestSignalled = Math.max(latestSignalled, max);
                        monitor.notifyAll();
                    }
                }
            } catch (Exception e) {
                if (!stopped) {
                    log.warn("Listening for commits failed ({}); streams poll the commit log until it is back",
                            e.toString());
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
        }
    }

    @Override
    public void destroy() {
        stopped = true;
        Thread running = listener;
        if (running != null) {
            running.interrupt();
        }
    }
}
