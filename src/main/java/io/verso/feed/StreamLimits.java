package io.verso.feed;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.VersoPrincipal;
import java.util.HashMap;
import java.util.Map;

/**
 * How many change streams are open, in total and per principal, against {@code verso.feed.max-streams} and
 * {@code max-streams-per-caller}: a stream takes a place before it starts and gives it back when it ends.
 */
final class StreamLimits {

    private final int total;
    private final int perCaller;
    private final Map<String, Integer> byCaller = new HashMap<>();
    private int open;

    StreamLimits(int total, int perCaller) {
        this.total = total;
        this.perCaller = perCaller;
    }

    /** Takes a place for {@code caller}'s stream, or throws 503 OVERLOADED (instance full) / 429 RATE_LIMITED. */
    synchronized void take(VersoPrincipal caller) {
        if (open >= total) {
            throw new VersoException.ServerError(ErrorCode.OVERLOADED, "this instance has " + open
                    + " change streams open, its limit (verso.feed.max-streams); retry shortly", null);
        }
        // With security off every caller is the same one: only the total bounds them.
        if (caller.name() != null && byCaller.getOrDefault(caller.name(), 0) >= perCaller) {
            throw VersoException.user(ErrorCode.RATE_LIMITED, caller.name() + " has " + perCaller
                    + " change streams open, its limit (verso.feed.max-streams-per-caller); close one, or retry "
                    + "after Retry-After");
        }
        open++;
        if (caller.name() != null) {
            byCaller.merge(caller.name(), 1, Integer::sum);
        }
    }

    synchronized void release(VersoPrincipal caller) {
        open--;
        if (caller.name() != null) {
            byCaller.computeIfPresent(caller.name(), (name, n) -> n > 1 ? n - 1 : null);
        }
    }

    synchronized int open() {
        return open;
    }
}
