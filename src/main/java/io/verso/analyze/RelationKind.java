package io.verso.analyze;

/**
 * How a relation of a read is served: its current rows, its winners at a commit, every version,
 * every change of its current rows ({@code changes(t)}), or a range of system time.
 */
public enum RelationKind {
    CURRENT, AS_OF, HISTORY, CHANGES,
    /**
     * The versions of a system-versioned table current at some commit in (rangeFrom, asOf]: FOR
     * SYSTEM_TIME FROM … TO and BETWEEN reduced to commits; ALL leaves both bounds null.
     */
    RANGE
}
