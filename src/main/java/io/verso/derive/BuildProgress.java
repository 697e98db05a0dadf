package io.verso.derive;

import java.util.function.Supplier;

/**
 * How far the build of a derived table over its sources' existing history has got, for whoever
 * runs a CREATE DERIVED TABLE on a caller's behalf and answers "how far?" meanwhile (the REST
 * build resource). Statements carry no listener, so it travels with the thread that runs the
 * statement, as the caller does ({@code security.Caller}); without one, progress goes to the log
 * and the metrics only.
 */
public interface BuildProgress {

    /** The build will replay {@code commits} earlier source commits, then apply its own. */
    void planned(String table, int commits);

    /** {@code commits} of them are applied, having written {@code rows} versions so far. */
    void applied(String table, int commits, long rows);

    BuildProgress NONE = new BuildProgress() {
        @Override
        public void planned(String table, int commits) {
        }

        @Override
        public void applied(String table, int commits, long rows) {
        }
    };

    /** Runs {@code work} on this thread with {@code listener} hearing of every build it runs. */
    static <T> T reporting(BuildProgress listener, Supplier<T> work) {
        Holder.CURRENT.set(listener);
        try {
            return work.get();
        } finally {
            Holder.CURRENT.remove();
        }
    }

    /** The listener of the running thread, or {@link #NONE}. */
    static BuildProgress current() {
        BuildProgress listener = Holder.CURRENT.get();
        return listener == null ? NONE : listener;
    }

    /** The thread's listener: a class of its own, since an interface's fields are public. */
    final class Holder {
        private static final ThreadLocal<BuildProgress> CURRENT = new ThreadLocal<>();

        private Holder() {
        }
    }
}
