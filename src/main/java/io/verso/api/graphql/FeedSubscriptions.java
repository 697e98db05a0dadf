package io.verso.api.graphql;

import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.schema.DataFetchingEnvironment;
import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import io.verso.error.VersoException;
import io.verso.feed.ChangeFeed;
import io.verso.feed.FeedCursor;
import io.verso.feed.FeedStreams;
import io.verso.security.Caller;
import io.verso.security.VersoPrincipal;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.reactivestreams.Publisher;
import org.springframework.graphql.execution.ErrorType;
import org.springframework.graphql.execution.SubscriptionExceptionResolverAdapter;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * The GraphQL subscription of a table's change feed, {@code <t>_changes(after)}: one event per
 * commit, exactly the changes the REST feed gives ({@link ChangeFeed}), followed live by
 * {@link FeedStreams} (so commits made on any instance arrive). It reads for the subscriber: the
 * principal the WebSocket session authenticated ({@link WebSocketAuthentication}), or the HTTP
 * request's.
 */
@Component
class FeedSubscriptions extends SubscriptionExceptionResolverAdapter {

    /** The GraphQLContext key of the principal a WebSocket session authenticated. */
    static final String PRINCIPAL = "verso.principal";

    private final ChangeFeed feed;
    private final FeedStreams streams;

    FeedSubscriptions(ChangeFeed feed, FeedStreams streams) {
        this.feed = feed;
        this.streams = streams;
    }

    /** The publisher of {@code <table>_changes(after)}; a bad table or cursor fails here, before any event. */
    Publisher<Map<String, Object>> subscribe(DataFetchingEnvironment env, String table) {
        VersoPrincipal principal = env.getGraphQlContext().getOrDefault(PRINCIPAL, Caller.current());
        String afterArgument = env.getArgument("after");
        long after = FeedCursor.after(afterArgument, null);
        ChangeFeed.Page first = Caller.as(principal, () -> feed.page(table, after, ChangeFeed.DEFAULT_LIMIT));
        return Flux.create(sink -> {
            AtomicBoolean cancelled = new AtomicBoolean();
            Demand demand = new Demand();
            sink.onDispose(() -> cancelled.set(true));
            sink.onRequest(demand::add);
            Caller.as(principal, () -> {
                streams.follow(first.table(), first, new Sink(sink, cancelled, demand));
                return null;
            });
        }, FluxSink.OverflowStrategy.BUFFER);
    }

    /**
     * What the WebSocket has asked for: a stream's thread waits for it before it hands on an event, so a slow
     * subscriber backs up into the stream's bounded queue (and is ended there) rather than into a buffer here.
     */
    private static final class Demand {
        private final Semaphore requested = new Semaphore(0);
        private volatile boolean unbounded;

        void add(long n) {
            if (n >= Integer.MAX_VALUE / 2) {
                unbounded = true;
                requested.release();
            } else {
                requested.release((int) n);
            }
        }

        boolean take(Duration wait) throws InterruptedException {
            return unbounded || requested.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** One commit's changes as the subscription's event: the REST feed's JSON, commit sequences as strings. */
    static Map<String, Object> event(FeedStreams.CommitChanges commit) {
        List<Map<String, Object>> changes = new ArrayList<>(commit.changes().size());
        for (ChangeFeed.Change c : commit.changes()) {
            Map<String, Object> change = new LinkedHashMap<>();
            change.put("commit", Long.toString(c.commit()));
            change.put("op", c.op());
            change.put("key", c.key());
            change.put("row", c.row());
            change.put("before", c.before());
            changes.add(change);
        }
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("commit", Long.toString(commit.commit()));
        event.put("changes", changes);
        return event;
    }

    /** Hands the stream's commits to the subscriber; a cancelled subscription ends the stream at its next event. */
    private record Sink(FluxSink<Map<String, Object>> sink, AtomicBoolean cancelled, Demand demand)
            implements FeedStreams.Sink {
        @Override
        public void commit(FeedStreams.CommitChanges changes) throws IOException {
            try {
                while (!demand.take(Duration.ofSeconds(1))) {
                    alive();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("the service is stopping");
            }
            alive();
            sink.next(event(changes));
        }

        @Override
        public void heartbeat() throws IOException {
            alive();
        }

        private void alive() throws IOException {
            if (cancelled.get() || sink.isCancelled()) {
                throw new IOException("the subscriber cancelled the subscription");
            }
        }

        @Override
        public void failed(RuntimeException error) {
            sink.error(error);
        }

        @Override
        public void end() {
            sink.complete();
        }
    }

    /** A stream that fails after it started (history deleted under it, database away) ends with its code. */
    @Override
    protected List<GraphQLError> resolveToMultipleErrors(Throwable exception) {
        if (!(exception instanceof VersoException verso)) {
            return null;
        }
        Problem problem = Problem.of(verso);
        return List.of(GraphqlErrorBuilder.newError().errorType(verso.code() == ErrorCode.INTERNAL_ERROR
                ? ErrorType.INTERNAL_ERROR : ErrorType.BAD_REQUEST).message(problem.detail())
                .extensions(GraphqlErrors.extensions(problem)).build());
    }
}
