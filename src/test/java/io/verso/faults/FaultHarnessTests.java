package io.verso.faults;

import static org.assertj.core.api.Assertions.assertThat;

import static io.verso.support.ServiceHttp.freePort;
import static io.verso.support.ServiceHttp.sql;

import io.verso.support.ServiceHttp;
import io.verso.support.ServiceProcess;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The fault harness (issue 14), run by {@code .ci/run} through {@code mvn -B verify}: the service runs as a
 * separate JVM on a private PostgreSQL cluster this test starts (its own data folder and port, fsync and
 * synchronous_commit on, never the shared cluster). Under steady concurrent writes (each request one commit
 * of five new rows and an overwrite of a row that existed before the faults) and one-key reads, the service
 * is killed with SIGKILL and started again, PostgreSQL is restarted (fast shutdown: a checkpoint, then
 * exit), and PostgreSQL crashes (SIGKILL of the postmaster and every backend, as the kernel's OOM killer or
 * a lost machine would: nothing flushed but the WAL, crash recovery at the next start), several times. Then: every
 * acknowledged write is present; a request refused with an answer applied nothing; a request whose answer
 * was lost (connection dropped, or DATABASE_UNAVAILABLE while PostgreSQL went down mid-commit) applied all
 * of its rows or none; AS OF answers taken before the faults are unchanged. Writers retry as the retry
 * protocol says, with the same Idempotency-Key, until they have an answer: no request is applied twice,
 * and no retry is told IDEMPOTENCY_KEY_IN_FLIGHT more than 5 s after the service was ready again (a claim
 * whose service or database died is recognised as gone). The counts are printed.
 * {@code -Dverso.faults.kills=3 -Dverso.faults.restarts=2 -Dverso.faults.crashes=2
 * -Dverso.faults.steady-seconds=5} set its size.
 */
class FaultHarnessTests {

    private static final ServiceHttp HTTP = new ServiceHttp(Duration.ofSeconds(2), Duration.ofSeconds(15));
    private static final int KILLS = Integer.getInteger("verso.faults.kills", 3);
    private static final int RESTARTS = Integer.getInteger("verso.faults.restarts", 2);
    private static final int CRASHES = Integer.getInteger("verso.faults.crashes", 2);
    private static final long STEADY_MS = Long.getLong("verso.faults.steady-seconds", 5) * 1000;
    private static final int ROWS = 5;
    private static final int BASE_ROWS = 20;

    record Sent(long request, int writer, String outcome) {
    }

    /** Retried outcomes: the service or database is away, or the first run may still be running. */
    private static final Set<String> RETRIED = Set.of("lost", "unreachable", "503 DATABASE_UNAVAILABLE",
            "503 OVERLOADED", "409 IDEMPOTENCY_KEY_IN_FLIGHT");

    private final Path folder;
    /** When the service answered ready, after each start and each PostgreSQL fault. */
    private final ConcurrentLinkedQueue<Long> ready = new ConcurrentLinkedQueue<>();
    private int pgPort;
    private int servicePort;
    private EmbeddedPostgres pg;
    private Process service;
    private int starts;

    FaultHarnessTests() throws Exception {
        folder = Files.createTempDirectory("verso-faults");
    }

