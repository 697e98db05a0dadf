package io.verso.replica;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The primary's latest commit as each replica check found it, over a bounded window: a replica's lag
 * in seconds is how long ago the primary held no more than what the replica has replayed. A replica a
 * few milliseconds behind a primary that never stops writing so lags about one check interval; one
 * that stopped replaying lags for as long as it stopped, also across its own restart. (Measuring from
 * the last check that found a replica fully caught up instead grows without bound under steady writes.)
 * Used by the single checking thread only.
 */
final class PrimaryTimeline {

    private record Sample(long nanos, long latest) {
    }

    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private final long windowNanos;

    /** Keeps samples for {@code windowNanos}: lags beyond it read as at least the window. */
    PrimaryTimeline(long windowNanos) {
        this.windowNanos = windowNanos;
    }

    /** The primary's latest commit, as found at {@code nanos} (System.nanoTime). */
    void record(long nanos, long latest) {
        samples.addLast(new Sample(nanos, latest));
        while (samples.size() > 2 && nanos - samples.peekFirst().nanos > windowNanos) {
            samples.removeFirst();
        }
    }

    /** Seconds since the primary last held no commit beyond {@code replayed}: 0 when it holds none now. */
    double secondsBehind(long replayed, long nanos) {
        Iterator<Sample> newestFirst = samples.descendingIterator();
        if (!newestFirst.hasNext()) {
            return 0;
        }
        Sample newest = newestFirst.next();
        if (newest.latest <= replayed) {
            return 0;
        }
        // The newest sample it had caught up with; the primary moved on at the sample after it.
        Sample after = newest;
        while (newestFirst.hasNext()) {
            Sample s = newestFirst.next();
            if (s.latest <= replayed) {
                return (nanos - after.nanos) / 1e9;
            }
            after = s;
        }
        return (nanos - after.nanos) / 1e9;
    }
}
