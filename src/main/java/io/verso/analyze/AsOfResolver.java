package io.verso.analyze;

import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Expr;
import java.math.BigDecimal;
import java.util.List;

/** Turns an AS OF clause into a commit sequence, refusing each kind of bad operand with its own code. */
public final class AsOfResolver {

    /** Finds the latest commit made at or before a time; the engine asks the commit log. */
    @FunctionalInterface
    public interface Timestamps {
        long commitAt(Expr value, long latestCommit);
    }

    private final List<Object> params;
    private final long latestCommit;
    private final Timestamps timestamps;
    private final java.util.IdentityHashMap<AsOf, Long> resolved = new java.util.IdentityHashMap<>();
    private Instants instants;
    private boolean openByTime;

    /** Evaluates FOR SYSTEM_TIME bounds and finds commits by time; the engine asks the database. */
    public interface Instants {
        /** The time a constant expression names, refused with INVALID_SYSTEM_TIME when it is not one. */
        java.time.Instant at(Expr value);

        /** The latest commit at or before (strictly before, when {@code strict}) {@code t}, 0 when none. */
        long commitAt(java.time.Instant t, boolean strict, long latestCommit);
    }

    public AsOfResolver withInstants(Instants instants) {
        this.instants = instants;
        return this;
    }

    /**
     * A relation's FOR SYSTEM_TIME reduced to commits: {@code {rangeFrom, asOf}} of {@link RelationKind#RANGE}
     * (either null when unbounded), or for AS OF {@code {null, commit}}. Times map to commits exactly because
     * a version's row_start/row_end are the commit times of the commits that wrote and replaced it.
     */
    public Long[] resolveSystemTime(AsOf.SystemTime time, TableDef table) {
        if (time.kind() == AsOf.SystemTimeKind.TRANSACTION) {
            throw VersoException.at(ErrorCode.NOT_SUPPORTED, "FOR SYSTEM_TIME AS OF TRANSACTION is not supported: "
                    + "versions are kept by commit time, not transaction id", time.pos());
        }
        if (!takesSystemTime(table, time)) {
            throw VersoException.at(ErrorCode.NOT_SYSTEM_VERSIONED, "table " + table.name()
                    + " is not system-versioned" + (table.mode() == TableMode.VERSIONED
                    ? ": a VERSIONED table takes FOR SYSTEM_TIME AS OF only" : ""), time.pos());
        }
        for (Expr bound : new Expr[] {time.from(), time.to()}) {
            if (bound != null) {
                requireConstant(bound);
            }
        }
        if (instants == null) {
            throw VersoException.at(ErrorCode.AS_OF_NOT_SUPPORTED, "FOR SYSTEM_TIME is not available here", time.pos());
        }
        return switch (time.kind()) {
            case ALL -> new Long[] {null, null};
            case AS_OF -> {
                java.time.Instant at = instants.at(time.from());
                // row_start <= t < row_end, and a current version's row_end is the end of time: at or after it
                // no version is current, as in MariaDB (commit 0: nothing written yet).
                yield new Long[] {null, afterEndOfTime(at, table) ? 0L
                        : byTime(instants.commitAt(at, false, latestCommit))};
            }
            case FROM_TO, BETWEEN -> {
                java.time.Instant from = instants.at(time.from());
                java.time.Instant to = instants.at(time.to());
                boolean fromTo = time.kind() == AsOf.SystemTimeKind.FROM_TO;
                if ((fromTo ? !from.isBefore(to) : from.isAfter(to)) || afterEndOfTime(from, table)) {
                    // As MariaDB: FROM t1 TO t2 needs t1 < t2, BETWEEN t1 AND t2 needs t1 <= t2, else nothing is read
                    // (no version is current after commit 0).
                    yield new Long[] {0L, 0L};
                }
                // FROM: row_start < t2; BETWEEN: row_start <= t2. Both: row_end > t1.
                long upper = byTime(instants.commitAt(to, time.kind() == AsOf.SystemTimeKind.FROM_TO, latestCommit));
                yield new Long[] {instants.commitAt(from, false, latestCommit), upper};
            }
            case TRANSACTION -> throw new IllegalStateException();
        };
    }

    /** Whether {@code table} reads FOR SYSTEM_TIME {@code time}: a system-versioned table, or a VERSIONED one's AS OF. */
    public static boolean takesSystemTime(TableDef table, AsOf.SystemTime time) {
        return table.systemVersioned() || table.mode() == TableMode.VERSIONED && time.kind() == AsOf.SystemTimeKind.AS_OF;
    }

    /**
     * A lower bound at or after a system-versioned table's end of time: no version ends after it (MariaDB's
     * row_end > t). A VERSIONED table's FOR SYSTEM_TIME AS OF is its AS OF TIMESTAMP, which has no such end.
     */
    private static boolean afterEndOfTime(java.time.Instant t, TableDef table) {
        return table.systemVersioned() && !t.isBefore(TableDef.SystemPeriod.END_OF_TIME_INSTANT);
    }

    public AsOfResolver(List<Object> params, long latestCommit) {
        this(params, latestCommit, null);
    }

    public AsOfResolver(List<Object> params, long latestCommit, Timestamps timestamps) {
        this.params = params;
        this.latestCommit = latestCommit;
        this.timestamps = timestamps;
    }

    public long latestCommit() {
        return latestCommit;
    }

    /**
     * Whether a time was resolved to the latest commit of the snapshot: a commit made after the
     * snapshot (not yet replayed on a standby, say) may then be the one that time names, so such a
     * read is not fixed by its AS OF alone. A time resolved to an earlier commit is fixed: the next
     * commit in the snapshot is after it, and so is every later one (commit times never decrease).
     */
    public boolean openByTime() {
        return openByTime;
    }

