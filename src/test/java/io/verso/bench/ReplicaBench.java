package io.verso.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Read scale-out (bench/replicas.sh, docs/replicas.md): one-key AS OF reads per second at N clients
 * against two instances of the service on one primary, one reading only from the primary and one
 * with a hot standby in verso.read-replicas, in alternating rounds of the same run. Prints a
 * markdown table and writes it to target/bench/replicas.md.
 *
 * <p>Arguments: --primaryOnly=URL --withReplica=URL [--keys=2000] [--versions=5] [--clients=16]
 * [--seconds=8] [--rounds=3]
 */
public final class ReplicaBench {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /** Reads done through each instance, warm-up included. */
    private static final AtomicLong[] TOTAL = {new AtomicLong(), new AtomicLong(), new AtomicLong()};

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (String arg : args) {
            String[] kv = arg.replaceFirst("^--", "").split("=", 2);
            a.put(kv[0], kv.length > 1 ? kv[1] : "true");
        }
        // The 1-replica instance twice: without Verso-Min-Commit (as fresh as the primary: one lookup
        // there per read) and with Verso-Min-Commit: 0 (session consistency, no primary lookup).
        String[] targets = {a.get("primaryOnly"), a.get("withReplica"), a.get("withReplica")};
        String[] headers = {null, null, "0"};
        String[] labels = {"0 replicas", "1 replica", "1 replica, `Verso-Min-Commit: 0`"};
        int keys = Integer.parseInt(a.getOrDefault("keys", "2000"));
        int versions = Integer.parseInt(a.getOrDefault("versions", "5"));
        int clients = Integer.parseInt(a.getOrDefault("clients", "16"));
        int seconds = Integer.parseInt(a.getOrDefault("seconds", "8"));
        int rounds = Integer.parseInt(a.getOrDefault("rounds", "5"));
        int warmup = Integer.parseInt(a.getOrDefault("warmup", "10"));

        String table = "replica_bench";
        sql(targets[0], "DROP TABLE IF EXISTS " + table, "");
        sql(targets[0], "CREATE TABLE " + table + " (k BIGINT PRIMARY KEY, v BIGINT, at BIGINT) VERSIONED VALID BY (at)", "");
        List<Long> commits = new ArrayList<>();
        for (int version = 1; version <= versions; version++) {
            for (int from = 0; from < keys; from += 1000) {
                StringBuilder values = new StringBuilder();
                for (int k = from; k < Math.min(keys, from + 1000); k++) {
                    values.append(k == from ? "" : ", ").append('(').append(k).append(", ").append(k * 10L + version)
                            .append(", ").append(version).append(')');
                }
                String body = sql(targets[0], "UPSERT INTO " + table + " (k, v, at) VALUES " + values, "");
                commits.add(Long.parseLong(field(body, "commit")));
            }
        }
        // Wait until the replica has replayed the last commit, so every round reads the same data.
        long last = commits.get(commits.size() - 1);
        for (int i = 0; i < 200 && replicaReads(targets[1]) < 0; i++) {
            Thread.sleep(50);
        }
        Thread.sleep(1000);
        sql(targets[1], "SELECT v FROM " + table + " WHERE k = 0 AS OF COMMIT ?", Long.toString(last));

        // Both JVMs are fresh: a discarded round per target first, so the rounds compare compiled code.
        for (int t = 0; t < 3; t++) {
            run(targets[t], headers[t], new AtomicLong(), table, keys, commits, clients, warmup);
        }
        double[][] perSecond = new double[3][rounds];
        double replicaBefore = replicaReads(targets[1]);
        long readsBefore = TOTAL[1].get() + TOTAL[2].get();
        for (int round = 0; round < rounds; round++) {
            for (int t = 0; t < 3; t++) {
                int target = (t + round) % 3; // rotate which goes first
                perSecond[target][round] = run(targets[target], headers[target], TOTAL[target], table, keys, commits,
                        clients, seconds);
            }
        }
        double replicaShare = (replicaReads(targets[1]) - replicaBefore) / (TOTAL[1].get() + TOTAL[2].get() - readsBefore);

        StringBuilder out = new StringBuilder();
        out.append("One-key `AS OF COMMIT` reads through `POST /v1/sql`, ").append(clients).append(" clients, ")
                .append(rounds).append(" rounds of ").append(seconds).append(" s each, ").append(keys)
                .append(" keys x ").append(versions).append(" versions; median of rounds, after a ").append(warmup)
                .append(" s warm-up round per instance.\n\n");
        out.append("| instance | reads/s (median) | rounds | ratio |\n| --- | ---: | --- | ---: |\n");
        double base = median(perSecond[0]);
        for (int t = 0; t < 3; t++) {
            out.append("| ").append(labels[t]).append(" | ").append(String.format("%.0f", median(perSecond[t])))
                    .append(" | ").append(rounds(perSecond[t])).append(" | ")
                    .append(String.format("%.2f", median(perSecond[t]) / base)).append(" |\n");
        }
        out.append("\nShare of the 1-replica instance's reads served by the standby: ")
                .append(String.format("%.1f %%", 100 * replicaShare)).append('\n');
        System.out.println(out);
        Path file = Path.of("target/bench/replicas.md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, out.toString());
    }

    /** Reads per second of {@code clients} threads reading one random key AS OF a random commit. */
    private static double run(String base, String header, AtomicLong total, String table, int keys, List<Long> commits, int clients, int seconds)
            throws InterruptedException {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong done = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        String text = "SELECT v FROM " + table + " WHERE k = ? AS OF COMMIT ?";
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Thread thread = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (running.get()) {
                    long commit = commits.get(random.nextInt(commits.size()));
                    try {
                        sql(base, header, text, random.nextInt(keys) + ", " + commit);
                        done.incrementAndGet();
                        total.incrementAndGet();
                    } catch (IOException | RuntimeException e) {
                        failed.incrementAndGet();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        Thread.sleep(1000); // warm-up, not counted
        long start = done.get();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long count = done.get() - start;
        double elapsed = (System.nanoTime() - t0) / 1e9;
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " failed reads against " + base);
        }
        return count / elapsed;
    }

    private static String sql(String base, String text, String params) throws IOException, InterruptedException {
        return sql(base, null, text, params);
    }

    private static String sql(String base, String header, String text, String params)
            throws IOException, InterruptedException {
        StringBuilder body = new StringBuilder("{\"sql\":");
        Json.string(body, text);
        body.append(",\"params\":[").append(params).append("]}");
        HttpRequest.Builder request = VersoClient.request(URI.create(base + "/v1/sql"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (header != null) {
            request.header("Verso-Min-Commit", header);
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /** verso_reads_total{target="replica"} of an instance, -1 before it has one. */
    private static double replicaReads(String base) throws IOException, InterruptedException {
        String metrics = HTTP.send(VersoClient.request(URI.create(base + "/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("verso_reads_total\\{[^}]*target=\"replica\"[^}]*} (\\S+)").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\"?(\\d+)").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return m.group(1);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String rounds(double[] values) {
        List<String> parts = new ArrayList<>();
        for (double v : values) {
            parts.add(String.format("%.0f", v));
        }
        return String.join(", ", parts);
    }
}
