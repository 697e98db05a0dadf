package io.verso.compile;

import io.verso.sql.ast.Expr;
import java.time.Instant;
import java.util.List;

/**
 * The lookups that turn a time into a commit, for AS OF TIMESTAMP and FOR SYSTEM_TIME: the time an
 * expression names, and the latest commit made at (or strictly before) a time. The expression has
 * been checked to be constant ({@code analyze.AsOfResolver#requireConstant}); its values are binds.
 */
public final class TimeCompiler {

    /**
     * PostgreSQL's {@code 'infinity'} and {@code '-infinity'} as instants: later and earlier than any
     * time a table holds. A bound such as {@code BEFORE SYSTEM_TIME 'infinity'} means just that, so it
     * travels as these two values and is bound as PostgreSQL's own words again ({@link #infinite}).
     */
    public static final Instant INFINITY = Instant.MAX;
    public static final Instant MINUS_INFINITY = Instant.MIN;

    private TimeCompiler() {
    }

    /** PostgreSQL's text for {@link #INFINITY} or {@link #MINUS_INFINITY}, null for any other instant. */
    public static String infinite(Instant t) {
        return t.equals(INFINITY) ? "infinity" : t.equals(MINUS_INFINITY) ? "-infinity" : null;
    }

    /** The latest commit up to {@code latestCommit} made at or before the time {@code value} names, 0 if none. */
    public static CompiledSql commitAtOrBefore(Expr value, long latestCommit, List<Object> params) {
        SqlBuilder b = new SqlBuilder().sql(LATEST_UP_TO).bind(latestCommit).sql(" AND committed_at <= CAST((");
        new ExprCompiler(null, params, null).emit(b, value);
        return b.sql(") AS timestamptz)" + LATEST_ORDER).build();
    }

    /**
     * The latest commit of those that pass the condition after this, by the commits' index by time (V30): commit
     * times never go back, so the latest commit at or before a time is the last entry of that index there, found
     * in a few pages however long the log. {@code max(seq) ... WHERE committed_at <= t} walked the log back from
     * its newest commit to t instead.
     */
    private static final String LATEST_UP_TO = "SELECT coalesce((SELECT seq FROM verso.commits WHERE seq <= ";
    private static final String LATEST_ORDER = " ORDER BY committed_at DESC, seq DESC LIMIT 1), 0)";

    /** The instant {@code value} names, as timestamptz. */
    public static CompiledSql instant(Expr value, List<Object> params) {
        SqlBuilder b = new SqlBuilder().sql("SELECT CAST((");
        new ExprCompiler(null, params, null).emit(b, value);
        return b.sql(") AS timestamptz)").build();
    }

    /** The latest commit up to {@code latestCommit} made before ({@code strict}) or at {@code t}, 0 if none. */
    public static CompiledSql commitAt(Instant t, boolean strict, long latestCommit) {
        // Commit times are UTC wall times in period columns: compare them as such.
        return new SqlBuilder().sql(LATEST_UP_TO).bind(latestCommit).sql(" AND committed_at ").sql(strict ? "<" : "<=")
                .sql(" CAST(").bind(infinite(t) != null ? infinite(t) : t.toString()).sql(" AS timestamptz)" + LATEST_ORDER)
                .build();
    }
}
