package io.verso.support;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Picks the PostgreSQL the tests run on, once per JVM: the one SPRING_DATASOURCE_URL names (CI
 * here), else a Testcontainers PostgreSQL where Docker runs, else the service's own embedded
 * PostgreSQL in a fresh folder under target/. Always a real PostgreSQL, never a mock.
 */
public final class TestDatabase {

    private static boolean ready;

    private TestDatabase() {
    }

    public static synchronized void ensure() {
        if (ready) {
            return;
        }
        ready = true;
        // Every application a test starts takes a free port for the PostgreSQL protocol (PgWireServer.port()
        // says which): several share a JVM, and other runs share the machine.
        System.setProperty("verso.pgwire.port", "0");
        // A hot standby of the test database (.ci/run starts one): the shared context reads through it.
        String replica = System.getenv("VERSO_TEST_REPLICA_URL");
        if (replica != null && !replica.isBlank()) {
            System.setProperty("verso.read-replicas", replica);
        }
        if (System.getenv("SPRING_DATASOURCE_URL") != null || System.getProperty("spring.datasource.url") != null) {
            return;
        }
        boolean docker;
        try {
            docker = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            docker = false;
        }
        if (docker) {
            PostgreSQLContainer postgres = new PostgreSQLContainer("postgres:15-alpine");
            postgres.start();
            System.setProperty("spring.datasource.url", postgres.getJdbcUrl());
            System.setProperty("spring.datasource.username", postgres.getUsername());
            System.setProperty("spring.datasource.password", postgres.getPassword());
        } else {
            System.setProperty("verso.embedded.data-dir", "target/embedded-pg-" + ProcessHandle.current().pid());
        }
    }
}
