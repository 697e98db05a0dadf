package io.verso.engine;

/**
 * The commits of the HTTP request on this thread: the caller's {@code Verso-Min-Commit} (the latest
 * commit it has seen, which its reads must see too) and the latest commit this request made or
 * read, which the response returns as {@code Verso-Commit} for the caller to send back.
 */
public final class ClientCommit {

    private static final ThreadLocal<long[]> CURRENT = new ThreadLocal<>();

    private ClientCommit() {
    }

    /** Starts a request that has seen {@code minCommit}, or -1 when it does not say. */
    public static void begin(long minCommit) {
        CURRENT.set(new long[] {minCommit, 0});
    }

    public static void end() {
        CURRENT.remove();
    }

    /** The commit the caller has seen; -1 when it does not say (or outside an HTTP request). */
    public static long minCommit() {
        long[] state = CURRENT.get();
        return state == null ? -1 : state[0];
    }

    /**
     * Runs {@code read} as a caller that has seen {@code commit}: a replica serves it only once it holds that
     * commit (else the primary does). A change feed resuming after a commit needs a snapshot that holds it,
     * whichever instance handed the cursor out; on a thread outside an HTTP request too (event streams).
     */
    public static <T> T atLeast(long commit, java.util.function.Supplier<T> read) {
        long[] state = CURRENT.get();
        if (state == null) {
            begin(commit);
            try {
                return read.get();
            } finally {
                end();
            }
        }
        long before = state[0];
        state[0] = Math.max(before, commit);
        try {
            return read.get();
        } finally {
            state[0] = before;
        }
    }

    /** Records that this request made or read {@code commit}. */
    public static void seen(long commit) {
        long[] state = CURRENT.get();
        if (state != null && commit > state[1]) {
            state[1] = commit;
        }
    }

    /** The latest commit this request made or read, 0 when none. */
    public static long seen() {
        long[] state = CURRENT.get();
        return state == null ? 0 : state[1];
    }
}
