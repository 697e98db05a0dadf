package io.verso.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Reads through a real PostgreSQL hot standby of the test database: .ci/run starts one
 * (.ci/standby) and names it in VERSO_TEST_REPLICA_URL, which puts it in the shared context's
 * {@code verso.read-replicas} (TestDatabase). VERSO_TEST_REPLICA_CONTROL names the script that
 * stops and starts it. Without them these tests are skipped, saying so.
 */
class ReadReplicaTests extends IntegrationTest {

    private static final String REPLICA_URL = System.getenv("VERSO_TEST_REPLICA_URL");
    private static final String CONTROL = System.getenv("VERSO_TEST_REPLICA_CONTROL");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Autowired
    MeterRegistry registry;

    @BeforeEach
    void standby() {
        assumeTrue(REPLICA_URL != null && !REPLICA_URL.isBlank(),
                "no hot standby: set VERSO_TEST_REPLICA_URL (and VERSO_TEST_REPLICA_CONTROL) as .ci/run does");
        waitFor("the standby to serve", () -> health().path("components").path("replicas").path("status")
                .asString().equals("UP"));
    }

    @Test
    void asOfAnswersFromTheStandbyEqualThePrimarysForEveryCommit() throws SQLException {
        String t = table("replica_asof");
        List<Long> commits = new ArrayList<>();
        commits.add(sql.write("CREATE TABLE " + t + " (k TEXT PRIMARY KEY, v INT, at BIGINT, rev BIGINT) "
                + "VERSIONED VALID BY (at) REVISION BY (rev)"));
        for (int i = 1; i <= 12; i++) {
            // Late and out-of-order versions: some win on arrival, some lose, some supersede.
            commits.add(sql.write("UPSERT INTO " + t + " (k, v, at, rev) VALUES (?, ?, ?, 1), (?, ?, ?, 1)",
                    "k" + (i % 4), i, (i * 7) % 10, "k" + (i % 3), 100 + i, i));
        }
        commits.add(sql.write("DELETE FROM " + t + " WHERE k = 'k1' AT (at = 50, rev = 1)"));
        commits.add(sql.write("ALTER TABLE " + t + " ADD COLUMN note TEXT DEFAULT 'n'"));
        commits.add(sql.write("UPSERT INTO " + t + " (k, v, at, rev, note) VALUES ('k5', 5, 5, 1, 'late')"));
        commits.add(sql.write("ERASE FROM " + t + " WHERE k = 'k2'"));
        long last = commits.get(commits.size() - 1);
        // The router's own view (its periodic check), not the standby's: reads then choose it at once.
        waitFor("the router to see the standby replay commit " + last, () -> health().path("components")
                .path("replicas").path("details").path("replica-1").path("replayedCommit").asLong() >= last);

        double replicaBefore = reads("replica");
        List<JsonNode> fromReplica = new ArrayList<>();
        for (long c = commits.get(0); c <= last; c++) {
            fromReplica.add(asOf(t, c, 0));
        }
        assertThat(reads("replica") - replicaBefore).as("every AS OF read served by the standby")
                .isEqualTo(fromReplica.size());

        // The same reads on the primary: a current read joined to each, with a Verso-Min-Commit no
        // replica holds, sends the request there after the brief wait.
        double primaryBefore = reads("primary");
        for (long c = commits.get(0); c <= last; c++) {
            JsonNode primary = asOf(t, c, Long.MAX_VALUE / 2);
            assertThat(primary).as("AS OF COMMIT " + c).isEqualTo(fromReplica.get((int) (c - commits.get(0))));
        }
        assertThat(reads("primary") - primaryBefore).isEqualTo(fromReplica.size());
        // The erasure reached the standby before it answered: k2 is gone at every commit.
        assertThat(fromReplica.toString()).doesNotContain("\"k2\"");
    }

    /** The rows of {@code t} AS OF {@code commit}; with a min commit, also a current read (see above). */
    private JsonNode asOf(String t, long commit, long minCommit) {
        String text = "SELECT * FROM " + t + " AS OF COMMIT ? ORDER BY k";
        HttpResponse<String> response = minCommit == 0 ? post(text, 0, commit)
                : post(text + "; SELECT count(*) FROM " + t, minCommit, commit);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode result = SqlClient.JSON.readTree(response.body()).get("results").get(0);
        return result;
    }

