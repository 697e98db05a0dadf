package io.verso.ops;

import io.verso.config.StartupException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.verso.VersoApplication;
import io.verso.support.IntegrationTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The service refuses to start, with one clear message, against a database it cannot reach or one
 * migrated by a newer Verso. Each case starts a separate application against its own database (a
 * scratch database for the future migration); the shared context only lends its database server.
 */
class StartupChecksTests extends IntegrationTest {

    @Autowired
    Environment environment;

    @Autowired
    Flyway flyway;

    @Autowired
    MaintenanceCheck maintenance;

    @Autowired
    JdbcTemplate jdbc;

    /** A server that never analyses nor vacuums (autovacuum off, as on some CI machines) is warned of at start. */
    @Test
    void aDatabaseThatNeverAnalysesItsTablesIsWarnedOf() {
        String autovacuum = jdbc.queryForObject("SELECT current_setting('autovacuum')", String.class);
        String trackCounts = jdbc.queryForObject("SELECT current_setting('track_counts')", String.class);
        boolean maintained = "on".equals(autovacuum) && "on".equals(trackCounts);
        assertThat(maintenance.check()).as("autovacuum=%s, track_counts=%s", autovacuum, trackCounts)
                .isEqualTo(MaintenanceCheck.warning(autovacuum, trackCounts))
                .matches(warning -> warning.isPresent() != maintained);

        assertThat(MaintenanceCheck.warning("on", "on")).isEmpty();
        assertThat(MaintenanceCheck.warning("off", "on")).get().asString()
                .startsWith("PostgreSQL's autovacuum is off").contains("VACUUM ANALYZE");
        assertThat(MaintenanceCheck.warning("on", "off")).get().asString().startsWith("PostgreSQL's track_counts is off");
    }

    @Test
    void unreachableDatabaseFailsNamingTheUrlWithoutPassword() {
        String url = "jdbc:postgresql://127.0.0.1:1/verso?password=s3cret&connectTimeout=2";

        StartupException failure = startupFailure(start(url));

        assertThat(failure.getMessage()).startsWith("Cannot connect to the database at "
                + "jdbc:postgresql://127.0.0.1:1/verso?password=****&connectTimeout=2 as user '" + user() + "': ")
                .doesNotContain("s3cret");
        assertThat(failure.action()).contains("SPRING_DATASOURCE_URL");
    }

    @Test
    void migrationNewerThanTheServiceFailsTheStart() throws SQLException {
        String scratch = "verso_scratch_" + ProcessHandle.current().pid();
        String url = withDatabase(environment.getProperty("spring.datasource.url"), scratch);
        admin("DROP DATABASE IF EXISTS " + scratch + " WITH (FORCE)");
        admin("CREATE DATABASE " + scratch);
        try {
            // The schema as this service leaves it, then one migration only a newer Verso has.
            Flyway.configure().dataSource(url, user(), password()).schemas("verso")
                    .locations("classpath:db/migration").load().migrate();
            try (Connection c = DriverManager.getConnection(url, user(), password()); Statement s = c.createStatement()) {
                s.execute("INSERT INTO verso.flyway_schema_history (installed_rank, version, description, type, script,"
                        + " checksum, installed_by, execution_time, success) SELECT max(installed_rank) + 1, '999',"
                        + " 'from a newer verso', 'SQL', 'V999__from_a_newer_verso.sql', 0, 'test', 0, true"
                        + " FROM verso.flyway_schema_history");
            }

            StartupException failure = startupFailure(start(url));

            assertThat(failure.getMessage()).isEqualTo("The database at " + url + " has schema migrations newer than "
                    + "this service: 999 (from a newer verso) applied, while this Verso knows migrations up to version "
                    + flyway.info().current().getVersion() + ".");
            assertThat(failure.action()).contains("newer Verso migrated this database");
        } finally {
            admin("DROP DATABASE IF EXISTS " + scratch + " WITH (FORCE)");
        }
    }

    @Test
    void flywayValidationRefusesFutureMigrationsToo() {
        // Flyway ignores "*:future" by default; the service clears the patterns.
        assertThat(flyway.getConfiguration().getIgnoreMigrationPatterns()).isEmpty();
    }

    // ---------------------------------------------------------------- helpers

    /** Starts a second application against {@code url}; returns how it failed (closing it if it started). */
    private Throwable start(String url) {
        Throwable failure = catchThrowable(() -> {
            // Command-line arguments: they outrank SPRING_DATASOURCE_URL in the environment.
            ConfigurableApplicationContext context = new SpringApplicationBuilder(VersoApplication.class).run(
                    "--spring.datasource.url=" + url, "--spring.datasource.username=" + user(),
                    "--spring.datasource.password=" + password(), "--server.port=0",
                    "--spring.main.register-shutdown-hook=false");
            context.close();
        });
        assertThat(failure).as("the application started").isNotNull();
        return failure;
    }

    private static StartupException startupFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StartupException startup) {
                return startup;
            }
        }
        throw new AssertionError("no StartupException in the failure", failure);
    }

    private void admin(String statement) throws SQLException {
        try (Connection c = DriverManager.getConnection(environment.getProperty("spring.datasource.url"), user(),
                password()); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private String user() {
        return environment.getProperty("spring.datasource.username", "verso");
    }

    private String password() {
        return environment.getProperty("spring.datasource.password", "");
    }

    /** The same server and parameters, another database. */
    static String withDatabase(String url, String database) {
        return url.replaceFirst("^(jdbc:postgresql://[^/]+/)[^?]*", "$1" + database);
    }
}
