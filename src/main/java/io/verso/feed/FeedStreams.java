package io.verso.feed;

import io.verso.security.Caller;
import io.verso.security.VersoPrincipal;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Follows a table's changes live: pages of {@link ChangeFeed} handed to a sink one commit at a
 * time, then waits for the next commit ({@link CommitSignal}). One thread per stream: a stream
 * spends its life waiting, and the number of streams is bounded by the server's connections.
 */
@Component
public class FeedStreams implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(FeedStreams.class);
    static final Duration HEARTBEAT = Duration.ofSeconds(15);

    /** The changes of one commit, sent as one event so that resuming after its id loses nothing. */
    public record CommitChanges(long commit, List<ChangeFeed.Change> changes) {
    }

    /** Where a stream's events go; an IOException ends the stream (the client went away). */
    public interface Sink {
        void commit(CommitChanges changes) throws IOException;

        void heartbeat() throws IOException;

        void failed(RuntimeException error);

        /** The service is stopping: end the response so the client reconnects (to another instance). */
        void end();
    }

    private final ChangeFeed feed;
    private final CommitSignal signal;
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "verso-feed-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    public FeedStreams(ChangeFeed feed, CommitSignal signal) {
        this.feed = feed;
        this.signal = signal;
    }

    /** Starts following {@code table} after {@code after}, its first page already read (and checked) by the caller. */
    public void follow(String table, ChangeFeed.Page first, Sink sink) {
        // The stream reads on its own thread for the caller who opened it, with the caller's privileges.
        VersoPrincipal caller = Caller.current();
        executor.execute(() -> {
            try {
                Caller.as(caller, () -> {
                    try {
                        run(table, first, sink);
                        return null;
                    } catch (IOException | InterruptedException e) {
                        throw new StreamEnded(e);
                    }
                });
            } catch (StreamEnded ended) {
                if (ended.getCause() instanceof InterruptedException) {
                    sink.end();
                } else {
                    log.debug("Feed stream of {} ended: {}", table, ended.getCause().toString());
                }
            } catch (RuntimeException e) {
                sink.failed(e);
            }
        });
    }

    private void run(String table, ChangeFeed.Page page, Sink sink) throws IOException, InterruptedException {
        while (true) {
            for (CommitChanges commit : byCommit(page.changes())) {
                sink.commit(commit);
            }
            long cursor = page.next();
            if (!page.more()) {
                // Caught up: wait for a later commit, with a heartbeat now and then so a gone client is noticed.
                while (signal.awaitAfter(cursor, HEARTBEAT) <= cursor) {
                    sink.heartbeat();
                }
            }
            page = feed.page(table, cursor, ChangeFeed.DEFAULT_LIMIT);
        }
    }

    static List<CommitChanges> byCommit(List<ChangeFeed.Change> changes) {
        List<CommitChanges> out = new ArrayList<>();
        List<ChangeFeed.Change> current = new ArrayList<>();
        for (ChangeFeed.Change change : changes) {
            if (!current.isEmpty() && current.get(0).commit() != change.commit()) {
                out.add(new CommitChanges(current.get(0).commit(), current));
                current = new ArrayList<>();
            }
            current.add(change);
        }
        if (!current.isEmpty()) {
            out.add(new CommitChanges(current.get(0).commit(), current));
        }
        return out;
    }

    private volatile boolean running;

    @Override
    public void start() {
        running = true;
    }

    /**
     * Ends every stream before the web server's graceful shutdown (a later phase stops first), which
     * would otherwise wait for these never-ending responses.
     */
    @Override
    public void stop() {
        running = false;
        executor.shutdownNow();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Carries a stream's end (closed connection, interruption) out of {@link Caller#as}. */
    private static final class StreamEnded extends RuntimeException {
        StreamEnded(Exception cause) {
            super(cause);
        }
    }
}
