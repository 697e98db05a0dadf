package io.verso.ops;

import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Warns once at start when the database will not keep Verso's tables in shape by itself: with
 * {@code autovacuum} (or {@code track_counts}, which it needs) off, PostgreSQL never analyses nor vacuums
 * them. Every read is then planned without statistics (a whole-table AS OF read of a table whose attribute
 * groups are all written ran 3.6× its current read on such a server, docs/benchmark.md, where a parallel plan
 * built for 2,128 keys met 100,000), and the space of closed and replaced versions is never reclaimed. The
 * service still runs: it is the server's configuration, and only its operator can choose.
 */
@Component
class MaintenanceCheck {

    private static final Logger log = LoggerFactory.getLogger(MaintenanceCheck.class);

    private final JdbcTemplate jdbc;

    MaintenanceCheck(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventListener(ApplicationReadyEvent.class)
    void warnIfTablesAreNotMaintained() {
        check().ifPresent(log::warn);
    }

    /** The warning for this database, if its tables go unmaintained; empty when they are, or it cannot be asked. */
    Optional<String> check() {
        try {
            return jdbc.query("SELECT current_setting('autovacuum'), current_setting('track_counts')",
                    rs -> rs.next() ? warning(rs.getString(1), rs.getString(2)) : Optional.empty());
        } catch (DataAccessException e) {
            return Optional.empty(); // the health probes report a database that cannot be asked
        }
    }

    static Optional<String> warning(String autovacuum, String trackCounts) {
        String off = !"on".equals(autovacuum) ? "autovacuum" : !"on".equals(trackCounts) ? "track_counts" : null;
        if (off == null) {
            return Optional.empty();
        }
        return Optional.of("PostgreSQL's " + off + " is off on this database: Verso's tables will never be analysed "
                + "or vacuumed, so reads are planned without statistics (a whole-table AS OF read can run several "
                + "times slower) and the space of replaced versions is never reclaimed. Turn it on (autovacuum = on, "
                + "track_counts = on), or run VACUUM ANALYZE over the schemas verso and verso_data regularly.");
    }
}
