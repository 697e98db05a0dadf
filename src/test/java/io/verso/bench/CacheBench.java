package io.verso.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * One-key reads and HTTP caching side by side (bench/cache.sh, docs/benchmark.md "Cached reads"): with the
 * same clients and keys, PostgreSQL direct (a prepared statement on a plain table), Verso's current read,
 * the same read through GraphQL ({@code <table>_by_key}), its repeated AS OF read of hot keys (answered from the
 * cache of pinned answers) and a conditional GET of an unchanged current row (304 without rendering it), alone
 * and while other keys of its table are written. Each scenario runs for a fixed time per round, rounds
 * interleaved; reported are reads/s, the ratio to PostgreSQL direct in the same round, and the CPU the service
 * and PostgreSQL's processes spent per read (from /proc; PostgreSQL's includes whatever else the machine's
 * cluster ran meanwhile, so it is an upper bound).
 */
public final class CacheBench {

    private static final String TABLE = "cache_bench";
    private static final String REST = "Verso GET …/row, current";
    private static final String GRAPHQL = "Verso POST /graphql " + TABLE + "_by_key, current";
    private static final String CACHED = "Verso GET …/row?asOfCommit, repeated (hot keys)";
    private static final String GRAPHQL_VARIABLES = "Verso POST /graphql " + TABLE + "_by_key, current, key as a variable";
    private static final int WRITES_PER_SECOND = 50;
    private static final String WRITTEN = "Verso GET …/row, If-None-Match, other keys written (" + WRITES_PER_SECOND
            + " rows/s)";

    private final String base;
    private final String pgUrl;
    private final ServiceCpu service;
    private final int keys;
    private final int hot;
    private final int clients;
    private final double seconds;
    private final int rounds;
    private final KeepAliveHttp http;
    /** Whether to measure conditional GETs: false for a service that has no ETags (one before issue 26). */
    private final boolean conditional;
    private final String postmaster;
    private final String servicePid;
    /** How long the service took to warm up, and its JIT's share (reported with the figures). */
    private JitWarmUp.Result warmUp;
    private long asOf;
    private String[] etags;

    /** Per round, the share of {@link #WRITTEN}'s reads answered 304. */
    private final List<Double> shareNotModified = new ArrayList<>();

    /** The service's {@code java -version} first line ({@code --java}, from cache.sh), for the report. */
    private final String serviceJava;

