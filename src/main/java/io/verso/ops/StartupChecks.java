package io.verso.ops;

import io.verso.config.StartupException;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.pattern.ValidatePattern;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Checks made before the service migrates its schema and opens its port: the database must be
 * reachable, and must not carry migrations newer than this service knows (a newer Verso migrated
 * it; this one could misread the schema). Either failure stops the start with one message naming
 * the database URL (never its password) and what to do.
 */
@Configuration(proxyBeanMethods = false)
class StartupChecks {

    /**
     * Flyway ignores applied migrations it has no file for when they are newer ({@code *:future})
     * by default; make validation refuse them too, so no other path migrates over a newer schema.
     */
    @Bean
    FlywayConfigurationCustomizer refuseFutureMigrations() {
        return configuration -> configuration.ignoreMigrationPatterns(new ValidatePattern[0]);
    }

    @Bean
    FlywayMigrationStrategy checkedMigration(Environment environment) {
        return flyway -> {
            String database = safeUrl(environment.getProperty("spring.datasource.url", "(no URL)"));
            String user = environment.getProperty("spring.datasource.username", "");
            MigrationInfo[] all;
            try {
                all = flyway.info().all();
            } catch (RuntimeException e) {
                // Flyway's FlywaySqlException, or Hikari's PoolInitializationException raised past Flyway.
                SQLException sql = sqlCause(e);
                if (sql == null) {
                    throw e;
                }
                throw new StartupException("Cannot connect to the database at " + database
                        + (user.isEmpty() ? "" : " as user '" + user + "'") + ": " + sql.getMessage(),
                        "Check that PostgreSQL is running and reachable from here, and check SPRING_DATASOURCE_URL, "
                                + "SPRING_DATASOURCE_USERNAME and SPRING_DATASOURCE_PASSWORD.", e);
            }
            List<MigrationInfo> future = Arrays.stream(all).filter(m -> m.getState() == MigrationState.FUTURE_SUCCESS
                    || m.getState() == MigrationState.FUTURE_FAILED).toList();
            if (!future.isEmpty()) {
                String known = Arrays.stream(all).filter(m -> m.getState().isResolved() && m.getVersion() != null)
                        .map(MigrationInfo::getVersion).max(Comparator.naturalOrder())
                        .map(MigrationVersion::getVersion).orElse("none");
                throw new StartupException("The database at " + database + " has schema migrations newer than this "
                        + "service: " + future.stream().map(m -> m.getVersion() + " (" + m.getDescription() + ")")
                                .collect(Collectors.joining(", "))
                        + " applied, while this Verso knows migrations up to version " + known + ".",
                        "A newer Verso migrated this database. Run that version (or a newer one) against it, or point "
                                + "this one at a database restored from before the upgrade.", null);
            }
            flyway.migrate();
        };
    }

    private static SQLException sqlCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    /** The JDBC URL without a password given as a URL parameter. */
    static String safeUrl(String url) {
        return url.replaceAll("(?i)([?&;]password=)[^&;]*", "$1****");
    }
}
