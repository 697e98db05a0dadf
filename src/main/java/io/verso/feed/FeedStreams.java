package io.verso.feed;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Caller;
import io.verso.security.Credentials;
import io.verso.security.VersoPrincipal;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Follows tables' changes live: pages of {@link ChangeFeed} handed to a sink one commit at a time.
 * <p>
 * A stream that starts behind reads its own pages, for its caller, until it is caught up. From then on
 * one hub thread serves every caught-up stream: when a commit becomes visible ({@link CommitSignal}) it
 * reads each followed table's changes once per position its streams wait at (normally one) and hands
 * them to all of them, so 500 streams of a table cost one read per commit, not 500, and a table the commit
 * did not write (the commit log says which it wrote) costs none. Each stream sends on
 * a thread of its own from a queue of at most {@code verso.feed.max-pending} commits: a slow client
 * blocks only its own sending, and one that falls that far behind is ended ({@code OVERLOADED}) to
 * resume after the last event it received, rather than being buffered without bound.
 * <p>
 * Trust is checked while a stream is open, not only when it opens: before every delivery and, while
 * no commit comes, every {@code verso.feed.check-interval}, the stream's credential must still hold
 * (key not revoked, token not expired: {@link Credentials#valid}) and its caller must still hold SELECT
 * on the table ({@link ChangeFeed#authorize}: a dropped grant or deleted role). A stream that fails
 * either ends with the error a new request would get. A round of checks ({@link TrustRound}) looks each
 * table up once and checks each credential once, however many streams share them.
 * <p>
 * Streams are bounded per caller ({@code max-streams-per-caller}, then {@code 429 RATE_LIMITED}) and in
 * total ({@code max-streams}, then {@code 503 OVERLOADED}), both with Retry-After.
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
    private final Credentials credentials;
    private final FeedProperties properties;
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "verso-feed-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });
    /** Caught-up streams, served by the hub. */
    private final Set<Stream> waiting = ConcurrentHashMap.newKeySet();
    private final StreamLimits limits;
    private volatile boolean running;
    private Thread hub;

    public FeedStreams(ChangeFeed feed, CommitSignal signal, Credentials credentials, FeedProperties properties) {
        this.feed = feed;
        this.signal = signal;
        this.credentials = credentials;
        this.properties = properties;
        this.limits = new StreamLimits(properties.maxStreams(), properties.maxStreamsPerCaller());
    }

    /** One open stream. Its cursor is the sender's until it joins {@link #waiting}, then the hub's. */
    private static final class Stream {
        final String table;
        final VersoPrincipal principal;
        final Sink sink;
        final BlockingQueue<Object> queue;
        volatile long cursor;
        volatile boolean ended;

        Stream(String table, VersoPrincipal principal, Sink sink, int pending) {
            this.table = table;
            this.principal = principal;
            this.sink = sink;
            this.queue = new ArrayBlockingQueue<>(pending + 1);
        }
    }

    /** The last item of a stream's queue: why it ends (null: the service stops, the client reconnects). */
    private record End(RuntimeException error) {
    }

    /**
     * Starts following {@code table} after its first page, already read (and checked) by the caller, for the
     * calling principal. Throws {@code RATE_LIMITED} or {@code OVERLOADED} when the caller's or the instance's
     * streams are at their limit.
     */
    public void follow(String table, ChangeFeed.Page first, Sink sink) {
        VersoPrincipal caller = Caller.current();
        limits.take(caller);
        Stream stream = new Stream(table, caller, sink, Math.max(1, properties.maxPending()));
        try {
            executor.execute(() -> send(stream, first));
        } catch (RuntimeException e) {
            limits.release(caller);
            throw e;
        }
    }

    /** Streams open on this instance. */
    public int open() {
        return limits.open();
    }

    /** A stream's own thread: its catch-up reads, then whatever the hub queues for it, until it ends. */
    private void send(Stream stream, ChangeFeed.Page first) {
        try {
            ChangeFeed.Page page = first;
            while (true) {
                for (CommitChanges commit : byCommit(page.changes())) {
                    stream.sink.commit(commit);
                }
                if (!page.more()) {
                    break;
                }
                if (!credentials.valid(stream.principal)) {
                    throw TrustRound.revoked(stream.principal, stream.table);
                }
                long after = page.next();
                page = Caller.as(stream.principal, () -> feed.page(stream.table, after, ChangeFeed.DEFAULT_LIMIT));
            }
            // Said at once, so a stream opened with nothing to send yet gets its headers now: an EventSource
            // opens, and a client or proxy with a short header timeout keeps waiting.
            stream.sink.heartbeat();
            stream.cursor = page.next();
            waiting.add(stream);
            while (true) {
                Object item = stream.queue.poll(HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
                if (item == null) {
                    stream.sink.heartbeat();
                } else if (item instanceof CommitChanges commit) {
                    stream.sink.commit(commit);
                } else if (item instanceof End end) {
                    if (end.error() == null) {
                        stream.sink.end();
                    } else {
                        stream.sink.failed(end.error());
                    }
                    return;
                }
            }
        } catch (IOException gone) {
            log.debug("Feed stream of {} ended: {}", stream.table, gone.toString());
        } catch (InterruptedException stopping) {
            stream.sink.end();
        } catch (RuntimeException e) {
            stream.sink.failed(e);
        } finally {
            stream.ended = true;
            waiting.remove(stream);
            limits.release(stream.principal);
        }
    }

    /** The hub: waits for commits (or the check interval), hands them out, and checks the streams' trust. */
    private void serve() {
        long seen = 0;
        long checked = System.nanoTime();
        while (running) {
            try {
                if (waiting.isEmpty()) {
                    // Nothing to serve: no commit-log reads, no listening connection, until a stream catches up.
                    Thread.sleep(Math.min(100, properties.checkInterval().toMillis()));
                    continue;
                }
                long latest = signal.awaitAfter(seen, properties.checkInterval());
                deliver(latest);
                seen = latest;
                if (System.nanoTime() - checked >= properties.checkInterval().toNanos()) {
                    checked = System.nanoTime();
                    TrustRound round = new TrustRound(feed, credentials);
                    for (Stream stream : waiting) {
                        allowed(stream, round);
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The database away: the streams wait, and the next round tries again.
                log.warn("Serving change streams failed ({}); retrying", e.toString());
                try {
                    Thread.sleep(properties.checkInterval().toMillis());
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** Reads each table's changes after each position its caught-up streams wait at, once, for all of them. */
    private void deliver(long latest) {
        Map<String, Map<Long, List<Stream>>> groups = new LinkedHashMap<>();
        long from = latest;
        for (Stream stream : waiting) {
            if (stream.cursor < latest) {
                from = Math.min(from, stream.cursor);
                groups.computeIfAbsent(stream.table, t -> new LinkedHashMap<>())
                        .computeIfAbsent(stream.cursor, c -> new ArrayList<>()).add(stream);
            }
        }
        if (groups.isEmpty()) {
            return;
        }
        // A table no commit of the range wrote has nothing to read: its streams move on to latest without a read,
        // so a commit costs one read per table it wrote, not one per table followed.
        java.util.Optional<Set<String>> written = signal.tablesWritten(from, latest);
        groups.forEach((table, byCursor) -> byCursor.forEach((cursor, streams) -> {
            if (written.isPresent() && !written.get().contains(table)) {
                streams.forEach(s -> s.cursor = Math.max(s.cursor, latest));
            } else {
                deliver(table, cursor, streams);
            }
        }));
    }

    private void deliver(String table, long cursor, List<Stream> streams) {
        long after = cursor;
        while (true) {
            long from = after;
            ChangeFeed.Page page;
            try {
                // Read with every privilege, once; each stream's own right to it is checked before it is handed over.
                page = Caller.asSystem(() -> feed.page(table, from, ChangeFeed.DEFAULT_LIMIT));
            } catch (VersoException.UserError e) {
                // The table dropped, or its history deleted under the streams: each ends with the code.
                streams.forEach(s -> end(s, e));
                return;
            }
            List<CommitChanges> commits = byCommit(page.changes());
            TrustRound round = new TrustRound(feed, credentials);
            for (Stream stream : streams) {
                if (stream.ended || !commits.isEmpty() && !allowed(stream, round)) {
                    continue;
                }
                for (CommitChanges commit : commits) {
                    // The queue keeps one place beyond max-pending for the End that a slow consumer gets here.
                    if (stream.queue.size() >= properties.maxPending() || !stream.queue.offer(commit)) {
                        end(stream, new VersoException.ServerError(ErrorCode.OVERLOADED, "the client fell "
                                + properties.maxPending() + " commits behind this change stream "
                                + "(verso.feed.max-pending); resume after the last event received", null));
                        break;
                    }
                }
                stream.cursor = page.next();
            }
            if (!page.more()) {
                return;
            }
            after = page.next();
        }
    }

    /** Whether the stream's credential and grant still hold (asked of {@code round}); if not, it is ended. */
    private boolean allowed(Stream stream, TrustRound round) {
        VersoException.UserError refused = round.refusal(stream.principal, stream.table);
        if (refused != null) {
            end(stream, refused);
        }
        return refused == null;
    }

    /** Ends a stream: what it had waiting is dropped (its client resumes after the last event it received). */
    private void end(Stream stream, RuntimeException error) {
        waiting.remove(stream);
        stream.ended = true;
        stream.queue.clear();
        stream.queue.offer(new End(error));
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

    @Override
    public synchronized void start() {
        running = true;
        hub = new Thread(this::serve, "verso-feed-hub");
        hub.setDaemon(true);
        hub.start();
    }

    /**
     * Ends every stream before the web server's graceful shutdown (a later phase stops first), which
     * would otherwise wait for these never-ending responses.
     */
    @Override
    public synchronized void stop() {
        running = false;
        if (hub != null) {
            hub.interrupt();
        }
        executor.shutdownNow();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
