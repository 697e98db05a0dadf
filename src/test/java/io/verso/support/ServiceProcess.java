package io.verso.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.VersoApplication;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The service as its own JVM on the tests' classpath, as {@code java -jar} would run it: with its own heap bound
 * and ending at an OutOfMemoryError (so a test sees what a deployment would), on the database {@code jdbcUrl}
 * names, the tests' admin API key, no replicas and no retention runs, and no SPRING_ or VERSO_ variable of the
 * test's environment. For tests that need a service they can kill, or whose memory they bound.
 */
public final class ServiceProcess {

    private static final ServiceHttp HTTP = new ServiceHttp(Duration.ofSeconds(2), Duration.ofSeconds(15));

    private ServiceProcess() {
    }

    /** Starts it on {@code port} with {@code heap} (e.g. {@code 512m}), its output to {@code log}, and waits until it is ready. */
    public static Process start(File log, int port, String jdbcUrl, String heap, String... arguments) throws Exception {
        TestSecurity.ensure();
        log.getParentFile().mkdirs();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+ExitOnOutOfMemoryError", "-Xmx" + heap, "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), VersoApplication.class.getName(),
                "--server.port=" + port, "--spring.datasource.url=" + jdbcUrl,
                "--spring.datasource.username=postgres", "--spring.datasource.password=",
                "--verso.security.admin-api-key=" + TestSecurity.ADMIN_KEY, "--verso.read-replicas=",
                "--verso.retention.check-interval=365d"));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log);
        builder.environment().keySet().removeIf(k -> k.startsWith("SPRING_") || k.startsWith("VERSO_"));
        Process service = builder.start();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                if (HTTP.send("http://localhost:" + port, "GET", "/actuator/health/readiness", null).statusCode() == 200) {
                    return service;
                }
            } catch (Exception e) {
                // not listening yet
            }
            assertThat(service.isAlive()).as("the service started (see " + log + ")").isTrue();
            Thread.sleep(250);
        }
        service.destroyForcibly();
        throw new AssertionError("the service was not ready within 120 s (see " + log + ")");
    }
}
