package io.verso.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Side-by-side figures for derived tables and feeds, in one run: ingest into a source alone, with
 * one and with three derived tables (the first two kept by the keys each commit changes, the third
 * recomputed); feed replay throughput; end-to-end lag of the live stream. Runs only with
 * {@code -Dverso.feed-bench=true} (sizes: {@code -Dverso.feed-bench.batches}, {@code .rows}); prints
 * its report and writes it to {@code -Dverso.feed-bench.report} if given. bench/feeds.sh runs it.
 */
class FeedBenchmark extends IntegrationTest {

    @Test
    void report() throws Exception {
        assumeTrue(Boolean.getBoolean("verso.feed-bench"), "benchmark runs only with -Dverso.feed-bench=true");
        int batches = Integer.getInteger("verso.feed-bench.batches", 40);
        int rows = Integer.getInteger("verso.feed-bench.rows", 250);
        StringBuilder report = new StringBuilder("\n== derived tables and feeds (" + batches + " batches x " + rows
                + " rows) ==\n");
        String aloneTable = null;
        // Warm-up: the first scenario would otherwise pay for JIT and caches alone.
        String warm = table("bw");
        sql.write("CREATE TABLE " + warm + " (k BIGINT PRIMARY KEY, account INT, amount NUMERIC(20,2), ix INT)"
                + " VERSIONED VALID BY (ix)");
        ingest(warm, Math.max(1, batches / 4), rows, new Random(7));
        // Each setting three times, interleaved, so that drift (JIT, caches, vacuum) spreads over all of them;
        // ratios are of means.
        java.util.Map<Integer, List<Double>> rates = new java.util.TreeMap<>();
        for (int derived : new int[] {0, 1, 3, 0, 3, 1, 0, 1, 3}) {
            String s = table("bs");
            sql.write("CREATE TABLE " + s + " (k BIGINT PRIMARY KEY, account INT, amount NUMERIC(20,2), ix INT)"
                    + " VERSIONED VALID BY (ix)");
            List<String> queries = List.of(
                    "SELECT account, sum(amount) AS total, count(*) AS n FROM " + s + " GROUP BY account",
                    "SELECT k, amount FROM " + s + " WHERE amount > 50",
                    "SELECT bucket, max(amount) AS top FROM (SELECT ix % 10 AS bucket, amount FROM " + s + ") AS x GROUP BY bucket");
            List<String> keys = List.of("account", "k", "bucket");
            for (int d = 0; d < derived; d++) {
                sql.write("CREATE DERIVED TABLE " + table("bd") + " PRIMARY KEY (" + keys.get(d) + ") AS "
                        + queries.get(d));
            }
            double rate = ingest(s, batches, rows, new Random(42));
            if (derived == 0 && aloneTable == null) {
                aloneTable = s;
            }
            rates.computeIfAbsent(derived, d -> new java.util.ArrayList<>()).add(rate);
        }
        double alone = rates.get(0).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        rates.forEach((derived, runs) -> {
            double mean = runs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            report.append(String.format("ingest, source with %d derived table(s): %,.0f rows/s (%.2fx source alone; runs %s)%n",
                    derived, mean, mean / alone, runs.stream().map(r -> String.format("%,.0f", r)).toList()));
        });
        // Replay of the whole feed of the source alone, in JSON pages.
        long started = System.nanoTime();
        long changes = 0;
        long after = 0;
        boolean more = true;
        HttpClient http = HttpClient.newHttpClient();
        while (more) {
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                    + "/v1/tables/" + aloneTable + "/changes?limit=10000&after=" + after)).header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode json = SqlClient.JSON.readTree(page.body());
            changes += json.get("changes").size();
            after = Long.parseLong(json.get("next").asString());
            more = json.get("more").asBoolean();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        report.append(String.format("feed replay (JSON pages of 10,000): %,d changes in %.2f s = %,.0f changes/s%n",
                changes, seconds, changes / seconds));
        // Live lag: a single-row write, then the time until its event arrives on an open stream.
        String live = table("bl");
        sql.write("CREATE TABLE " + live + " (k INT PRIMARY KEY, v INT) VERSIONED");
        List<Double> fromAck = new ArrayList<>();
        List<Double> fromSend = new ArrayList<>();
        try (SseClient stream = new SseClient(port, live, null)) {
            Thread.sleep(500);
            for (int i = 0; i < 100; i++) {
                long sent = System.nanoTime();
                long commit = sql.write("UPSERT INTO " + live + " VALUES (?, ?)", i % 10, i);
                long acked = System.nanoTime();
                SseClient.Event event = stream.next(Duration.ofSeconds(10));
                assertThat(event.id()).isEqualTo(Long.toString(commit));
                fromSend.add((event.receivedNanos() - sent) / 1e6);
                fromAck.add(Math.max(0, event.receivedNanos() - acked) / 1e6);
            }
        }
        report.append(String.format("stream lag, write sent -> event received: p50 %.1f ms, p99 %.1f ms%n",
                pct(fromSend, 50), pct(fromSend, 99)));
        report.append(String.format("stream lag, receipt -> event received: p50 %.1f ms, p99 %.1f ms%n",
                pct(fromAck, 50), pct(fromAck, 99)));
        // The same through the GraphQL subscription (WebSocket, graphql-ws).
        List<Double> graphql = new ArrayList<>();
        try (io.verso.support.GraphqlSocket socket = io.verso.support.GraphqlSocket.open(port,
                java.util.Map.of(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY),
                java.util.Map.of())) {
            socket.next();
            socket.subscribe("lag", live, sql.latestCommit());
            Thread.sleep(500);
            for (int i = 0; i < 100; i++) {
                long commit = sql.write("UPSERT INTO " + live + " VALUES (?, ?)", i % 10, 1000 + i);
                long acked = System.nanoTime();
                JsonNode event = socket.data("lag", live);
                assertThat(event.get("commit").asString()).isEqualTo(Long.toString(commit));
                graphql.add(Math.max(0, System.nanoTime() - acked) / 1e6);
            }
        }
        report.append(String.format("GraphQL subscription lag, receipt -> event received: p50 %.1f ms, p99 %.1f ms%n",
                pct(graphql, 50), pct(graphql, 99)));
        System.out.println(report);
        String file = System.getProperty("verso.feed-bench.report");
        if (file != null) {
            java.nio.file.Files.writeString(java.nio.file.Path.of(file), report.toString());
        }
    }

    private double ingest(String s, int batches, int rows, Random random) {
        long started = System.nanoTime();
        for (int b = 0; b < batches; b++) {
            StringBuilder values = new StringBuilder();
            for (int r = 0; r < rows; r++) {
                values.append(r > 0 ? ", " : "").append("(").append(random.nextInt(5000)).append(", ")
                        .append(random.nextInt(100)).append(", ").append(random.nextInt(10000) / 100.0).append(", ")
                        .append(random.nextInt(1000)).append(")");
            }
            sql.write("UPSERT INTO " + s + " VALUES " + values);
        }
        return batches * (double) rows / ((System.nanoTime() - started) / 1e9);
    }

    private static double pct(List<Double> values, int p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
