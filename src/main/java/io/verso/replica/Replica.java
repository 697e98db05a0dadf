package io.verso.replica;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** One read replica: its pool and what its last check or read found. Fields are read without locks. */
final class Replica {

    final String name;
    final String url;
    final HikariDataSource pool;
    final JdbcTemplate jdbc;

    /** Reachable at the last check or read. */
    volatile boolean up;
    /** The latest commit and catalog version seen in its snapshots. */
    volatile long replayed;
    volatile long catalogVersion;
    /** Seconds its replay is behind what it has received (0 when caught up), at the last check. */
    volatile double lagSeconds;
    /** Commits it is behind the primary, at the last check. */
    volatile long lagCommits;
    volatile boolean paused;
    volatile String error;

    Replica(String name, String url, HikariDataSource pool) {
        this.name = name;
        this.url = url;
        this.pool = pool;
        this.jdbc = new JdbcTemplate(pool);
    }

    /** What one of its snapshots held. Replay only moves forward, so a smaller value is an older snapshot. */
    void saw(long commit, long version) {
        if (commit > replayed) {
            replayed = commit;
        }
        if (version > catalogVersion) {
            catalogVersion = version;
        }
    }

    void failed(Throwable e) {
        up = false;
        error = e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /** The URL without any password parameter, for health details and logs. */
    String maskedUrl() {
        return url.replaceAll("(?i)(password=)[^&]*", "$1****");
    }
}