    @Test
    void acknowledgedWritesSurviveKilledServicesAndRestartedPostgres() throws Exception {
        TestSecurity.ensure();
        pgPort = freePort();
        servicePort = freePort();
        startPostgres();
        try {
            startService();
            String base = "http://localhost:" + servicePort;
            expect(base, sql("CREATE TABLE base (id INT PRIMARY KEY, v TEXT) VERSIONED; "
                    + "CREATE TABLE acks (id BIGINT PRIMARY KEY, w INT, req BIGINT) VERSIONED; "
                    + "CREATE TABLE applied (req BIGINT) APPEND"));
            for (int i = 0; i < BASE_ROWS; i++) {
                expect(base, sql("UPSERT INTO base VALUES (?, ?)", i, "start-" + i));
            }
            long before = Long.parseLong(expect(base, sql("SHOW TABLES")).path("readCommit").asString());
            List<String> asOfQueries = List.of("SELECT id, v FROM base AS OF COMMIT " + before + " ORDER BY id",
                    "SELECT count(*) FROM acks AS OF COMMIT " + before,
                    "SELECT id, v FROM base AS OF COMMIT " + (before - 3) + " ORDER BY id");
            List<String> asOfAnswers = new ArrayList<>();
            for (String q : asOfQueries) {
                asOfAnswers.add(expect(base, sql(q)).path("results").get(0).path("rows").toString());
            }

            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong requests = new AtomicLong();
            ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();
            AtomicInteger reads = new AtomicInteger();
            AtomicInteger retries = new AtomicInteger();
            // Each IN_FLIGHT answer: when, and when its request was first sent.
            ConcurrentLinkedQueue<long[]> inFlight = new ConcurrentLinkedQueue<>();
            ExecutorService pool = Executors.newFixedThreadPool(6);
            for (int w = 0; w < 4; w++) {
                int writer = w;
                pool.submit(() -> {
                    while (!stop.get()) {
                        long req = requests.incrementAndGet();
                        String values = LongStream.range(0, ROWS).mapToObj(r -> "(" + (req * ROWS + r) + ", " + writer
                                + ", " + req + ")").collect(Collectors.joining(", "));
                        String body = sql("UPSERT INTO acks VALUES " + values + "; UPSERT INTO base VALUES (?, ?); "
                                + "INSERT INTO applied VALUES (?)", (int) (req % BASE_ROWS), "req-" + req, req);
                        // A client that follows the retry protocol: the same request with the same key until it
                        // has an answer that is not "try again".
                        Map<String, String> key = Map.of("Idempotency-Key", "faults-" + req);
                        String outcome;
                        long firstSent = System.nanoTime();
                        while (true) {
                            try {
                                HttpResponse<String> r = HTTP.send(base, "POST", "/v1/sql", body, key);
                                outcome = r.statusCode() == 200 ? "acked" : r.statusCode() + " "
                                        + SqlClient.JSON.readTree(r.body()).path("code").asString();
                            } catch (java.net.ConnectException e) {
                                outcome = "unreachable"; // the service is down: nothing was sent
                            } catch (Exception e) {
                                outcome = "lost";
                            }
                            if (outcome.equals("409 IDEMPOTENCY_KEY_IN_FLIGHT")) {
                                inFlight.add(new long[] {System.nanoTime(), firstSent});
                            }
                            if (stop.get() || !RETRIED.contains(outcome)) {
                                break;
                            }
                            retries.incrementAndGet();
                            Thread.sleep(200);
                        }
                        sent.add(new Sent(req, writer, outcome));
                        Thread.sleep(outcome.equals("acked") ? 5 : 200);
                    }
                    return null;
                });
            }
            for (int t = 0; t < 2; t++) {
                pool.submit(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        try {
                            if (HTTP.send(base, "GET", "/v1/tables/base/row?key=" + (i % BASE_ROWS), null).statusCode() == 200) {
                                reads.incrementAndGet();
                            }
                        } catch (Exception e) {
                            Thread.sleep(200);
                        }
                        Thread.sleep(10);
                    }
                    return null;
                });
            }
            int kills = 0;
            int restarts = 0;
            int crashes = 0;
            long started = System.nanoTime();
            for (int round = 0; round < KILLS + RESTARTS + CRASHES; round++) {
                Thread.sleep(STEADY_MS);
                // Service kills alternate with PostgreSQL faults, which alternate between a crash and a restart.
                boolean kill = kills < KILLS && (round % 2 == 0 || restarts + crashes >= RESTARTS + CRASHES);
                boolean crash = !kill && crashes < CRASHES && (crashes <= restarts || restarts >= RESTARTS);
                String what;
                if (kill) {
                    service.destroyForcibly();
                    service.waitFor(30, TimeUnit.SECONDS);
                    startService();
                    kills++;
                    what = "service killed (SIGKILL) and restarted";
                } else if (crash) {
                    crashPostgres();
                    Thread.sleep(1000);
                    startPostgres();
                    awaitReady();
                    crashes++;
                    what = "PostgreSQL crashed (SIGKILL of the postmaster and its backends) and recovered";
                } else {
                    pg.close();
                    Thread.sleep(1000);
                    startPostgres();
                    awaitReady();
                    restarts++;
                    what = "PostgreSQL restarted (fast shutdown)";
                }
                System.out.println("faults: " + what + " after " + (System.nanoTime() - started) / 1_000_000
                        + " ms; " + sent.size() + " requests sent");
            }
            Thread.sleep(STEADY_MS);
            stop.set(true);
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

