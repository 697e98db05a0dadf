package io.verso.engine;

import io.verso.analyze.AsOfResolver;
import io.verso.compile.TimeCompiler;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import org.springframework.dao.DataAccessException;

/**
 * The times a request's statements name, judged by PostgreSQL and turned into commits through the commit
 * log: {@code AS OF TIMESTAMP} and the bounds of {@code FOR SYSTEM_TIME}. A time PostgreSQL refuses is
 * refused at the expression that gave it, wherever it was written.
 */
final class CommitTimes implements AsOfResolver.Timestamps, AsOfResolver.Instants {

    private final SqlRunner sql;
    private final List<Object> params;

    CommitTimes(SqlRunner sql, List<Object> params) {
        this.sql = sql;
        this.params = params;
    }

    /** The latest commit made at or before the time {@code value} names, 0 before the first commit. */
    @Override
    public long commitAt(Expr value, long latestCommit) {
        AsOfResolver.requireConstant(value);
        try {
            return sql.query(TimeCompiler.commitAtOrBefore(value, latestCommit, params), rs -> {
                rs.next();
                return rs.getLong(1);
            });
        } catch (DataAccessException e) {
            VersoException refused = PgErrors.translate(e);
            if (refused instanceof VersoException.UserError user && user.origin() == null) {
                throw VersoException.at(user.code(), user.getMessage(), value.pos());
            }
            throw refused;
        }
    }

    @Override
    public Instant at(Expr value) {
        AsOfResolver.requireConstant(value);
        try {
            OffsetDateTime t = sql.query(TimeCompiler.instant(value, params), rs -> {
                rs.next();
                return rs.getObject(1, OffsetDateTime.class);
            });
            if (t == null) {
                throw VersoException.at(ErrorCode.INVALID_SYSTEM_TIME, "FOR SYSTEM_TIME takes a time, not NULL",
                        value.pos());
            }
            // pgjdbc reads 'infinity' / '-infinity' as OffsetDateTime.MAX / MIN, which no UTC wall time holds:
            // keep them as the bounds they are.
            return t.equals(OffsetDateTime.MAX) ? TimeCompiler.INFINITY
                    : t.equals(OffsetDateTime.MIN) ? TimeCompiler.MINUS_INFINITY : t.toInstant();
        } catch (DataAccessException e) {
            throw VersoException.at(ErrorCode.INVALID_SYSTEM_TIME, "FOR SYSTEM_TIME takes a time (a TIMESTAMP "
                    + "literal, a string such as '2025-12-31 23:59:59', a parameter or a constant expression): "
                    + PgErrors.translate(e).getMessage(), value.pos());
        }
    }

    @Override
    public long commitAt(Instant t, boolean strict, long latestCommit) {
        return sql.query(TimeCompiler.commitAt(t, strict, latestCommit), rs -> {
            rs.next();
            return rs.getLong(1);
        });
    }
}
