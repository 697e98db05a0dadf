package io.verso.analyze;

import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.error.ErrorCode;
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

    public long resolve(AsOf asOf) {
        if (asOf instanceof AsOf.AtTimestamp t) {
            // Before the first commit this is 0: every relation then reads no rows.
            return resolved.computeIfAbsent(asOf, a -> {
                if (timestamps == null) {
                    throw VersoException.at(ErrorCode.AS_OF_NOT_SUPPORTED, "AS OF TIMESTAMP is not available here",
                            a.pos());
                }
                return timestamps.commitAt(t.value(), latestCommit);
            });
        }
        long commit = asOf instanceof AsOf.AtCommit c ? c.commit() : fromParameter((AsOf.AtParameter) asOf);
        if (commit > latestCommit) {
            throw VersoException.at(ErrorCode.AS_OF_BEYOND_LATEST,
                    "commit " + commit + " is after the latest commit " + latestCommit, asOf.pos());
        }
        return commit;
    }

    /** The commit for a read of {@code table}, checked against its mode and deleted-history horizon. */
    public long resolve(AsOf asOf, TableDef table) {
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
                    + " must be a positive commit sequence, not " + number.toPlainString(), p.pos());
        }
        try {
            return number.longValueExact();
        } catch (ArithmeticException e) {
            if (number.stripTrailingZeros().scale() > 0) {
                throw VersoException.at(ErrorCode.AS_OF_NOT_INTEGER, "AS OF COMMIT parameter " + (p.index() + 1)
                        + " must be an integer, not " + number.toPlainString(), p.pos());
            }
            throw VersoException.at(ErrorCode.AS_OF_BEYOND_LATEST,
                    "commit " + number.toPlainString() + " is after the latest commit " + latestCommit, p.pos());
        }
    }

    private static String describe(Object value) {
        return value == null ? "NULL" : value instanceof String s ? "'" + s + "'" : value.toString();
    }
}