    @Test
    void aClientAlternatingWritesAndReadsUnderLoadReadsItsWrites() throws Exception {
        String t = table("replica_ryw");
        sql.write("CREATE TABLE " + t + " (k TEXT PRIMARY KEY, v INT) UPSERT");
        double replicaBefore = reads("replica");
        int clients = 6;
        int rounds = 15;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            String key = "client" + c;
            done.add(pool.submit(() -> {
                long seen = 0;
                for (int i = 1; i <= rounds; i++) {
                    HttpResponse<String> write = post("UPSERT INTO " + t + " (k, v) VALUES (?, ?)", seen, key, i);
                    assertThat(write.statusCode()).as(write.body()).isEqualTo(200);
                    long commit = Long.parseLong(SqlClient.JSON.readTree(write.body()).get("commit").asString());
                    assertThat(write.headers().firstValue("Verso-Commit")).hasValue(Long.toString(commit));
                    seen = commit;
                    HttpResponse<String> read = post("SELECT v FROM " + t + " WHERE k = ?", seen, key);
                    JsonNode body = SqlClient.JSON.readTree(read.body());
                    String v = body.get("results").get(0).get("rows").get(0).get(0).asString();
                    if (!v.equals(Integer.toString(i)) || Long.parseLong(body.get("readCommit").asString()) < seen) {
                        wrong.add(key + " wrote " + i + " at commit " + seen + " but read " + v + " at "
                                + body.get("readCommit"));
                    }
                    seen = Long.parseLong(read.headers().firstValue("Verso-Commit").orElseThrow());
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(wrong).isEmpty();
        assertThat(reads("replica") - replicaBefore).as("reads served by the standby").isPositive();
    }

    @Test
    void standbyReadsAnswerUnderTheNewSchemaOnEveryConnectionAfterAColumnChangesType() throws Exception {
        String t = table("replica_ddl");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, a INT, b TEXT) VERSIONED");
        long written = sql.write("UPSERT INTO " + t + " VALUES (1, 1, 'x'), (2, 2, 'y')");
        double replicaBefore = reads("replica");
        assertThat(readEverywhere(t, written, "TEXT")).as("reads before the change").isEmpty();
        long altered = sql.write("ALTER TABLE " + t + " DROP COLUMN b; ALTER TABLE " + t + " ADD COLUMN b DATE");
        assertThat(readEverywhere(t, altered, "DATE")).as("reads after the change's receipt").isEmpty();
        assertThat(reads("replica") - replicaBefore).as("reads the standby served").isPositive();
    }

    /** From 8 threads at once, 5 reads each once the router saw the standby replay {@code commit}: the failures. */
    private List<String> readEverywhere(String t, long commit, String type) throws Exception {
        waitFor("the router to see the standby replay commit " + commit, () -> health().path("components")
                .path("replicas").path("details").path("replica-1").path("replayedCommit").asLong() >= commit);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Future<?>> done = new ArrayList<>();
        for (int thread = 0; thread < 8; thread++) {
            done.add(pool.submit(() -> {
                for (int i = 0; i < 5; i++) {
                    for (String read : List.of("SELECT k, a, b FROM " + t + " WHERE k = 1",
                            "SELECT k, a, b FROM " + t + " AS OF COMMIT " + commit + " ORDER BY k")) {
                        HttpResponse<String> response = post(read, commit);
                        if (response.statusCode() != 200 || !response.body().contains("\"type\":\"" + type + "\"")) {
                            failures.add(read + " -> " + response.statusCode() + " " + response.body());
                        }
                    }
                }
            }));
        }
        for (Future<?> future : done) {
            future.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
        return List.copyOf(failures);
    }

    /**
     * A view made or dropped is in the next read's answer, though the standby has not replayed it:
     * information_schema (which reads no table at a commit, so a stale snapshot's listing looked as good as the
     * primary's) and a read of the view AS OF a commit the standby holds (under the view's new definition).
     * Each change is made just after replay is paused, before the router's next check can see the pause, so the
     * standby still looks close enough to try.
     */
    @Test
    void viewsMadeOrDroppedAreInTheNextReadThoughTheStandbyHasNotReplayedThem() throws SQLException {
        String t = table("replica_views");
        String v = t + "_v";
        sql.write("CREATE TABLE " + t + " (k TEXT PRIMARY KEY, v INT, w INT) VERSIONED");
        long first = sql.write("UPSERT INTO " + t + " VALUES ('a', 1, 10)");
        long last = first;
        String listed = "SELECT table_name FROM information_schema.views WHERE table_name = ?";
        try (Connection standby = DriverManager.getConnection(REPLICA_URL, "postgres", "")) {
            for (int i = 0; i < 4; i++) {
                String column = i % 2 == 0 ? "v" : "w";
                awaitReplayOf(last);
                standby.createStatement().execute("SELECT pg_wal_replay_pause()");
                try {
                    last = sql.write("CREATE VIEW " + v + " (n) AS SELECT " + column + " FROM " + t + " WHERE k = 'a'");
                    assertThat(sql.rows(listed, v)).as("listed after CREATE VIEW, round " + i)
                            .containsExactly(List.of(v));
                    assertThat(sql.rows("SELECT n FROM " + v + " AS OF COMMIT ?", first))
                            .as("the view's new definition, round " + i).containsExactly(List.of(i % 2 == 0 ? "1" : "10"));
                } finally {
                    standby.createStatement().execute("SELECT pg_wal_replay_resume()");
                }
                awaitReplayOf(last);
                standby.createStatement().execute("SELECT pg_wal_replay_pause()");
                try {
                    last = sql.write("DROP VIEW " + v);
                    assertThat(sql.rows(listed, v)).as("not listed after DROP VIEW, round " + i).isEmpty();
                } finally {
                    standby.createStatement().execute("SELECT pg_wal_replay_resume()");
                }
            }
        }
    }

    /** Waits until the router has seen the standby replay {@code commit}, and not paused. */
    private void awaitReplayOf(long commit) {
        waitFor("the router to see the standby replay commit " + commit, () -> {
            JsonNode details = health().path("components").path("replicas").path("details").path("replica-1");
            return details.path("replayedCommit").asLong() >= commit && !details.path("replayPaused").asBoolean();
        });
    }

    @Test
    void aMinCommitNoReplicaHoldsSendsTheReadToThePrimary() {
        String t = table("replica_min");
        sql.write("CREATE TABLE " + t + " (k TEXT PRIMARY KEY, v INT) UPSERT");
        double primaryBefore = reads("primary");
        HttpResponse<String> read = post("SELECT count(*) FROM " + t, sql.latestCommit() + 1_000_000);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(reads("primary") - primaryBefore).isEqualTo(1);
        assertThat(post("SELECT 1 FROM " + t, -1).statusCode()).isEqualTo(400);
    }

    @Test
    void prometheusHasReadsByTargetAndEachReplicasLag() throws Exception {
        String metrics = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY)
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metrics).containsPattern("verso_reads_total\\{[^}]*target=\"primary\"")
                .containsPattern("verso_reads_total\\{[^}]*target=\"replica\"")
                .contains("verso_reads_seconds_count")
                .containsPattern("verso_replica_lag_seconds\\{[^}]*replica=\"replica-1\"")
                .containsPattern("verso_replica_up\\{[^}]*replica=\"replica-1\"} 1")
                .containsPattern("hikaricp_connections_max\\{[^}]*pool=\"replica-1\"");
        JsonNode replica = health().path("components").path("replicas").path("details").path("replica-1");
        assertThat(replica.path("status").asString()).isEqualTo("UP");
        assertThat(replica.path("url").asString()).isEqualTo(REPLICA_URL);
    }

    @Test
    void aPausedStandbySendsReadsToThePrimaryAndBackWhenResumed() throws Exception {
        String t = table("replica_pause");
        sql.write("CREATE TABLE " + t + " (k TEXT PRIMARY KEY, v INT) VERSIONED");
        long before = sql.write("UPSERT INTO " + t + " VALUES ('a', 1)");
        try (Connection standby = DriverManager.getConnection(REPLICA_URL, "postgres", "")) {
            standby.createStatement().execute("SELECT pg_wal_replay_pause()");
            try {
                waitFor("replay to pause", () -> query(standby, "SELECT pg_get_wal_replay_pause_state()").equals("paused"));
                long commit = sql.write("UPSERT INTO " + t + " VALUES ('a', 2)");
                double primaryBefore = reads("primary");
                double replicaBefore = reads("replica");
                for (int i = 0; i < 5; i++) {
                    assertThat(sql.rows("SELECT v FROM " + t)).containsExactly(List.of("2"));
                    assertThat(sql.rows("SELECT v FROM " + t + " AS OF COMMIT ?", commit)).containsExactly(List.of("2"));
                    // A time after every commit names the latest one, which the paused standby does not hold.
                    assertThat(sql.rows("SELECT v FROM " + t + " AS OF TIMESTAMP '2999-01-01T00:00:00Z'"))
                            .containsExactly(List.of("2"));
                }
                // At least these ten: the counter is the whole service's, and other readers (feeds, jobs) may add to it.
                assertThat(reads("primary") - primaryBefore).as("reads of a commit the standby has not replayed")
                        .isGreaterThanOrEqualTo(15);
                assertThat(reads("replica") - replicaBefore).isZero();
                // What it has replayed it still serves exactly.
                assertThat(sql.rows("SELECT v FROM " + t + " AS OF COMMIT ?", before)).containsExactly(List.of("1"));
            } finally {
                standby.createStatement().execute("SELECT pg_wal_replay_resume()");
            }
        }
        double replicaBefore = reads("replica");
        waitFor("reads back on the standby", () -> {
            assertThat(sql.rows("SELECT v FROM " + t)).containsExactly(List.of("2"));
            return reads("replica") > replicaBefore;
        });
    }

    @Test
    void aKilledStandbyCostsNoFailedRequest() throws Exception {
        assumeTrue(CONTROL != null && Files.isExecutable(Path.of(CONTROL)),
                "VERSO_TEST_REPLICA_CONTROL does not name the standby's control script (.ci/standby)");
        String t = table("replica_kill");
        sql.write("CREATE TABLE " + t + " (k TEXT PRIMARY KEY, v INT) VERSIONED");
        long first = sql.write("UPSERT INTO " + t + " VALUES ('a', 0)");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger requests = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        int readers = 4;
        CountDownLatch started = new CountDownLatch(readers);
        ExecutorService pool = Executors.newFixedThreadPool(readers + 1);
        List<Future<?>> done = new ArrayList<>();
        for (int r = 0; r < readers; r++) {
            boolean asOf = r % 2 == 0;
            done.add(pool.submit(() -> {
                started.countDown();
                while (running.get()) {
                    HttpResponse<String> read = asOf ? post("SELECT v FROM " + t + " AS OF COMMIT ?", 0, first)
                            : post("SELECT v FROM " + t, 0);
                    requests.incrementAndGet();
                    if (read.statusCode() != 200) {
                        failures.add(read.statusCode() + " " + read.body());
                    }
                }
                return null;
            }));
        }
        done.add(pool.submit(() -> {
            for (int i = 1; running.get(); i++) {
                HttpResponse<String> write = post("UPSERT INTO " + t + " VALUES ('a', ?)", 0, i);
                if (write.statusCode() != 200) {
                    failures.add(write.statusCode() + " " + write.body());
                }
                Thread.sleep(5);
            }
            return null;
        }));
        started.await();
        double replicaBefore = reads("replica");
        Thread.sleep(500);
        control("kill");
        try {
            Thread.sleep(500);
            waitFor("the replicas component to report the standby down", () -> health().path("components")
                    .path("replicas").path("status").asString().equals("DEGRADED"));
            assertThat(health().path("status").asString()).as("the service itself").isEqualTo("DEGRADED");
            int beforeRestart = requests.get();
            Thread.sleep(300);
            assertThat(requests.get()).as("requests kept being served").isGreaterThan(beforeRestart);
        } finally {
            control("start");
        }
        waitFor("the standby to serve again", () -> health().path("components").path("replicas").path("status")
                .asString().equals("UP"));
        double replicaAfterRestart = reads("replica");
        waitFor("reads back on the standby", () -> reads("replica") > replicaAfterRestart);
        running.set(false);
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(failures).as("failed requests").isEmpty();
        assertThat(reads("replica")).isGreaterThan(replicaBefore);
    }

    // ---- helpers -------------------------------------------------------------------------------

    private double reads(String target) {
        return registry.get("verso.reads").tag("target", target).counter().count();
    }

    private HttpResponse<String> post(String text, long minCommit, Object... params) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sql", text);
        body.put("params", Arrays.asList(params));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/sql")).header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(SqlClient.JSON.writeValueAsString(body)));
        if (minCommit != 0) {
            request.header("Verso-Min-Commit", Long.toString(minCommit));
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private JsonNode health() {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/actuator/health")).header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY).build(), HttpResponse.BodyHandlers.ofString());
            return SqlClient.JSON.readTree(response.body());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String query(Connection connection, String text) {
        try (var rs = connection.createStatement().executeQuery(text)) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void control(String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(CONTROL, command).inheritIO().start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(CONTROL + " " + command).isZero();
    }

    private static void waitFor(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 20 s for " + what).isLessThan(deadline);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
