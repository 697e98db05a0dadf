package io.verso.ops;

import java.util.Arrays;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The "migrations" health component: the schema version applied to the database, migrations this
 * service has that are not applied yet, and ones applied by a newer Verso. Down when a migration
 * failed or the database cannot be asked; a newer schema is reported, not a failure, so the old replicas of a rolling
 * upgrade keep serving while the new ones have migrated (the startup check refuses it on start).
 */
@Component
class MigrationsHealthIndicator implements HealthIndicator {

    private final Flyway flyway;

    MigrationsHealthIndicator(Flyway flyway) {
        this.flyway = flyway;
    }

    @Override
    public Health health() {
        MigrationInfoService info;
        try {
            info = flyway.info();
        } catch (RuntimeException e) {
            // The database cannot be asked (it is away, or the pool has no connection for it): that is
            // DOWN, answered 503 like the datasource component, never an exception out of the probe.
            return Health.down().withDetail("schema", String.join(",", flyway.getConfiguration().getSchemas()))
                    .withDetail("error", "the database cannot be reached").build();
        }
        MigrationInfo current = info.current();
        MigrationInfo[] applied = info.applied();
        boolean failed = Arrays.stream(applied).anyMatch(m -> m.getState().isFailed());
        long future = Arrays.stream(applied).filter(m -> m.getState() == MigrationState.FUTURE_SUCCESS
                || m.getState() == MigrationState.FUTURE_FAILED).count();
        return (failed ? Health.down() : Health.up())
                .withDetail("schema", String.join(",", flyway.getConfiguration().getSchemas()))
                .withDetail("version", current == null || current.getVersion() == null ? "none"
                        : current.getVersion().getVersion())
                .withDetail("description", current == null ? "" : current.getDescription())
                .withDetail("pending", info.pending().length)
                .withDetail("future", future)
                .build();
    }
}
