package io.verso.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.verso.support.IntegrationTest;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Many open change streams beside one-key reads (issue 24): {@code -Dverso.stream-bench.streams} SSE streams
 * (500) over {@code .tables} tables (10), opened by callers of 50 streams each (the per-caller limit is 100),
 * while a writer commits one row every {@code .interval-ms} (250) for {@code .writes} commits (60) and one
 * client reads one key after another over REST and /v1/sql. Reports the one-key read p50/p99 before the
 * streams and while they run, and the delivery latency (write acknowledged to event received) over every
 * stream and commit, with how many streams missed a commit or had it later than 1 s. Runs only with
 * {@code -Dverso.stream-bench=true}; bench/streams.sh runs it. Figures go to docs/benchmark.md by hand.
 */
class StreamFanOutBenchmark extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void report() throws Exception {
        assumeTrue(Boolean.getBoolean("verso.stream-bench"), "benchmark runs only with -Dverso.stream-bench=true");
        int streamCount = Integer.getInteger("verso.stream-bench.streams", 500);
        int tableCount = Integer.getInteger("verso.stream-bench.tables", 10);
        int writes = Integer.getInteger("verso.stream-bench.writes", 60);
        long interval = Integer.getInteger("verso.stream-bench.interval-ms", 250);
        String role = table("bench_reader");
        List<String> tables = new ArrayList<>();
        StringBuilder ddl = new StringBuilder("CREATE ROLE " + role + "; GRANT SELECT ON ALL TABLES TO " + role);
        for (int i = 0; i < tableCount; i++) {
            String t = table("fan");
            tables.add(t);
            ddl.append("; CREATE TABLE ").append(t).append(" (k INT PRIMARY KEY, v INT) VERSIONED; UPSERT INTO ")
                    .append(t).append(" VALUES (1, 0)");
        }
        sql.run(ddl.toString());

        List<Double> before = reads(tables.get(0), 200);
        List<SseClient> streams = new ArrayList<>();
        List<String> followed = new ArrayList<>();
        try {
            for (int i = 0; i < streamCount; i++) {
                String token = TestSecurity.jwt("bench-" + (i / 50), role);
                String t = tables.get(i % tableCount);
                // From 0: the table's first commit is replayed at once, which sends the response's headers (a stream
                // caught up from the start would send them only with its first event or heartbeat).
                SseClient stream = new SseClient(port, t, "?after=0", null, "Authorization", "Bearer " + token);
                assertThat(stream.status).as("stream " + i).isEqualTo(200);
                streams.add(stream);
                followed.add(t);
            }
            Thread.sleep(2000);
            Map<Long, Long> acked = new ConcurrentHashMap<>();
            Map<Long, String> tableOf = new ConcurrentHashMap<>();
            AtomicBoolean writing = new AtomicBoolean(true);
            Thread writer = new Thread(() -> {
                try {
                    for (int w = 0; w < writes; w++) {
                        long next = System.nanoTime() + interval * 1_000_000;
                        // Never a row's present value: an UPSERT that changes nothing is no change, and no event.
                        String t = tables.get(w % tableCount);
                        long commit = sql.write("UPSERT INTO " + t + " VALUES (?, ?)", 1 + w % 5, 1000 + w);
                        acked.put(commit, System.nanoTime());
                        tableOf.put(commit, t);
                        Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    writing.set(false);
                }
            });
            writer.start();
            List<Double> during = new ArrayList<>();
            while (writing.get()) {
                during.addAll(reads(tables.get(1 % tableCount), 20));
            }
            writer.join();
            // Time for the last commits to arrive: a commit still missing then is reported as missed.
            Thread.sleep(Integer.getInteger("verso.stream-bench.settle-ms", 10_000));

            List<Double> lags = new ArrayList<>();
            int late = 0;
            int missed = 0;
            java.util.Set<Long> missing = new java.util.TreeSet<>();
            for (int i = 0; i < streams.size(); i++) {
                Map<Long, Long> received = new java.util.HashMap<>();
                for (SseClient.Event e = streams.get(i).next(Duration.ZERO); e != null;
                        e = streams.get(i).next(Duration.ZERO)) {
                    if ("commit".equals(e.name())) {
                        received.put(Long.parseLong(e.id()), e.receivedNanos());
                    }
                }
                boolean streamLate = false;
                boolean streamMissed = false;
                for (var commit : acked.entrySet()) {
                    if (!tableOf.get(commit.getKey()).equals(followed.get(i))) {
                        continue;
                    }
                    Long at = received.get(commit.getKey());
                    if (at == null) {
                        streamMissed = true;
                        missing.add(commit.getKey());
                        continue;
                    }
                    double lag = Math.max(0, at - commit.getValue()) / 1e6;
                    lags.add(lag);
                    streamLate |= lag > 1000;
                }
                late += streamLate ? 1 : 0;
                missed += streamMissed ? 1 : 0;
            }
            String report = String.format("%n== %d change streams over %d tables, a write every %d ms (%d writes) ==%n"
                            + "one-key read (REST + /v1/sql), no streams: p50 %.1f ms, p99 %.1f ms (%d reads)%n"
                            + "one-key read (REST + /v1/sql), streams open, writes running: p50 %.1f ms, p99 %.1f ms"
                            + " (%d reads)%n"
                            + "delivery, write acknowledged -> event received: p50 %.1f ms, p99 %.1f ms, max %.1f ms"
                            + " (%d deliveries)%n"
                            + "streams that missed a commit (within the settle time): %d, commits missed: %s;"
                            + " streams with a commit later than 1 s: %d%n",
                    streamCount, tableCount, interval, writes, pct(before, 50), pct(before, 99), before.size(),
                    pct(during, 50), pct(during, 99), during.size(), pct(lags, 50), pct(lags, 99), pct(lags, 100),
                    lags.size(), missed, missing, late);
            System.out.println(report);
            String file = System.getProperty("verso.stream-bench.report");
            if (file != null) {
                java.nio.file.Files.writeString(java.nio.file.Path.of(file), report);
            }
        } finally {
            for (SseClient stream : streams) {
                stream.close();
            }
        }
    }

    /** {@code n} one-key reads, alternately REST and /v1/sql, one after another: their latencies in ms. */
    private List<Double> reads(String table, int n) throws Exception {
        List<Double> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long started = System.nanoTime();
            HttpRequest request = i % 2 == 0
                    ? HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/tables/" + table + "/row?key=1"))
                            .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).build()
                    : HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/sql"))
                            .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": \"SELECT v FROM " + table
                                    + " WHERE k = 1\"}")).build();
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            out.add((System.nanoTime() - started) / 1e6);
        }
        return out;
    }

    private static double pct(List<Double> values, int p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