    private CacheBench(Map<String, String> args) {
        this.base = args.getOrDefault("url", "http://127.0.0.1:18080");
        this.pgUrl = args.get("pg");
        this.service = new ServiceCpu(args.get("servicePid"));
        this.servicePid = args.get("servicePid");
        this.keys = Integer.parseInt(args.getOrDefault("keys", "20000"));
        this.hot = Integer.parseInt(args.getOrDefault("hot", "2000"));
        this.clients = Integer.parseInt(args.getOrDefault("clients", "16"));
        this.seconds = Double.parseDouble(args.getOrDefault("seconds", "5"));
        this.rounds = Integer.parseInt(args.getOrDefault("rounds", "3"));
        this.http = new KeepAliveHttp(base, System.getenv("VERSO_API_KEY"));
        this.conditional = Boolean.parseBoolean(args.getOrDefault("conditional", "true"));
        this.postmaster = args.get("pgPid");
        this.serviceJava = args.get("java");
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new LinkedHashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(2, eq), a.substring(eq + 1));
        }
        CacheBench bench = new CacheBench(args);
        String report = bench.run();
        Path out = Path.of(args.getOrDefault("out", "target/bench/cache.md"));
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.println(report);
    }

    /** One way of reading a key, run by every client thread. */
    private interface Read {
        void read(int key) throws Exception;
    }

    /** One round of a scenario: its rate, CPU per read, and the latency of its reads (p50 and p99, ms). */
    private record Sample(double perSecond, double serviceMicros, double pgMicros, double p50Ms, double p99Ms) {
    }

    private String run() throws Exception {
        setUp();
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            measure(samples, "PostgreSQL direct (prepared, plain table)", keys, directRead());
            measure(samples, REST, keys, k -> ok(http.get(rowPath(k, null)), 200));
            measure(samples, GRAPHQL, keys, k -> ok(http.post("/graphql", byKey(k)), 200));
            measure(samples, GRAPHQL_VARIABLES, keys, k -> ok(http.post("/graphql", byKeyVariable(k)), 200));
            measure(samples, CACHED, hot,
                    k -> ok(http.get(rowPath(k, asOf)), 200));
            if (conditional) {
                measure(samples, "Verso GET …/row, If-None-Match (304)", hot,
                        k -> ok(http.get(rowPath(k, null), "If-None-Match: " + etags[k] + "\r\n"), 304));
                measureWhileWritten(samples);
            }
        }
        return report(samples);
    }

    /**
     * The conditional GET of hot keys while a writer upserts other keys of the table (a row a second, one request
     * each, {@link #WRITES_PER_SECOND}): the share answered 304, for {@link #report}. A client that holds a row
     * unchanged since its copy is the one conditional GETs are for; every write to the table moved an ETag made of
     * the table's last write.
     */
    private void measureWhileWritten(Map<String, List<Sample>> samples) throws Exception {
        LongAdder notModified = new LongAdder();
        LongAdder all = new LongAdder();
        VersoClient writes = new VersoClient(base);
        long[] written = new long[1];
        Exception[] failed = new Exception[1];
        // Stopped by a flag, not an interrupt: a write interrupted in flight may still commit after the ETags below.
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread writer = new Thread(() -> {
            long period = 1_000_000_000L / WRITES_PER_SECOND;
            for (long next = System.nanoTime(); !stop.get(); next += period) {
                int key = hot + ThreadLocalRandom.current().nextInt(keys - hot);
                try {
                    writes.sql("UPSERT INTO " + TABLE + " VALUES (" + key + ", 'rewritten " + next + "')", "");
                    written[0]++;
                    long wait = next + period - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    failed[0] = e;
                    return;
                }
            }
        });
        writer.start();
        try {
            measure(samples, WRITTEN, hot, k -> {
                int status = http.get(rowPath(k, null), "If-None-Match: " + etags[k] + "\r\n").status();
                if (status != 304 && status != 200) {
                    throw new IllegalStateException("status " + status + ", expected 304 or 200");
                }
                all.increment();
                if (status == 304) {
                    notModified.increment();
                }
            });
        } finally {
            stop.set(true);
            writer.join();
        }
        if (failed[0] != null || written[0] == 0) {
            throw new IllegalStateException("the writer wrote " + written[0] + " rows", failed[0]);
        }
        shareNotModified.add(notModified.sum() / (double) all.sum());
        fetchEtags();
    }

    private void setUp() throws Exception {
        VersoClient verso = new VersoClient(base);
        verso.sql("DROP TABLE IF EXISTS " + TABLE, "");
        verso.sql("CREATE TABLE " + TABLE + " (id BIGINT PRIMARY KEY, v TEXT) VERSIONED", "");
        for (int version = 0; version < 2; version++) {
            for (int from = 0; from < keys; from += 1000) {
                StringBuilder values = new StringBuilder();
                for (int k = from; k < Math.min(keys, from + 1000); k++) {
                    values.append(k == from ? "" : ", ").append('(').append(k).append(", 'value ").append(k)
                            .append(" v").append(version).append("')");
                }
                String receipt = verso.sql("UPSERT INTO " + TABLE + " VALUES " + values, "");
                if (version == 0) {
                    asOf = Long.parseLong(receipt.replaceAll("(?s).*\"commit\":\"(\\d+)\".*", "$1"));
                }
            }
        }
        try (Connection pg = DriverManager.getConnection(pgUrl); Statement s = pg.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + TABLE);
            s.execute("CREATE TABLE " + TABLE + " (id bigint PRIMARY KEY, v text)");
            s.execute("INSERT INTO " + TABLE + " SELECT k, 'value ' || k || ' v1' FROM generate_series(0, "
                    + (keys - 1) + ") AS k");
            s.execute("ANALYZE " + TABLE);
        }
        fetchEtags();
        // Warm-up: every scenario a while, the cache filled with the hot keys, until the service's JIT settles.
        Map<String, List<Sample>> ignored = new LinkedHashMap<>();
        measure(ignored, "warm-up", keys, directRead());
        for (int k = 0; k < hot; k++) {
            ok(http.get(rowPath(k, asOf)), 200);
        }
        warmUp = new JitWarmUp(servicePid).run(() -> {
            measure(ignored, "warm-up", keys, k -> ok(http.get(rowPath(k, null)), 200));
            measure(ignored, "warm-up", keys, k -> ok(http.post("/graphql", byKey(k)), 200));
            measure(ignored, "warm-up", keys, k -> ok(http.post("/graphql", byKeyVariable(k)), 200));
            measure(ignored, "warm-up", hot, k -> ok(http.get(rowPath(k, asOf)), 200));
            if (conditional) {
                measure(ignored, "warm-up", hot, k -> ok(http.get(rowPath(k, null), "If-None-Match: " + etags[k]
                        + "\r\n"), 304));
            }
        }, 1);
    }

    /**
     * The hot keys' current ETags (a second read: the first after the CREATE reads the long way). Again after the
     * table was written: a client's copy is the one its last 200 gave it.
     */
    private void fetchEtags() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        etags = new String[hot];
        for (int k = 0; k < hot && conditional; k++) {
            for (int attempt = 0; attempt < 2 && etags[k] == null; attempt++) {
                HttpResponse<Void> r = client.send(VersoClient.request(URI.create(base + rowPath(k, null))).build(),
                        HttpResponse.BodyHandlers.discarding());
                etags[k] = r.headers().firstValue("ETag").orElse(null);
            }
            if (etags[k] == null) {
                throw new IllegalStateException("no ETag on the current read of key " + k);
            }
        }
    }

    private Read directRead() {
        ThreadLocal<PreparedStatement> statements = ThreadLocal.withInitial(() -> {
            try {
                return DriverManager.getConnection(pgUrl).prepareStatement("SELECT id, v FROM " + TABLE + " WHERE id = ?");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return k -> {
            PreparedStatement ps = statements.get();
            ps.setLong(1, k);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no row " + k);
                }
            }
        };
    }

    /** The GraphQL read of one key, current: the same row as {@link #rowPath}'s. */
    private static String byKey(int key) {
        return "{\"query\": \"{ " + TABLE + "_by_key(id: " + key + ") { id v } }\"}";
    }

    /**
     * The same read as {@link #byKey}, the key as a variable: one document for every key, parsed and validated once
     * (what a client that follows GraphQL's practice sends).
     */
    private static String byKeyVariable(int key) {
        return "{\"query\": \"query K($id: BigInt!) { " + TABLE + "_by_key(id: $id) { id v } }\", "
                + "\"variables\": {\"id\": \"" + key + "\"}}";
    }

    private static String rowPath(int key, Long asOfCommit) {
        return "/v1/tables/" + TABLE + "/row?key=" + key + (asOfCommit == null ? "" : "&asOfCommit=" + asOfCommit);
    }

    private static void ok(KeepAliveHttp.Answer answer, int status) {
        if (answer.status() != status) {
            throw new IllegalStateException("status " + answer.status() + ", expected " + status);
        }
    }

    private void measure(Map<String, List<Sample>> samples, String name, int keyRange, Read read) throws Exception {
        LongAdder done = new LongAdder();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> threads = new ArrayList<>();
        Exception[] failure = new Exception[1];
        long[][] latencies = new long[clients][];
        int[] counts = new int[clients];
        double serviceBefore = service.seconds();
        double pgBefore = postgresSeconds();
        long started = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            int client = c;
            Thread t = new Thread(() -> {
                long[] nanos = new long[1 << 14];
                int n = 0;
                try {
                    for (long now = System.nanoTime(); now < end; ) {
                        read.read(ThreadLocalRandom.current().nextInt(keyRange));
                        long after = System.nanoTime();
                        if (n == nanos.length) {
                            nanos = Arrays.copyOf(nanos, 2 * n);
                        }
                        nanos[n++] = after - now;
                        now = after;
                        done.increment();
                    }
                } catch (Exception e) {
                    failure[0] = e;
                }
                latencies[client] = nanos;
                counts[client] = n;
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure[0] != null) {
            throw new IllegalStateException(name + " failed, after " + done.sum() + " reads", failure[0]);
        }
        double wall = (System.nanoTime() - started) / 1e9;
        long reads = done.sum();
        double serviceCpu = service.seconds() - serviceBefore;
        double pgCpu = postgresSeconds() - pgBefore;
        long[] all = new long[Arrays.stream(counts).sum()];
        for (int c = 0, at = 0; c < clients; at += counts[c], c++) {
            System.arraycopy(latencies[c], 0, all, at, counts[c]);
        }
        Arrays.sort(all);
        samples.computeIfAbsent(name, n -> new ArrayList<>()).add(new Sample(reads / wall,
                serviceBefore < 0 ? Double.NaN : serviceCpu * 1e6 / reads, pgBefore < 0 ? Double.NaN : pgCpu * 1e6 / reads,
                percentile(all, 0.50), percentile(all, 0.99)));
    }

    /** The {@code q} quantile of sorted {@code nanos}, in milliseconds. */
    private static double percentile(long[] nanos, double q) {
        return nanos.length == 0 ? Double.NaN : nanos[(int) Math.min(nanos.length - 1, Math.floor(q * nanos.length))] / 1e6;
    }

    /**
     * CPU seconds of the cluster's postmaster ({@code --pgPid}) and its children (backends, and what ended
     * ones spent, in the postmaster's cutime), or -1 when unknown.
     */
    private double postgresSeconds() {
        if (postmaster == null) {
            return -1;
        }
        double total = 0;
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                if (!p.getFileName().toString().chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String line = Files.readString(p.resolve("stat"));
                    String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
                    if (!p.getFileName().toString().equals(postmaster) && !fields[1].equals(postmaster)) {
                        continue;
                    }
                    // utime, stime, and cutime, cstime: what ended backends spent lands in the postmaster's.
                    total += (Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
                            + Long.parseLong(fields[14])) / 100.0;
                } catch (IOException | RuntimeException gone) {
                    // the process ended meanwhile
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return total;
    }

    private String report(Map<String, List<Sample>> samples) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "## Cached reads (%d clients, %,d keys, %,d hot, %d rounds of %.0f s)%n%n",
                clients, keys, hot, rounds, seconds));
        if (serviceJava != null) {
            md.append("Service Java: ").append(serviceJava).append(".\n\n");
        }
        md.append("Service warm-up before the rounds: ").append(warmUp).append(".\n\n");
        md.append("| scenario | reads/s (min–max) | / PostgreSQL direct | service CPU µs/read | PostgreSQL CPU µs/read "
                + "| p50 ms | p99 ms |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        List<Sample> direct = samples.values().iterator().next();
        for (Map.Entry<String, List<Sample>> e : samples.entrySet()) {
            List<Sample> s = e.getValue();
            double min = s.stream().mapToDouble(Sample::perSecond).min().orElse(0);
            double max = s.stream().mapToDouble(Sample::perSecond).max().orElse(0);
            double ratio = 0;
            for (int i = 0; i < s.size(); i++) {
                ratio += s.get(i).perSecond() / direct.get(i).perSecond();
            }
            ratio /= s.size();
            md.append(String.format(Locale.ROOT, "| %s | %,.0f–%,.0f | %.2f× | %s | %s | %s | %s |%n", e.getKey(), min, max,
                    ratio, range(s, Sample::serviceMicros, "%.0f"), range(s, Sample::pgMicros, "%.0f"),
                    range(s, Sample::p50Ms, "%.3f"), range(s, Sample::p99Ms, "%.3f")));
        }
        List<Sample> rest = samples.get(REST);
        if (!shareNotModified.isEmpty()) {
            md.append(String.format(Locale.ROOT, "%n%s: %.0f–%.0f%% of reads answered 304 (the hot keys are never "
                    + "written; the rest 200).%n", WRITTEN, 100 * shareNotModified.stream().mapToDouble(d -> d).min()
                    .orElseThrow(), 100 * shareNotModified.stream().mapToDouble(d -> d).max().orElseThrow()));
        }
        md.append('\n');
        targets(md, samples);
        md.append('\n');
        for (String scenario : List.of(GRAPHQL, GRAPHQL_VARIABLES)) {
            List<Sample> graphql = samples.get(scenario);
            double rate = 0;
            double cpu = 0;
            for (int i = 0; i < rest.size(); i++) {
                rate += rest.get(i).perSecond() / graphql.get(i).perSecond() / rest.size();
                cpu += graphql.get(i).serviceMicros() / rest.get(i).serviceMicros() / rest.size();
            }
            md.append(String.format(Locale.ROOT, "%s against the REST row, same round: REST reads %.2f× as many "
                    + "a second; GraphQL costs the service %.2f× the CPU per read.%n", scenario, rate, cpu));
        }
        return md.toString();
    }

    /**
     * Issue 26's targets for these reads (item 2's CPU, item 5's rates and latency), each from the worst round: the
     * rates are meant at 16 clients on an idle machine, the p50 at one client.
     */
    private void targets(StringBuilder md, Map<String, List<Sample>> samples) {
        List<Sample> direct = samples.values().iterator().next();
        List<Sample> rest = samples.get(REST);
        md.append("| target | measured (worst round) | met |\n| --- | ---: | --- |\n");
        double restRatio = worst(rest, direct);
        target(md, "REST row, current, ≥ 0.3× PostgreSQL direct (16 clients)", String.format(Locale.ROOT, "%.2f×",
                restRatio), restRatio >= 0.3);
        double cpu = rest.stream().mapToDouble(Sample::serviceMicros).max().orElse(Double.NaN);
        target(md, "REST row, current, service CPU ≤ 100 µs per read", String.format(Locale.ROOT, "%.0f µs", cpu),
                cpu <= 100);
        List<Sample> cached = samples.get(CACHED);
        double cachedRatio = worst(cached, direct);
        target(md, "repeated AS OF of hot keys ≥ 0.5× PostgreSQL direct", String.format(Locale.ROOT, "%.2f×",
                cachedRatio), cachedRatio >= 0.5);
        for (String scenario : List.of(GRAPHQL, GRAPHQL_VARIABLES)) {
            double behind = 1 / worst(samples.get(scenario), rest);
            target(md, scenario + " within 1.5× of the REST row's rate", String.format(Locale.ROOT, "%.2f×", behind),
                    behind <= 1.5);
        }
        if (clients == 1) {
            double p50 = rest.stream().mapToDouble(Sample::p50Ms).max().orElse(Double.NaN);
            target(md, "REST row, current, p50 ≤ 0.25 ms at 1 client", String.format(Locale.ROOT, "%.3f ms", p50),
                    p50 <= 0.25);
        }
    }

    /** The least ratio of {@code s}'s rate to {@code base}'s in one round. */
    private static double worst(List<Sample> s, List<Sample> base) {
        double worst = Double.MAX_VALUE;
        for (int i = 0; i < s.size(); i++) {
            worst = Math.min(worst, s.get(i).perSecond() / base.get(i).perSecond());
        }
        return worst;
    }

    private static void target(StringBuilder md, String what, String measured, boolean met) {
        md.append("| ").append(what).append(" | ").append(measured).append(" | ").append(met ? "yes" : "**no**")
                .append(" |\n");
    }

    /** The range of {@code f} over the rounds, in {@code format} (one figure's, used for both ends); "—" when unknown. */
    private static String range(List<Sample> s, java.util.function.ToDoubleFunction<Sample> f, String format) {
        double min = s.stream().mapToDouble(f).min().orElse(Double.NaN);
        double max = s.stream().mapToDouble(f).max().orElse(Double.NaN);
        return Double.isNaN(min) ? "—" : String.format(Locale.ROOT, format + "–" + format, min, max);
    }
}
