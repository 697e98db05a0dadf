package io.verso.engine;

import java.util.function.Function;

/**
 * Chooses where each read-only request runs: the primary, or a read replica that has replayed
 * what the request must see (io.verso.replica). The engine consults it once per read request and
 * tells it of every commit; writes always run on the primary.
 */
public interface ReadRouter {

    /**
     * Runs {@code attempt} (one whole read transaction) on a replica or the primary, possibly more
     * than once: a replica attempt whose snapshot turns out too old, or whose replica fails, is
     * thrown away and run again elsewhere. Exceptions of the last attempt reach the caller as thrown.
     */
    ExecutionResult read(Function<ReadTarget, ExecutionResult> attempt);

    /** A request made {@code commit} on the primary; {@code catalogChanged} when it changed the catalog. */
    void committed(long commit, boolean catalogChanged);

    /** Where one attempt runs, told what its snapshot holds before any statement runs. */
    interface ReadTarget {

        /**
         * The attempt's snapshot holds commits up to {@code latestCommit} at catalog version
         * {@code catalogVersion}; throws to abandon the attempt when that is too old to answer from.
         */
        void snapshot(long latestCommit, long catalogVersion);

        /**
         * Whether the attempt runs on the primary, where every commit this instance has made or read is
         * visible: then a read of current rows may report such a commit instead of reading the latest one.
         */
        default boolean primary() {
            return true;
        }
    }

    /** Everything on the primary: the router when no replica is configured. */
    ReadRouter PRIMARY_ONLY = new ReadRouter() {
        @Override
        public ExecutionResult read(Function<ReadTarget, ExecutionResult> attempt) {
            return attempt.apply((latestCommit, catalogVersion) -> { });
        }

        @Override
        public void committed(long commit, boolean catalogChanged) {
        }
    };
}
