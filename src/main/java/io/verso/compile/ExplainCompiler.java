package io.verso.compile;

/** EXPLAIN ANALYZE of a compiled read: PostgreSQL runs it and answers its plan and timings, one line per row. */
public final class ExplainCompiler {

    private ExplainCompiler() {
    }

    /** The read {@code query} (compiler-made text and its binds) under PostgreSQL's EXPLAIN ANALYZE. */
    public static CompiledSql analyze(CompiledSql query) {
        return new CompiledSql("EXPLAIN (ANALYZE, FORMAT TEXT) " + query.sql(), query.binds());
    }
}
