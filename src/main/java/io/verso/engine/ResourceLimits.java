package io.verso.engine;

import io.verso.compile.CompiledSql;
import io.verso.compile.SqlBuilder;
import io.verso.config.VersoProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one request's transaction may use in PostgreSQL, set where the transaction begins as
 * {@code set_config(name, value, true)} (SET LOCAL: gone at commit or rollback), in the first statement of
 * every transaction the engine runs for a caller (a read's state query, the statement sent with a writer's
 * begin_commit, the one-round-trip read's batch), so no user statement runs without them: the statement timeout
 * (which also bounds a writer's waits for other writers, in begin_commit and before it commits),
 * {@code work_mem} (memory of one sort or hash before it spills), {@code temp_file_limit} (the spill
 * space: a sort of a cartesian join ends with RESOURCE_LIMIT instead of filling the disk) and
 * {@code verso.max_concat_bytes}, read by the size guards ({@code verso.concat_fits} and its kin, V20) to
 * bound what a statement's {@code ||} chains, replace and padding calls may build together in a row, and
 * {@code verso.max_recursive_rows}, read by {@code verso.recursion_step} (V27) to bound WITH RECURSIVE.
 * temp_file_limit is a superuser setting: for another role it is set only when granted ({@code GRANT SET
 * ON PARAMETER temp_file_limit}, PostgreSQL 15+), else left to the server's and logged.
 */
final class ResourceLimits {

    private static final Logger LOG = LoggerFactory.getLogger(ResourceLimits.class);

    /*
     * Each value is sent typed text, as set_config takes it: a statement with no untyped bind is not described
     * first, and pgjdbc sends no Sync round trip of its own before it (CompiledSql.TextBind).
     */
    private final long timeoutMillis;
    private final CompiledSql.TextBind timeout;
    private final CompiledSql.TextBind workMem;
    private final CompiledSql.TextBind tempFileLimit;
    private final CompiledSql.TextBind concatBytes;
    private final CompiledSql.TextBind recursiveRows;
    /** {@link #sessionSettings}, made once. */
    private final CompiledSql sessionSettings;
    private volatile Boolean tempFileSettable;

    ResourceLimits(VersoProperties properties) {
        this.timeoutMillis = properties.statementTimeout().toMillis();
        this.timeout = new CompiledSql.TextBind(timeoutMillis + "ms");
        this.workMem = new CompiledSql.TextBind(Math.max(64, properties.workMem().toKilobytes()) + "kB");
        this.tempFileLimit = properties.tempFileLimit().toKilobytes() > 0
                ? new CompiledSql.TextBind(properties.tempFileLimit().toKilobytes() + "kB") : null;
        this.concatBytes = new CompiledSql.TextBind(Long.toString(properties.maxConcatBytes().toBytes()));
        this.recursiveRows = new CompiledSql.TextBind(Long.toString(properties.maxRecursiveRows()));
        this.sessionSettings = new SqlBuilder().sql("SELECT set_config('work_mem', ").bind(workMem)
                .sql(", false), set_config('verso.max_concat_bytes', ").bind(concatBytes)
                .sql(", false), set_config('verso.max_recursive_rows', ").bind(recursiveRows)
                .sql(", false)").build();
    }

    /**
     * The statement timeout as PostgreSQL takes it, for {@code verso.begin_commit} (V18), which takes it as its
     * first argument. A writer sets it before that call all the same ({@link #settings}, in the statement
     * before it): set by begin_commit's own statement, it would bound the statements after but not that one.
     */
    CompiledSql.TextBind timeout() {
        return timeout;
    }

    long timeoutMillis() {
        return timeoutMillis;
    }

    /**
     * The settings a read run as one statement relies on, for the connection's session (SqlRunner#readAlone):
     * the size guards' bounds and work_mem, the values every transaction sets locally anyway. The timeout is
     * SqlRunner's there (StatementDeadlines); temp_file_limit is not needed by the one-key reads that run so (no
     * sort, no hash).
     */
    CompiledSql sessionSettings() {
        return sessionSettings;
    }

    /** The settings as select-list items: {@code set_config(...), ...}, the statement timeout first. */
    SqlBuilder settings(SqlBuilder b, SqlRunner sql) {
        b.sql("set_config('statement_timeout', ").bind(timeout).sql(", true), set_config('work_mem', ")
                .bind(workMem)
                .sql(", true), set_config('verso.max_concat_bytes', ").bind(concatBytes)
                .sql(", true), set_config('verso.max_recursive_rows', ").bind(recursiveRows).sql(", true)");
        if (tempFileLimit != null && tempFileSettable(sql)) {
            b.sql(", set_config('temp_file_limit', ").bind(tempFileLimit).sql(", true)");
        }
        return b;
    }

    private boolean tempFileSettable(SqlRunner sql) {
        Boolean known = tempFileSettable;
        if (known != null) {
            return known;
        }
        // Asked once, in the first request's transaction (read-only queries: any transaction may run them).
        Object[] role = sql.query(new SqlBuilder().sql("SELECT current_user, rolsuper, ")
                .sql("current_setting('server_version_num')::int >= 150000 FROM pg_roles WHERE rolname = current_user")
                .build(), rs -> rs.next() ? new Object[] {rs.getString(1), rs.getBoolean(2), rs.getBoolean(3)} : null);
        boolean settable = role != null && ((Boolean) role[1] || (Boolean) role[2] && sql.query(new SqlBuilder()
                .sql("SELECT has_parameter_privilege('temp_file_limit', 'SET')").build(),
                rs -> rs.next() && rs.getBoolean(1)));
        if (!settable) {
            LOG.warn("PostgreSQL role {} may not set temp_file_limit, so verso.temp-file-limit ({}) is not applied: "
                    + "grant it (GRANT SET ON PARAMETER temp_file_limit TO {}, PostgreSQL 15+) or set it for the role "
                    + "(ALTER ROLE {} SET temp_file_limit = '{}') as a superuser", role == null ? "?" : role[0],
                    tempFileLimit.value(), role == null ? "?" : role[0], role == null ? "?" : role[0],
                    tempFileLimit.value());
        }
        tempFileSettable = settable;
        return settable;
    }
}
