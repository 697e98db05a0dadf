package io.verso.replica;

import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Wires read replicas in when {@code verso.read-replicas} names any: the application's DataSource
 * becomes a {@link RoutingDataSource} over the primary pool, and a {@code replicas} health
 * component appears. With none configured the DataSource is left alone and every read runs on the
 * primary (still counted in {@code verso_reads_total{target="primary"}}).
 */
@Configuration(proxyBeanMethods = false)
class ReplicaConfiguration {

    /** Status of the {@code replicas} health component while a replica is down or lagging: reads go to the primary. */
    static final Status DEGRADED = new Status("DEGRADED", "reads are served by the primary while a replica is down or lagging");

    private static final String CONFIGURED = "!'${verso.read-replicas:}'.trim().isEmpty()";

    @Bean
    static BeanPostProcessor replicaRoutingDataSource(Environment environment) {
        boolean configured = !environment.getProperty("verso.read-replicas", "").isBlank();
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (configured && "dataSource".equals(name) && bean instanceof DataSource primary
                        && !(bean instanceof RoutingDataSource)) {
                    return new RoutingDataSource(primary);
                }
                return bean;
            }
        };
    }

    @Bean
    ReplicaRouter replicaRouter(ReplicaProperties properties, DataSource dataSource, JdbcTemplate jdbc,
                                MeterRegistry registry) throws SQLException {
        return new ReplicaRouter(properties, dataSource, jdbc, registry);
    }

    @Bean
    @ConditionalOnExpression(CONFIGURED)
    HealthIndicator replicasHealthIndicator(ReplicaRouter router) {
        return () -> {
            boolean degraded = false;
            Map<String, Object> details = new LinkedHashMap<>();
            for (Replica r : router.replicas()) {
                boolean lagging = r.lagSeconds > router.maxLag().toMillis() / 1000.0;
                degraded |= !r.up || lagging;
                Map<String, Object> replica = new LinkedHashMap<>();
                replica.put("url", r.maskedUrl());
                replica.put("status", !r.up ? "DOWN" : lagging ? "LAGGING" : "UP");
                replica.put("replayedCommit", r.replayed);
                replica.put("lagCommits", r.lagCommits);
                replica.put("lagSeconds", r.lagSeconds);
                replica.put("replayPaused", r.paused);
                if (r.error != null) {
                    replica.put("error", r.error);
                }
                details.put(r.name, replica);
            }
            return Health.status(degraded ? DEGRADED : Status.UP).withDetail("primaryCommit", router.knownLatest())
                    .withDetails(details).build();
        };
    }
}
