package io.verso.sysver;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A MariaDB server of our own for the differential test: VERSO_MARIADB_URL when set, else a private
 * instance (mariadb-install-db + mariadbd from the machine's MariaDB 10.11 packages) in a temporary
 * data folder on a free loopback port, stopped and removed by {@link #close()}. Absent binaries make
 * {@link #start()} return null, so the test can skip with a message; VERSO_REQUIRE_MARIADB=1 (CI)
 * turns that into a failure.
 */
final class PrivateMariaDb implements AutoCloseable {

    private final String url;
    private final Process process;
    private final Path folder;

    private PrivateMariaDb(String url, Process process, Path folder) {
        this.url = url;
        this.process = process;
        this.folder = folder;
    }

    static PrivateMariaDb start() throws IOException, InterruptedException {
        String given = System.getenv("VERSO_MARIADB_URL");
        if (given != null && !given.isBlank()) {
            return new PrivateMariaDb(given, null, null);
        }
        Path installDb = find("mariadb-install-db", "/usr/bin", "/usr/local/bin", "/usr/sbin");
        Path server = find("mariadbd", "/usr/sbin", "/usr/bin", "/usr/local/bin", "/usr/libexec");
        if (installDb == null || server == null) {
            return null;
        }
        Path folder = Files.createTempDirectory("verso-mariadb");
        boolean root = "root".equals(System.getProperty("user.name"));
        List<String> install = new ArrayList<>(List.of(installDb.toString(), "--no-defaults",
                "--datadir=" + folder.resolve("data"), "--auth-root-authentication-method=normal",
                "--skip-test-db"));
        if (root) {
            install.add("--user=root");
        }
        Process installing = new ProcessBuilder(install).redirectErrorStream(true)
                .redirectOutput(folder.resolve("install.log").toFile()).start();
        if (!installing.waitFor(120, TimeUnit.SECONDS) || installing.exitValue() != 0) {
            throw new IllegalStateException("mariadb-install-db failed: " + Files.readString(folder.resolve("install.log")));
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(server.toString(), "--no-defaults",
                "--datadir=" + folder.resolve("data"), "--port=" + port, "--bind-address=127.0.0.1",
                "--socket=" + folder.resolve("mariadb.sock"), "--skip-grant-tables", "--skip-log-bin",
                "--innodb-buffer-pool-size=64M", "--innodb-flush-log-at-trx-commit=0",
                "--pid-file=" + folder.resolve("mariadb.pid")));
        if (root) {
            command.add("--user=root");
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(folder.resolve("server.log").toFile()).start();
        String url = "jdbc:mariadb://127.0.0.1:" + port + "/mysql?user=root";
        PrivateMariaDb db = new PrivateMariaDb(url, process, folder);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Connection ignored = DriverManager.getConnection(url)) {
                return db;
            } catch (SQLException e) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    String log = Files.readString(folder.resolve("server.log"));
                    db.close();
                    throw new IllegalStateException("MariaDB did not start: " + log, e);
                }
                Thread.sleep(200);
            }
        }
    }

    String url() {
        return url;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    private static Path find(String name, String... folders) {
        for (String folder : folders) {
            Path p = Path.of(folder, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        if (folder != null) {
            try (Stream<Path> files = Files.walk(folder)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // A temporary folder left behind is harmless.
            }
        }
    }
}
