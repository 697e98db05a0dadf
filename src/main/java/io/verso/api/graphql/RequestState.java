package io.verso.api.graphql;

import graphql.GraphQLContext;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one GraphQL request has learned so far, kept in its GraphQLContext: the commit its reads
 * are served at (fixed by its first engine call, then used to pin every later read), the commit
 * its mutations made, and how many rows it has returned.
 */
final class RequestState {

    private Long readCommit;
    private Long writeCommit;
    private final AtomicLong rows = new AtomicLong();

    static RequestState of(GraphQLContext context) {
        return context.computeIfAbsent(RequestState.class, k -> new RequestState());
    }

    /** The commit reads of this request are served at, or null before its first read. */
    synchronized Long readCommit() {
        return readCommit;
    }

    synchronized void servedAt(long commit) {
        if (readCommit == null) {
            readCommit = commit;
        }
    }

    synchronized Long writeCommit() {
        return writeCommit;
    }

    synchronized void wrote(long commit) {
        writeCommit = commit;
    }

    /** Counts rows into the response, refusing (not truncating) past the configured maximum. */
    void addRows(int count, int max) {
        long total = rows.addAndGet(count);
        if (total > max) {
            throw VersoException.user(ErrorCode.INVALID_REQUEST, "the response would hold more than " + max
                    + " rows (verso.graphql.max-result-rows): narrow the where, lower the limits or page");
        }
    }
}
