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

    /**
     * The tables written by the commits after {@code after} up to {@code upTo}, from the commit log: a table not
     * among them has no change in that range. Empty when a commit of the range may have changed what a name
     * stands for (one that touched a table without writing rows: CREATE, ALTER, RENAME, DROP ...), so that the
     * caller reads every table rather than trust names.
     */
    public java.util.Optional<java.util.Set<String>> tablesWritten(long after, long upTo) {
        java.util.Set<String> tables = new java.util.HashSet<>();
        boolean[] definitions = new boolean[1];
        new org.springframework.jdbc.core.JdbcTemplate(dataSource).query("SELECT table_name, row_count FROM "
                + "verso.commit_tables WHERE commit_seq > ? AND commit_seq <= ?", rs -> {
                    tables.add(rs.getString(1));
                    definitions[0] |= rs.getLong(2) == 0;
                }, after, upTo);
        return definitions[0] ? java.util.Optional.empty() : java.util.Optional.of(tables);
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

    /**
     * Told of what the listener hears, on its thread: {@link #listening} once it listens (commits before may
     * have gone unheard), {@link #signalled} for the latest commit of each batch of notifications, and
     * {@link #deaf} when it stopped listening (until the next {@link #listening}, commits go unheard).
     */
    public interface Subscriber {
        void listening();

        void signalled(long commit);

        void deaf();
    }

    private final java.util.List<Subscriber> subscribers = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Adds {@code subscriber} and starts listening, if no stream started it already. */
    public void subscribe(Subscriber subscriber) {
        subscribers.add(subscriber);
        startListening();
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
                subscribers.forEach(Subscriber::listening);
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
                    long signalled = max;
                    subscribers.forEach(subscriber -> subscriber.signalled(signalled));
                }
            } catch (Exception e) {
                subscribers.forEach(Subscriber::deaf);
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
