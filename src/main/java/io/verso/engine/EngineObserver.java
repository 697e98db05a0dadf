package io.verso.engine;

import io.verso.error.ErrorCode;
import java.time.Duration;

/**
 * Told how each request ended, so operations can count and time them without the engine knowing
 * how they are reported. Called on the request's thread after PostgreSQL committed (or the request
 * failed); implementations must be cheap and must not throw.
 */
public interface EngineObserver {

    /** A request that made commit {@code commit}, writing {@code rows} rows, took {@code elapsed}. */
    void commit(long commit, long rows, Duration elapsed);

    /** A read-only request took {@code elapsed}; {@code asOf} when a statement read at a fixed past commit. */
    void read(boolean asOf, Duration elapsed);

    /** A request failed with {@code code}. */
    void error(ErrorCode code);

    /** Sorts a finished request into {@link #commit} or {@link #read}. */
    default void executed(ExecutionResult result, Duration elapsed) {
        if (result.commit() != null) {
            long rows = result.results().stream()
                    .mapToLong(r -> r instanceof StatementResult.Written w ? w.rows() : 0).sum();
            commit(result.commit(), rows, elapsed);
        } else {
            read(result.results().stream()
                    .anyMatch(r -> r instanceof StatementResult.Rows rows && rows.pinned()), elapsed);
        }
    }
}
