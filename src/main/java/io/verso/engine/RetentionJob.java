package io.verso.engine;

import io.verso.catalog.Catalog;
import io.verso.catalog.TableDef;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Applies each table's history retention: runs {@code DELETE HISTORY ... BEFORE COMMIT c} for the
 * oldest commit the setting keeps, as an ordinary commit with the same guarantees. Several
 * instances may run it; commits serialise, and a horizon only moves forward.
 */
@Component
public class RetentionJob {

    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    private final Catalog catalog;
    private final StatementEngine engine;
    private final JdbcTemplate jdbc;

    RetentionJob(Catalog catalog, StatementEngine engine, JdbcTemplate jdbc) {
        this.catalog = catalog;
        this.engine = engine;
        this.jdbc = jdbc;
    }

    @Scheduled(initialDelayString = "${verso.retention.check-interval:60s}",
            fixedDelayString = "${verso.retention.check-interval:60s}")
    public void run() {
        for (TableDef table : catalog.withRetention()) {
            try {
                apply(table);
            } catch (RuntimeException e) {
                log.warn("history retention of table {} failed: {}", table.name(), e.getMessage());
            }
        }
    }

    /** The commit before which {@code table}'s history may go, or 0 when nothing is due. */
    long cutoff(TableDef table) {
        Long cutoff;
        if (table.retentionCommits() != null) {
            Long latest = jdbc.queryForObject("SELECT coalesce(max(seq), 0) FROM verso.commits", Long.class);
            cutoff = latest - table.retentionCommits() + 1;
        } else {
            // The oldest commit to keep readable: the latest one made at or before now - interval.
            // By the commits' index by time (V30, TimeCompiler): its last entry at or before the time.
            cutoff = jdbc.queryForObject("SELECT (SELECT seq FROM verso.commits WHERE committed_at <= now() - CAST(? AS"
                    + " interval) ORDER BY committed_at DESC, seq DESC LIMIT 1)", Long.class, table.retentionInterval());
        }
        return cutoff == null || cutoff <= table.horizon() ? 0 : cutoff;
    }

    /** Applies the retention of one table now; returns the number of versions deleted. */
    public long apply(TableDef table) {
        long cutoff = cutoff(table);
        if (cutoff <= 0) {
            return 0;
        }
        Pos origin = Pos.pointer("retention");
        Statement delete = new Statement.DeleteHistory(new Ident(table.name(), origin),
                new AsOf.AtCommit(cutoff, origin), origin);
        // The service's own work: it runs with every privilege, whoever (if anyone) triggered it.
        ExecutionResult result = io.verso.security.Caller.asSystem(
                () -> engine.execute(List.of(delete), List.of(), "retention"));
        StatementResult.Changed changed = (StatementResult.Changed) result.results().get(0);
        log.info("history retention of {}: deleted {} versions before commit {}", table.name(), changed.count(), cutoff);
        return changed.count();
    }
}
