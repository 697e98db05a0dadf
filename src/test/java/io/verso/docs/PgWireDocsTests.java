package io.verso.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.pgwire.PgWireServer;
import io.verso.support.IntegrationTest;
import io.verso.support.TestSecurity;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * docs/pgwire.md's examples, run as written by the clients they are for (psql, psycopg2, node-postgres; the
 * information_schema query through psql),
 * against the listener of the shared context: its port for 5433 and the admin key as PGPASSWORD, which libpq
 * and node-postgres read (the zero-set-up run the page speaks of asks for none). A client that is not
 * installed skips its example, unless VERSO_REQUIRE_PGWIRE_CLIENTS=1 (CI installs them all and sets it);
 * VERSO_TEST_PYTHON names the Python that has psycopg2 (python3 on the PATH by default). The pgjdbc
 * example is what PgWireTests does.
 */
class PgWireDocsTests extends IntegrationTest {

    private static final boolean REQUIRED = "1".equals(System.getenv("VERSO_REQUIRE_PGWIRE_CLIENTS"));
    private static final String PYTHON = System.getenv().getOrDefault("VERSO_TEST_PYTHON", "python3");

    private static final Pattern BLOCK = Pattern.compile("(?m)^```(\\w*)\\n(.*?)^```$", Pattern.DOTALL);

    @Autowired
    PgWireServer server;

    @Test
    void thePsqlExampleRuns(@TempDir Path dir) throws Exception {
        present(onPath("psql"), "psql is not installed");
        String output = run(dir, "example.sh", block("sh"), "bash");
        assertThat(output).contains("CREATE TABLE").contains("UPDATE 1");
        assertThat(output.lines().map(String::strip).toList()).containsSubsequence("first", "changed");
    }

    @Test
    void theInformationSchemaExampleRuns() throws Exception {
        present(onPath("psql"), "psql is not installed");
        sql.run("CREATE TABLE IF NOT EXISTS wire_notes (id INT PRIMARY KEY, body TEXT) VERSIONED");
        ProcessBuilder psql = new ProcessBuilder("psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                "-p", Integer.toString(server.port()), "-U", "anyone", "-d", "verso", "-c", block("sql"))
                .redirectErrorStream(true);
        psql.environment().put("PGPASSWORD", TestSecurity.ADMIN_KEY);
        Process p = psql.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output.lines().toList()).containsExactly("id|integer|NO", "body|text|YES");
    }

    @Test
    void thePsycopg2ExampleRuns(@TempDir Path dir) throws Exception {
        present(works(dir, PYTHON, "-c", "import psycopg2"), "psycopg2 is not installed for " + PYTHON);
        sql.run("CREATE TABLE IF NOT EXISTS wire_notes (id INT PRIMARY KEY, body TEXT) VERSIONED");
        assertThat(run(dir, "example.py", block("python"), PYTHON).strip()).isEqualTo("from python");
    }

    @Test
    void theNodePostgresExampleRuns(@TempDir Path dir) throws Exception {
        present(works(dir, "node", "-e", "require('pg')"), "node-postgres (npm pg) is not installed "
                + "where node finds it (NODE_PATH)");
        sql.run("CREATE TABLE IF NOT EXISTS wire_notes (id INT PRIMARY KEY, body TEXT) VERSIONED");
        assertThat(run(dir, "example.js", block("js"), "node").strip()).isEqualTo("from node");
    }

    /** Skips the example when its client is missing; fails instead where every client must be there. */
    private static void present(boolean installed, String missing) {
        if (REQUIRED) {
            assertThat(installed).as(missing).isTrue();
        }
        Assumptions.assumeTrue(installed, missing);
    }

    private String block(String kind) throws Exception {
        List<String> found = new ArrayList<>();
        Matcher m = BLOCK.matcher(Files.readString(Path.of("docs/pgwire.md")));
        while (m.find()) {
            if (m.group(1).equals(kind)) {
                found.add(m.group(2));
            }
        }
        assertThat(found).as("```" + kind + " blocks").hasSize(1);
        return found.get(0).replace("5433", Integer.toString(server.port()));
    }

    private String run(Path dir, String name, String text, String command) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        ProcessBuilder builder = new ProcessBuilder(command, file.toString()).redirectErrorStream(true);
        builder.environment().put("PGPASSWORD", TestSecurity.ADMIN_KEY);
        Process p = builder.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return output;
    }

    private static boolean works(Path dir, String... command) {
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean onPath(String command) {
        String path = System.getenv("PATH");
        return path != null && java.util.Arrays.stream(path.split(File.pathSeparator))
                .anyMatch(d -> new File(d, command).canExecute());
    }
}
