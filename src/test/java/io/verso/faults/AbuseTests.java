package io.verso.faults;

import static org.assertj.core.api.Assertions.assertThat;

import static io.verso.support.ServiceHttp.sql;

import io.verso.VersoApplication;
import io.verso.support.ServiceHttp;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * No request takes the service or its database down (issue 14, limits and abuse), against a private
 * PostgreSQL cluster this test starts (never the shared one): while ten callers send cartesian joins
 * (streamed, sorted, counted) and value-blowing concatenations and four send 16 MiB bodies, one-key
 * reads (REST, and {@code /v1/sql} SELECTs by key) and small {@code /v1/sql} UPSERTs keep answering, none
 * refused, with p99 under a second (see {@link #bound}); every heavy request ends with its code within the
 * configured limits (statement timeout, temp_file_limit, result size, concatenation size, admission);
 * afterwards the service is live and ready, and PostgreSQL never restarted (a connection opened before
 * still works). Figures are printed.
 */
class AbuseTests {

    private static final ServiceHttp HTTP = new ServiceHttp(Duration.ofSeconds(5), Duration.ofSeconds(60));
    private static final Duration BASELINE = Duration.ofSeconds(4);
    private static final Duration ABUSE = Duration.ofSeconds(Long.getLong("verso.abuse.seconds", 40));
    private static final long TIMEOUT_MS = 4_000;
    private static final Set<String> HEAVY_CODES = Set.of("STATEMENT_TIMEOUT", "RESOURCE_LIMIT", "RESULT_TOO_LARGE",
            "VALUE_TOO_LARGE", "OVERLOADED", "PAYLOAD_TOO_LARGE");

    private static final Map<String, String> DETAILS = new ConcurrentHashMap<>();

    record Outcome(String what, int status, String code, long millis) {
    }

    @Test
    void heavyRequestsEndWithTheirCodesWhileOneKeyReadsKeepAnswering() throws Exception {
        TestSecurity.ensure();
        Path data = Files.createTempDirectory("verso-abuse-pg");
        int pgPort = ServiceHttp.freePort();
        EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(data).setPort(pgPort).start();
        ConfigurableApplicationContext app = null;
        try (Connection sentinel = pg.getPostgresDatabase().getConnection()) {
            app = new SpringApplicationBuilder(VersoApplication.class).run(
                    "--server.port=0", "--spring.main.register-shutdown-hook=false",
                    "--spring.datasource.url=" + pg.getJdbcUrl("postgres", "postgres"),
                    "--spring.datasource.username=postgres", "--spring.datasource.password=",
                    "--verso.retention.check-interval=365d", "--verso.read-replicas=",
                    "--verso.statement-timeout=" + TIMEOUT_MS + "ms", "--verso.temp-file-limit=64MB",
                    "--verso.work-mem=32MB", "--verso.admission.heavy-concurrency=2",
                    "--verso.admission.large-concurrency=1", "--management.server.port=0",
                    // The suite turns GraphiQL on for the console's tests; a deployment has it off while security is on.
                    "--verso.security.graphiql=false");
            String base = "http://localhost:" + ((WebServerApplicationContext) app).getWebServer().getPort();
            String management = "http://localhost:" + app.getEnvironment().getProperty("local.management.port");
            setUp(base);

            // The same one-key readers alone first: what this machine gives them now, with no abuse running.
            List<Long> baseline = oneKeyReads(base, System.nanoTime() + BASELINE.toNanos(), new ConcurrentLinkedQueue<>());
            long baselineP99 = percentile(baseline, 0.99);

            long deadline = System.nanoTime() + ABUSE.toNanos();
            ExecutorService pool = Executors.newFixedThreadPool(22);
            ConcurrentLinkedQueue<Outcome> heavy = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<String> lightFailures = new ConcurrentLinkedQueue<>();
            String chain = String.join(" || ", Collections.nCopies(300, "s"));
            List<String[]> queries = List.of(
                    new String[] {"cartesian stream", "SELECT a.k, b.k FROM big a JOIN big b ON 1 = 1"},
                    // The 1 MiB blobs only: the 16 MiB writes below add keys 100-103, and sorting those would make
                    // how fast this query reaches the temp-file limit depend on which writes have landed.
                    new String[] {"cartesian sort",
                            "SELECT b.k, upper(s.s) FROM blobs s, big b WHERE s.k <= 4 ORDER BY b.v, b.k"},
                    new String[] {"cartesian count", "SELECT count(*) FROM big a, big b, big c"},
                    new String[] {"value blow-up", "SELECT length(upper(" + chain + ")) FROM blobs"});
            for (int t = 0; t < 10; t++) {
                int first = t;
                pool.submit(() -> {
                    for (int i = first; System.nanoTime() < deadline; i++) {
                        String[] q = queries.get(i % queries.size());
                        Outcome outcome = timed(q[0], () -> HTTP.send(base, "POST", "/v1/sql", sql(q[1])));
                        heavy.add(outcome);
                        if (outcome.status() == 503) {
                            Thread.sleep(1000); // a client honouring Retry-After: 1
                        }
                    }
                    return null;
                });
            }
            String huge = "y".repeat(16 * 1024 * 1024 - 200);
            for (int t = 0; t < 4; t++) {
                int writer = t;
                pool.submit(() -> {
                    String body = "{\"rows\": [{\"k\": " + (100 + writer) + ", \"s\": \"" + huge + "\"}]}";
                    for (int i = 0; System.nanoTime() < deadline; i++) {
                        Outcome outcome = timed("16 MiB write", () -> HTTP.send(base, "POST", "/v1/tables/blobs/rows", body));
                        heavy.add(outcome);
                        if (outcome.status() == 503) {
                            Thread.sleep(1000);
                        }
                    }
                    return null;
                });
            }
            // /v1/sql classed by its statements (security.AdmissionFilter, analyze.Weight): a one-key SELECT and a
            // small UPSERT are light, so they are admitted while the heavy places are full.
            ConcurrentLinkedQueue<Long> lightSql = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Long> smallWrites = new ConcurrentLinkedQueue<>();
            java.util.concurrent.atomic.AtomicInteger writerWaitRetries = new java.util.concurrent.atomic.AtomicInteger();
            for (int t = 0; t < 2; t++) {
                int caller = t;
                pool.submit(() -> {
                    for (int i = 0; System.nanoTime() < deadline; i++) {
                        int key = 1 + (i * 7 + caller) % 100;
                        long started = System.nanoTime();
                        HttpResponse<String> r = caller == 0
                                ? HTTP.send(base, "POST", "/v1/sql", sql("SELECT v FROM items WHERE id = ?", key))
                                : HTTP.send(base, "POST", "/v1/sql", sql("UPSERT INTO notes VALUES (?, ?)", key, "n" + i));
                        (caller == 0 ? lightSql : smallWrites).add((System.nanoTime() - started) / 1_000_000);
                        if (caller == 1 && r.statusCode() == 400 && r.body().contains("for other writers to finish")) {
                            // Behind a 16 MiB write that ran into the timeout itself (a loaded machine), a small
                            // write's wait for the earlier commit ends in the same timeout: refused with nothing
                            // written and "retry it". A client retries once, as told; that retry must succeed.
                            writerWaitRetries.incrementAndGet();
                            started = System.nanoTime();
                            r = HTTP.send(base, "POST", "/v1/sql", sql("UPSERT INTO notes VALUES (?, ?)", key, "n" + i));
                            smallWrites.add((System.nanoTime() - started) / 1_000_000);
                        }
                        if (r.statusCode() != 200 || caller == 0 && !r.body().contains("\"v" + key + "\"")) {
                            lightFailures.add((caller == 0 ? "one-key SELECT " : "small UPSERT ") + r.statusCode() + " "
                                    + r.body());
                        }
                        Thread.sleep(20);
                    }
                    return null;
                });
            }
            List<Long> latencies = oneKeyReads(base, deadline, lightFailures);
            pool.shutdown();
            assertThat(pool.awaitTermination(ABUSE.toSeconds() + 120, TimeUnit.SECONDS)).isTrue();

            long p50 = percentile(latencies, 0.5);
            long p99 = percentile(latencies, 0.99);
            List<Long> sqlLatencies = lightSql.stream().sorted().toList();
            long sqlP99 = percentile(sqlLatencies, 0.99);
            long bound = bound(baselineP99);
            Map<String, Long> codes = heavy.stream().collect(Collectors.groupingBy(o -> o.what() + " -> " + o.status()
                    + " " + o.code(), java.util.TreeMap::new, Collectors.counting()));
            long slowest = heavy.stream().mapToLong(Outcome::millis).max().orElse(0);
            System.out.println("abuse: baseline one-key reads " + baseline.size() + ", p50 " + percentile(baseline, 0.5)
                    + " ms, p99 " + baselineP99 + " ms; bound under abuse " + bound + " ms");
            System.out.println("abuse: one-key reads " + latencies.size() + ", p50 " + p50 + " ms, p99 " + p99
                    + " ms, max " + latencies.get(latencies.size() - 1) + " ms, failures " + lightFailures.size());
            List<Long> writeLatencies = smallWrites.stream().sorted().toList();
            System.out.println("abuse: one-key SELECTs over /v1/sql " + sqlLatencies.size() + ", p50 "
                    + percentile(sqlLatencies, 0.5) + " ms, p99 " + sqlP99 + " ms, max "
                    + sqlLatencies.get(sqlLatencies.size() - 1) + " ms");
            System.out.println("abuse: small UPSERTs over /v1/sql " + writeLatencies.size() + ", p50 "
                    + percentile(writeLatencies, 0.5) + " ms, p99 " + percentile(writeLatencies, 0.99) + " ms, max "
                    + writeLatencies.get(writeLatencies.size() - 1) + " ms, retried after a writer wait "
                    + writerWaitRetries.get());
            System.out.println("abuse: heavy requests " + heavy.size() + ", slowest " + slowest + " ms: " + codes);
            assertThat(lightFailures).as("one-key reads and small writes that failed").isEmpty();
            assertThat(p99).as("one-key read p99 (ms) under abuse; baseline p99 " + baselineP99).isLessThan(bound);
            assertThat(sqlP99).as("one-key /v1/sql SELECT p99 (ms) under abuse; baseline p99 " + baselineP99)
                    .isLessThan(bound);
            // A small write is admitted at once (none refused, above), but its commit becomes visible only after
            // every writer that drew an earlier sequence (engine.StatementEngine): behind a 16 MiB write it waits
            // for that write's transaction, whose statements the timeout bounds (seconds on a loaded machine).
            assertThat(percentile(writeLatencies, 0.99)).as("small /v1/sql UPSERT p99 (ms) under abuse")
                    .isLessThan(2 * TIMEOUT_MS);
            for (Outcome o : heavy) {
                assertThat(o.status()).as(o.toString()).isLessThan(500 + 4); // 503 OVERLOADED at most
                if (o.status() != 200) {
                    assertThat(o.code()).as(o.toString()).isIn(HEAVY_CODES);
                }
                // The statement timeout, plus the admission wait, plus reading and answering; a write that
                // succeeds runs its commit protocol's statements and its own, each bounded by the timeout, and
                // may wait for an earlier writer's commit (seconds on a loaded 2-core machine): two timeouts.
                assertThat(o.millis()).as(o.toString())
                        .isLessThan((o.status() == 200 ? 2 : 1) * TIMEOUT_MS + 2_000 + 6_000);
            }
            // Under abuse a heavy query may end in the timeout before it reaches its own limit (a sort on a loaded
            // 2-core machine: CI once saw no RESOURCE_LIMIT in 40 s). Alone, each one ends with the code of the
            // limit it was written to reach.
            Map<String, String> alone = new java.util.LinkedHashMap<>();
            for (String[] q : queries) {
                alone.put(q[0], timed(q[0], () -> HTTP.send(base, "POST", "/v1/sql", sql(q[1]))).code());
            }
            assertThat(alone).isEqualTo(Map.of("cartesian stream", "RESULT_TOO_LARGE", "cartesian sort",
                    "RESOURCE_LIMIT", "cartesian count", "STATEMENT_TIMEOUT", "value blow-up", "VALUE_TOO_LARGE"));

            // Actuator on its own port (management.server.port, as the Helm chart sets): probes open, metrics for admins.
            assertThat(HTTP.send(management, "GET", "/actuator/health/liveness", null).statusCode()).isEqualTo(200);
            assertThat(HTTP.send(management, "GET", "/actuator/health/readiness", null).statusCode()).isEqualTo(200);
            assertThat(HTTP.send(base, "GET", "/actuator/health/readiness", null).statusCode()).isEqualTo(404);
            assertThat(HTTP.anonymous(management + "/actuator/prometheus").statusCode()).isEqualTo(401);
            assertThat(HTTP.send(base, "GET", "/graphiql", null).statusCode()).isEqualTo(403);
            assertThat(HTTP.anonymous(management + "/actuator/health").body()).doesNotContain("components");
            String metrics = HTTP.send(management, "GET", "/actuator/prometheus", null).body();
            System.out.println("abuse: " + metrics.lines().filter(l -> l.startsWith("verso_admission_rejections_total"))
                    .collect(Collectors.joining("; ")));
            assertThat(metrics).containsPattern("verso_admission_rejections_total\\{[^}]*limit=\"heavy\"[^}]*\\} [1-9]");
            try (Statement s = sentinel.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
                assertThat(rs.next()).as("PostgreSQL kept the connection opened before the abuse").isTrue();
            }
        } finally {
            if (app != null) {
                app.close();
            }
            pg.close();
        }
    }

    /**
     * The bound one-key reads' p99 must keep under abuse: a second (the figure), or ten times what the
     * same readers got with no abuse in this run when the machine is that slow already (a shared 2-core box
     * running other builds), but never half the statement timeout. What admission prevents, one-key reads
     * queued behind heavy ones, costs the admission wait or the timeout (seconds) and stays over the bound;
     * what it cannot prevent, the heavy queries' CPU slowing the machine, is measured against the baseline.
     */
    private static long bound(long baselineP99) {
        return Math.min(TIMEOUT_MS / 2, Math.max(1_000, 10 * baselineP99));
    }

    private static long percentile(List<Long> sorted, double p) {
        return sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * p) - 1));
    }

    /** Four callers reading one key each (REST) every 20 ms until the deadline: the latencies, sorted. */
    private static List<Long> oneKeyReads(String base, long deadline, ConcurrentLinkedQueue<String> failures)
            throws Exception {
        ConcurrentLinkedQueue<Long> light = new ConcurrentLinkedQueue<>();
        ExecutorService readers = Executors.newFixedThreadPool(4);
        for (int t = 0; t < 4; t++) {
            int reader = t;
            readers.submit(() -> {
                for (int i = 0; System.nanoTime() < deadline; i++) {
                    int key = 1 + (i * 7 + reader) % 100;
                    long started = System.nanoTime();
                    HttpResponse<String> r = HTTP.send(base, "GET", "/v1/tables/items/row?key=" + key, null);
                    light.add((System.nanoTime() - started) / 1_000_000);
                    if (r.statusCode() != 200 || !r.body().contains("\"v" + key + "\"")) {
                        failures.add("one-key read " + r.statusCode() + " " + r.body());
                    }
                    Thread.sleep(20);
                }
                return null;
            });
        }
        readers.shutdown();
        assertThat(readers.awaitTermination((deadline - System.nanoTime()) / 1_000_000_000 + 120, TimeUnit.SECONDS))
                .isTrue();
        return light.stream().sorted().toList();
    }

    private static void setUp(String base) throws Exception {
        expect(HTTP.send(base, "POST", "/v1/sql", sql("CREATE TABLE big (k INT PRIMARY KEY, v INT) VERSIONED; "
                + "CREATE TABLE items (id INT PRIMARY KEY, v TEXT) VERSIONED; "
                + "CREATE TABLE blobs (k INT PRIMARY KEY, s TEXT) VERSIONED; "
                + "CREATE TABLE notes (id INT PRIMARY KEY, v TEXT) VERSIONED")));
        for (int chunk = 0; chunk < 4; chunk++) {
            int from = chunk * 5_000;
            String rows = IntStream.range(from, from + 5_000).mapToObj(i -> "(" + i + ", " + (i % 97) + ")")
                    .collect(Collectors.joining(", "));
            expect(HTTP.send(base, "POST", "/v1/sql", sql("UPSERT INTO big VALUES " + rows)));
        }
        expect(HTTP.send(base, "POST", "/v1/sql", sql("UPSERT INTO items VALUES " + IntStream.rangeClosed(1, 100)
                .mapToObj(i -> "(" + i + ", 'v" + i + "')").collect(Collectors.joining(", ")))));
        String mib = "x".repeat(1 << 20);
        for (int k = 1; k <= 4; k++) {
            expect(HTTP.send(base, "POST", "/v1/sql", SqlClient.JSON.writeValueAsString(Map.of("sql",
                    "UPSERT INTO blobs VALUES (?, ?)", "params", List.of(k, mib)))));
        }
    }

    private static void expect(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    interface Call {
        HttpResponse<String> call() throws Exception;
    }

    private static Outcome timed(String what, Call call) {
        long started = System.nanoTime();
        try {
            HttpResponse<String> r = call.call();
            String code = r.statusCode() == 200 ? "" : SqlClient.JSON.readTree(r.body()).path("code").asString();
            if (DETAILS.putIfAbsent(what + " " + code, r.body()) == null && r.statusCode() != 200) {
                System.out.println("abuse: first " + what + " -> " + r.statusCode() + ": "
                        + r.body().substring(0, Math.min(400, r.body().length())));
            }
            return new Outcome(what, r.statusCode(), code, (System.nanoTime() - started) / 1_000_000);
        } catch (Exception e) {
            return new Outcome(what, 599, e.toString(), (System.nanoTime() - started) / 1_000_000);
        }
    }
}