    private long byTime(long commit) {
        openByTime |= commit >= latestCommit;
        return commit;
    }

    public long resolve(AsOf asOf) {
        if (asOf instanceof AsOf.SystemTime time) {
            throw VersoException.at(ErrorCode.NOT_SYSTEM_VERSIONED, "FOR SYSTEM_TIME applies to a table", time.pos());
        }
        if (asOf instanceof AsOf.AtTimestamp t) {
            // Before the first commit this is 0: every relation then reads no rows.
            return resolved.computeIfAbsent(asOf, a -> {
                requireConstant(t.value());
                if (timestamps == null) {
                    throw VersoException.at(ErrorCode.AS_OF_NOT_SUPPORTED, "AS OF TIMESTAMP is not available here",
                            a.pos());
                }
                return byTime(timestamps.commitAt(t.value(), latestCommit));
            });
        }
        long commit = asOf instanceof AsOf.AtCommit c ? c.commit() : fromParameter((AsOf.AtParameter) asOf);
        if (commit > latestCommit) {
            throw Refusals.asOfBeyondLatest(String.valueOf(commit), latestCommit, asOf.pos());
        }
        return commit;
    }

    /** The commit for a read of {@code table}, checked against its mode and deleted-history horizon. */
    public long resolve(AsOf asOf, TableDef table) {
        if (asOf instanceof AsOf.SystemTime time) {
            return resolveSystemTime(time, table)[1];
        }
        if (table.mode() == TableMode.SYSTEM && table.period() == null) {
            throw VersoException.at(ErrorCode.NOT_SYSTEM_VERSIONED, "table " + table.name()
                    + " is not system-versioned: it keeps no history", asOf.pos());
        }
        if (table.mode() == TableMode.UPSERT) {
            throw VersoException.at(ErrorCode.AS_OF_NOT_SUPPORTED, "table " + table.name()
                    + " is an UPSERT table and keeps no history: AS OF COMMIT needs a VERSIONED or APPEND table",
                    asOf.pos());
        }
        long commit = resolve(asOf);
        if (commit < table.horizon() && !(asOf instanceof AsOf.AtTimestamp && commit == 0)) {
            throw VersoException.at(ErrorCode.AS_OF_BEFORE_HORIZON, "commit " + commit + " is before the history horizon "
                    + table.horizon() + " of table " + table.name() + ": its history before that was deleted",
                    asOf.pos());
        }
        return commit;
    }

    private long fromParameter(AsOf.AtParameter p) {
        Object value = params.get(p.index());
        BigDecimal number;
        try {
            number = value instanceof Number n ? new BigDecimal(n.toString())
                    : value instanceof String s ? new BigDecimal(s.trim()) : null;
        } catch (NumberFormatException e) {
            number = null;
        }
        if (number == null) {
            throw VersoException.at(ErrorCode.AS_OF_NOT_INTEGER, "AS OF COMMIT parameter " + (p.index() + 1)
                    + " must be a commit sequence, a positive integer, not " + describe(value), p.pos());
        }
        if (number.signum() <= 0) {
            throw VersoException.at(ErrorCode.AS_OF_NOT_POSITIVE, "AS OF COMMIT parameter " + (p.index() + 1)
                    + " must be a positive commit sequence, not " + written(number), p.pos());
        }
        try {
            return number.longValueExact();
        } catch (ArithmeticException e) {
            if (number.stripTrailingZeros().scale() > 0) {
                throw VersoException.at(ErrorCode.AS_OF_NOT_INTEGER, "AS OF COMMIT parameter " + (p.index() + 1)
                        + " must be an integer, not " + written(number), p.pos());
            }
            throw Refusals.asOfBeyondLatest(written(number), latestCommit, p.pos());
        }
    }

    /** The number as written plainly, or in exponent form where that would take more than 40 digits (1E+999999999). */
    private static String written(BigDecimal number) {
        return Math.abs((long) number.precision() - number.scale()) > 40 || number.scale() > 40 ? number.toString()
                : number.toPlainString();
    }

    private static String describe(Object value) {
        return value == null ? "NULL" : value instanceof String s ? "'" + s + "'" : value.toString();
    }

    /** AS OF TIMESTAMP and FOR SYSTEM_TIME take a constant time: no column, no subquery (INVALID_EXPRESSION). */
    public static void requireConstant(Expr value) {
        if (value instanceof Expr.ColumnRef || value instanceof Expr.Subquery || value instanceof Expr.Exists
                || value instanceof Expr.InSubquery || value instanceof Expr.Quantified) {
            throw VersoException.at(ErrorCode.INVALID_EXPRESSION, "AS OF TIMESTAMP takes a time: a literal, "
                    + "a parameter or a constant expression", value.pos());
        }
        if (value instanceof Expr.FunctionCall f) {
            // Judged here as in any other clause (an unknown function, a wrong argument count, at its position):
            // the time is computed by PostgreSQL before the read is compiled.
            Function function = Function.resolve(f);
            if (function.aggregate || f.over() != null || function.kind == Function.Kind.WINDOW) {
                throw VersoException.at(ErrorCode.AGGREGATE_MISPLACED, "aggregate and window functions such as "
                        + function.sqlName() + " are not allowed in AS OF or FOR SYSTEM_TIME", f.pos());
            }
        } else if (value instanceof Expr.Cast c) {
            io.verso.catalog.ColumnType.from(c.type());
        }
        ReadAnalyzer.children(value).forEach(AsOfResolver::requireConstant);
    }
}
