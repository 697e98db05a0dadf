package io.verso.api.graphql;

import graphql.GraphQLContext;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one GraphQL request has learned so far, kept in its GraphQLContext: the commit its reads
 * are served at (fixed by its first engine call, then used to pin every later read), the catalog
 * versions they were served under, the commit its mutations made, and how many rows it has returned.
 */
final class RequestState {

    private Long readCommit;
    private Long writeCommit;
    /** The catalog versions its reads' snapshots held, {@link #UNKNOWN_VERSION} for one that did not say. */
    private final Set<Long> catalogVersions = new HashSet<>(2);
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

    /** What an engine read returned as its snapshot's catalog version (null when it did not know it). */
    synchronized void readUnder(Long catalogVersion) {
        catalogVersions.add(catalogVersion == null ? UNKNOWN_VERSION : catalogVersion);
    }

    /** The catalog versions this request's reads were served under, empty before its first read. */
    synchronized Set<Long> catalogVersions() {
        return Set.copyOf(catalogVersions);
    }

    static final long UNKNOWN_VERSION = -1;

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