            // What is stored: the rows of acks by request, read through the service.
            Map<Long, Integer> stored = new java.util.HashMap<>();
            for (int w = 0; w < 4; w++) {
                JsonNode rows = expect(base, sql("SELECT req FROM acks WHERE w = ?", w)).path("results").get(0).path("rows");
                for (JsonNode row : rows) {
                    stored.merge(row.get(0).asLong(), 1, Integer::sum);
                }
            }
            int acked = 0;
            int refused = 0;
            int lost = 0;
            int lostApplied = 0;
            Set<String> problems = new HashSet<>();
            Map<String, Long> outcomes = sent.stream().collect(Collectors.groupingBy(Sent::outcome,
                    java.util.TreeMap::new, Collectors.counting()));
            for (Sent s : sent) {
                int present = stored.getOrDefault(s.request(), 0);
                if (s.outcome().equals("acked")) {
                    acked++;
                    if (present != ROWS) {
                        problems.add("acknowledged request " + s.request() + " has " + present + " of " + ROWS + " rows");
                    }
                } else if (s.outcome().equals("409 IDEMPOTENT_REQUEST_COMMITTED")) {
                    // Its first run committed and the answer was lost: the retry is told, and the rows are there.
                    acked++;
                    if (present != ROWS) {
                        problems.add("committed request " + s.request() + " has " + present + " of " + ROWS + " rows");
                    }
                } else if (RETRIED.contains(s.outcome())) {
                    // Still retrying when the run stopped; an answer may have been lost after a commit: all or nothing.
                    lost++;
                    if (present == ROWS) {
                        lostApplied++;
                    } else if (present != 0) {
                        problems.add("request " + s.request() + " (" + s.outcome() + ") is half applied: " + present);
                    }
                } else {
                    refused++;
                    if (present != 0) {
                        problems.add("refused request " + s.request() + " (" + s.outcome() + ") applied " + present);
                    }
                }
            }
            // No request applied twice, however often it was retried.
            JsonNode twice = expect(base, sql("SELECT req, count(*) FROM applied GROUP BY req HAVING count(*) > 1"))
                    .path("results").get(0).path("rows");
            if (!twice.isEmpty()) {
                problems.add("requests applied more than once: " + twice);
            }
            // A retry is answered (its stored answer, its commit, or it runs) within 5 s of the service being
            // ready after a fault: a claim whose service or database died is recognised as gone.
            long late = 0;
            long latest = 0;
            for (long[] answer : inFlight) {
                long t = answer[0];
                long readyBefore = ready.stream().filter(r -> r <= t).mapToLong(Long::longValue).max().orElse(0);
                if (answer[1] >= readyBefore) {
                    continue; // first sent to the running service: its first run may well be running still
                }
                long after = (t - readyBefore) / 1_000_000;
                latest = Math.max(latest, after);
                if (after > 5_000) {
                    late++;
                }
            }
            if (late > 0) {
                problems.add(late + " retries were still told IDEMPOTENCY_KEY_IN_FLIGHT more than 5 s after the service "
                        + "was ready (the latest " + latest + " ms after)");
            }
            int unchanged = 0;
            for (int i = 0; i < asOfQueries.size(); i++) {
                String now = expect(base, sql(asOfQueries.get(i))).path("results").get(0).path("rows").toString();
                if (now.equals(asOfAnswers.get(i))) {
                    unchanged++;
                } else {
                    problems.add("AS OF answer changed: " + asOfQueries.get(i) + " was " + asOfAnswers.get(i) + " now " + now);
                }
            }
            System.out.println("faults: " + kills + " service kills (SIGKILL), " + restarts + " PostgreSQL restarts, "
                    + crashes + " PostgreSQL crashes (SIGKILL) in " + (System.nanoTime() - started) / 1_000_000
                    + " ms; requests " + sent.size() + " " + outcomes);
            System.out.println("faults: acknowledged " + acked + " (" + acked * ROWS + " rows), all present: "
                    + problems.stream().noneMatch(p -> p.startsWith("acknowledged")) + "; refused with an answer " + refused
                    + " (none applied: " + problems.stream().noneMatch(p -> p.startsWith("refused")) + "); answer lost "
                    + lost + " (applied whole " + lostApplied + ", not applied " + (lost - lostApplied) + "); AS OF answers "
                    + unchanged + "/" + asOfQueries.size() + " unchanged; one-key reads answered " + reads.get()
                    + "; retries with the same Idempotency-Key " + retries.get() + ", told IN_FLIGHT " + inFlight.size()
                    + " (the latest " + latest + " ms after the service was ready)");
            assertThat(problems).isEmpty();
            assertThat(acked).isGreaterThan(0);
            assertThat(kills + restarts + crashes).isEqualTo(KILLS + RESTARTS + CRASHES);
        } finally {
            if (service != null) {
                service.destroyForcibly();
                service.waitFor(30, TimeUnit.SECONDS);
            }
            pg.close();
        }
    }

    private void startPostgres() throws Exception {
        // Crash recovery replays the WAL written since the last checkpoint before the server accepts connections.
        pg = EmbeddedPostgres.builder().setDataDirectory(folder.resolve("pgdata")).setCleanDataDirectory(false)
                .setPort(pgPort).setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on").setPGStartupWait(Duration.ofSeconds(60)).start();
    }

    /**
     * SIGKILL to the postmaster (its pid is the first line of postmaster.pid) and to every process it started,
     * all at once: no shutdown checkpoint, no backend finishing its transaction. The backends go too, since a
     * postmaster starting on the folder refuses while a process of the old one still holds its shared memory.
     */
    private void crashPostgres() throws Exception {
        long pid = Long.parseLong(Files.readAllLines(folder.resolve("pgdata").resolve("postmaster.pid")).get(0).trim());
        ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("no postmaster " + pid));
        List<ProcessHandle> all = new ArrayList<>(postmaster.descendants().toList());
        all.add(0, postmaster);
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle process : all) {
            process.onExit().get(30, TimeUnit.SECONDS);
        }
        pg.close(); // its pg_ctl stop finds no server (logged); it lets go of its lock on the data folder
    }

    /** The service as its own JVM (ServiceProcess), noted as ready once it answers so. */
    private void startService() throws Exception {
        starts++;
        service = ServiceProcess.start(new File("target/faults/service-" + starts + ".log"), servicePort,
                "jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres", "512m");
        ready.add(System.nanoTime());
    }

    /** Waits until the running service says it is ready again (PostgreSQL is back), and notes when. */
    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                if (HTTP.send("http://localhost:" + servicePort, "GET", "/actuator/health/readiness", null)
                        .statusCode() == 200) {
                    ready.add(System.nanoTime());
                    return;
                }
            } catch (Exception e) {
                // not answering yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the service was not ready again within 120 s of PostgreSQL's start");
    }

    private static JsonNode expect(String base, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(base, "POST", "/v1/sql", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return SqlClient.JSON.readTree(r.body());
    }
}
