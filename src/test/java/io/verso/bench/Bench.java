package io.verso.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The benchmark of issue 6: the same workload ingested and read through Verso (REST, the
 * statement endpoint, GraphQL), as hand-written SQL straight on PostgreSQL, and on MariaDB's
 * system-versioned tables; figures and ratios written to {@code <out>/results.md} and
 * {@code <out>/results.json}. The service must be running at {@code --url}; {@code bench/run.sh}
 * starts one against a fresh database and runs this.
 */
public final class Bench {

    private static final String VERSO_MAIN = "bench_rest";
    private static final String VERSO_SQL = "bench_sql";
    private static final String VERSO_GQL = "bench_gql";
    /** The table of the scenario that writes every attribute group (issue 26, item 7). */
    private static final String VERSO_GROUPS = "bench_groups";
    private static final String PG_MAIN = "balances";
    private static final int BARE_WARM_UP = 20_000;
    private static final String MARIA_MAIN = "bench_balances";

    private final BenchConfig config;
    private final VersoClient verso;
    /** The bare Spring Boot app (bench/bare) over the direct table, when it runs: the one-key read's baseline. */
    private final VersoClient bare;
    /** The bare app's one-key current reads, by clients. */
    private final Map<Integer, Measure> bareReads = new LinkedHashMap<>();
    private final DirectPg pg;
    private final MariaDb maria;
    private final List<Figure> figures = new ArrayList<>();
    private final Map<String, Object> checks = new LinkedHashMap<>();
    /** Bytes on disk of each system's main table after the ingest, and per version written. */
    private final Map<String, Object> storage = new LinkedHashMap<>();
    private final Map<String, String> failures = new LinkedHashMap<>();
    private HeapSampler heap;

    Bench(BenchConfig config, Supplier<Connection> postgres, Supplier<Connection> mariadb) {
        this.config = config;
        this.verso = new VersoClient(config.url());
        this.bare = config.bareUrl().isEmpty() ? null : new VersoClient(config.bareUrl());
        this.pg = new DirectPg(postgres, config.pgSchema());
        this.maria = mariadb == null ? null : new MariaDb(mariadb);
    }

    public static void main(String[] args) throws Exception {
        BenchConfig config = BenchConfig.parse(args);
        Supplier<Connection> mariadb = null;
        if (!config.mariadbUrl().isEmpty()) {
            try {
                DriverManager.getDriver(config.mariadbUrl());
                mariadb = connector(config.mariadbUrl());
            } catch (SQLException e) {
                System.out.println("MariaDB skipped: no driver for " + config.mariadbUrl() + " (run with -Pbench)");
            }
        }
        Path report = new Bench(config, connector(config.pgUrl()), mariadb).run();
        System.out.println(Files.readString(report));
    }

    static Supplier<Connection> connector(String url) {
        return () -> {
            try {
                return DriverManager.getConnection(url);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot connect to " + url + ": " + e.getMessage(), e);
            }
        };
    }

    /** Runs every scenario; returns the Markdown report. */
    Path run() throws Exception {
        Map<String, Object> environment = environment("before");
        Workload w = new Workload(config.keys(), config.versions(), config.batch(), config.seed());
        log("workload: %,d keys × %d versions = %,d writes in %,d batches of %,d", w.keys, w.versions, w.writes(),
                w.batches(), w.batchSize);
        try (HeapSampler sampler = new HeapSampler(verso); DirectPg ignoredPg = pg; MariaDb ignoredMaria = maria) {
            heap = sampler;
            warmUp(w);
            Ingested main = ingest(w);
            crossCheck(w, main);
            storage(w);
            if (config.runs("reads")) {
                reads(w, main);
            }
            if (config.runs("groups")) {
                everyGroup(w);
            }
            if (config.runs("writers")) {
                concurrentWriters(w);
            }
            if (config.runs("keyreads")) {
                concurrentReads(w, main);
            }
            if (config.runs("scale")) {
                scale(w, main);
            }
            if (config.runs("replace")) {
                replacements();
            }
            heap.phase("end");
            environment.putAll(environment("after"));
            if (keyReadWarmUp != null) {
                environment.put("service warm-up before the one-key reads", keyReadWarmUp);
            }
            return write(w, environment, sampler.json());
        }
    }

    /** The commit (or, on MariaDB, the timestamp) each batch of the main ingest made. */
    record Ingested(long[] verso, long[] postgres, Timestamp[] mariadb) {
    }

    static final int WARM_UP_BATCHES = 60;
    static final int WARM_UP_READS = 20_000;

    // ---- ingest ----------------------------------------------------------------------------------

    /**
     * Every system runs the write and read paths a while before anything is measured, into tables of
     * their own: otherwise the first measured scenario pays for the service JVM's JIT compilation
     * (the first REST batches run several times slower than the hundredth) and the others do not.
     */
    private void warmUp(Workload w) throws Exception {
        int batches = Math.min(WARM_UP_BATCHES, w.batches());
        heap.phase("warm-up");
        log("warm-up: %d batches through each system and surface, then %d one-key reads", batches,
                Math.min(WARM_UP_READS, config.keyReads() * 10));
        pg.create(PG_MAIN + "_warm");
        for (String surface : List.of("warm_rest", "warm_sql", "warm_gql")) {
            verso.create("bench_" + surface);
        }
        if (maria != null) {
            maria.create(MARIA_MAIN + "_warm");
        }
        long versoCommit = 0;
        long pgCommit = 0;
        Timestamp mariaTime = null;
        for (int i = 0; i < batches; i++) {
            int[] batch = w.batch(i);
            pgCommit = pg.write(PG_MAIN + "_warm", w, batch);
            if (maria != null) {
                mariaTime = maria.write(MARIA_MAIN + "_warm", w, batch);
            }
            versoCommit = verso.writeRest("bench_warm_rest", w, batch);
            verso.writeSql("bench_warm_sql", w, batch);
            verso.writeGraphql("bench_warm_gql", w, batch);
        }
        // The one-key reads too (now and AS OF): their code path is not the writes', and the first read
        // scenario would otherwise measure it while the JIT is still compiling it.
        int[] keys = w.batch(0);
        int reads = Math.min(WARM_UP_READS, config.keyReads() * 10);
        for (int i = 0; i < reads; i++) {
            int key = w.key(keys[i % keys.length]);
            boolean asOf = i % 2 == 1;
            verso.row("bench_warm_rest", w, key, asOf ? versoCommit : null);
            pg.row(PG_MAIN + "_warm", w, key, asOf ? pgCommit : null);
            if (maria != null) {
                maria.row(MARIA_MAIN + "_warm", w, key, asOf ? mariaTime : null);
            }
        }
    }

    private Ingested ingest(Workload w) throws Exception {
        String section = "Ingest (1 client, one batch per commit)";
        int n = w.batches();
        long[] pgCommits = new long[n];
        heap.phase("ingest");
        pg.create(PG_MAIN);
        log("ingest: PostgreSQL direct");
        Measure direct = Timer.run(1, n, true, i -> {
            int[] batch = w.batch(i);
            pgCommits[i] = pg.write(PG_MAIN, w, batch);
            return batch.length;
        });
        log("  %,.0f rows/s", direct.rowsPerSecond());
        Timestamp[] mariaTimes = new Timestamp[n];
        Measure peer = null;
        if (maria != null) {
            maria.create(MARIA_MAIN);
            log("ingest: MariaDB system-versioned");
            peer = Timer.run(1, n, true, i -> {
                int[] batch = w.batch(i);
                mariaTimes[i] = maria.write(MARIA_MAIN, w, batch);
                return batch.length;
            });
            log("  %,.0f rows/s", peer.rowsPerSecond());
        }
        long[] versoCommits = new long[n];
        String[][] surfaces = {{"REST POST /v1/tables/{t}/rows", VERSO_MAIN, "rest"},
                {"POST /v1/sql (UPSERT … VALUES)", VERSO_SQL, "sql"}, {"GraphQL upsert_<table>", VERSO_GQL, "gql"}};
        for (int s = 0; s < surfaces.length; s++) {
            if (!config.surfaces().contains(surfaces[s][2])) {
                continue;
            }
            String table = surfaces[s][1];
            int surface = s;
            verso.create(table);
            log("ingest: Verso %s", surfaces[s][0]);
            heap.phase("ingest " + table);
            Measure m = Timer.run(1, n, true, i -> {
                int[] batch = w.batch(i);
                long commit = switch (surface) {
                    case 0 -> verso.writeRest(table, w, batch);
                    case 1 -> verso.writeSql(table, w, batch);
                    default -> verso.writeGraphql(table, w, batch);
                };
                if (surface == 0) {
                    versoCommits[i] = commit;
                }
                return batch.length;
            });
            log("  %,.0f rows/s", m.rowsPerSecond());
            figures.add(new Figure(section, "ingest through " + surfaces[s][0], true, m, direct, peer, null));
        }
        return new Ingested(versoCommits, pgCommits, mariaTimes);
    }

    // ---- replacing current versions ----------------------------------------------------------------

    /**
     * Writes that replace every key's current version (issue 26): {@code keys} new keys in batches, then a
     * greater version of each, in the same batches, so every write of the second pass replaces the winner.
     * On Verso through UPSERT and through UPDATE by key; beside PostgreSQL direct (the same versioned
     * statement by hand, and PostgreSQL's own UPDATE of a plain table) and MariaDB (INSERT … ON DUPLICATE
     * KEY UPDATE and UPDATE of a system-versioned table). New-key ingest of the same keys is the first line.
     */
    private void replacements() throws Exception {
        heap.phase("replacements");
        String section = "Replacing current versions (1 client, one batch per commit)";
        Workload two = new Workload(config.keys(), 2, config.batch(), config.seed());
        int n = (two.keys + two.batchSize - 1) / two.batchSize;
        log("replacements: %,d keys in %,d batches of %,d, then a winning version of each", two.keys, n, two.batchSize);

        // Each system: new keys into two tables (the first timed), then the replacing pass into each.
        pg.create("replace_upsert");
        pg.create("replace_plain");
        Measure pgNew = Timer.run(1, n, true, b -> rows(pass(two, b, 0), batch -> pg.write("replace_upsert", two, batch)));
        Timer.run(1, n, true, b -> rows(pass(two, b, 0), batch -> pg.write("replace_plain", two, batch)));
        Measure pgReplace = Timer.run(1, n, true, b -> rows(pass(two, b, 1), batch -> pg.write("replace_upsert", two, batch)));
        Measure pgUpdate = Timer.run(1, n, true, b -> rows(pass(two, b, 1), batch -> pg.update("replace_plain", two, batch)));
        Measure mariaNew = null;
        Measure mariaReplace = null;
        Measure mariaUpdate = null;
        if (maria != null) {
            maria.create("replace_upsert");
            maria.create("replace_update");
            mariaNew = Timer.run(1, n, true, b -> rows(pass(two, b, 0), batch -> maria.write("replace_upsert", two, batch)));
            Timer.run(1, n, true, b -> rows(pass(two, b, 0), batch -> maria.write("replace_update", two, batch)));
            mariaReplace = Timer.run(1, n, true, b -> rows(pass(two, b, 1), batch -> maria.write("replace_upsert", two, batch)));
            mariaUpdate = Timer.run(1, n, true, b -> rows(pass(two, b, 1), batch -> maria.update("replace_update", two, batch)));
        }
        String[] versoTables = {"bench_replace_upsert", "bench_replace_update"};
        for (String t : versoTables) {
            verso.create(t);
        }
        Measure versoNew = Timer.run(1, n, true, b -> rows(pass(two, b, 0), batch -> verso.writeSql(versoTables[0], two, batch)));
        Timer.run(1, n, true, b -> rows(pass(two, b, 0), batch -> verso.writeSql(versoTables[1], two, batch)));
        Measure versoReplace = Timer.run(1, n, true, b -> rows(pass(two, b, 1), batch -> verso.writeSql(versoTables[0], two, batch)));
        Measure versoUpdate = Timer.run(1, n, true, b -> rows(pass(two, b, 1), batch -> verso.updateSql(versoTables[1], two, batch)));
        for (int key = 0; key < two.keys; key += Math.max(1, two.keys / 100)) {
            for (String t : versoTables) {
                String amount = verso.currentAmount(t, two, key);
                if (!two.amount(key, 1).equals(amount)) {
                    throw new IllegalStateException(t + ": key " + key + " has amount " + amount + " after the replacement");
                }
            }
        }
        figures.add(new Figure(section, "new keys through POST /v1/sql UPSERT", true, versoNew, pgNew, mariaNew,
                "the keys the lines below replace"));
        figures.add(new Figure(section, "replacing every key through UPSERT", true, versoReplace, pgReplace, mariaReplace,
                String.format("Verso replacing / new keys %.2f; MariaDB INSERT … ON DUPLICATE KEY UPDATE",
                        versoReplace.rowsPerSecond() / versoNew.rowsPerSecond())));
        figures.add(new Figure(section, "replacing every key through UPDATE by key (100 to a request)", true, versoUpdate, pgUpdate,
                mariaUpdate, String.format("Verso replacing / new keys %.2f; PostgreSQL's own UPDATE of a plain"
                        + " table (no history); MariaDB UPDATE of a system-versioned table",
                        versoUpdate.rowsPerSecond() / versoNew.rowsPerSecond())));
    }

    /** Batch {@code b} of pass {@code v}: its keys in order, each at version v (version 1 beats version 0). */
    private static int[] pass(Workload two, int b, int v) {
        return IntStream.range(b * two.batchSize, Math.min(two.keys, (b + 1) * two.batchSize)).map(k -> k * 2 + v)
                .toArray();
    }

    interface BatchWrite {
        Object write(int[] batch) throws Exception;
    }

    /** Writes {@code batch}; its size, the rows a throughput figure counts. */
    private static long rows(int[] batch, BatchWrite write) throws Exception {
        write.write(batch);
        return batch.length;
    }

    /** Every system must end with the same current rows: each key's greatest version. */
    private void crossCheck(Workload w, Ingested ingested) throws Exception {
        SplittableRandom random = new SplittableRandom(config.seed() + 1);
        int sample = Math.min(200, w.keys);
        int mismatches = 0;
        for (int i = 0; i < sample; i++) {
            int key = random.nextInt(w.keys);
            String expected = w.amount(key, w.winner());
            List<String> seen = new ArrayList<>();
            seen.add(verso.currentAmount(VERSO_MAIN, w, key));
            if (config.surfaces().contains("sql")) {
                seen.add(verso.currentAmount(VERSO_SQL, w, key));
            }
            if (config.surfaces().contains("gql")) {
                seen.add(verso.currentAmount(VERSO_GQL, w, key));
            }
            seen.add(pg.currentAmount(PG_MAIN, w, key));
            if (maria != null) {
                seen.add(maria.currentAmount(MARIA_MAIN, w, key));
            }
            for (String s : seen) {
                if (!expected.equals(s)) {
                    mismatches++;
                }
            }
        }
        checks.put("currentRowsChecked", sample);
        checks.put("currentRowMismatches", mismatches);
        log("cross-check: %d keys, %d mismatches", sample, mismatches);
        if (mismatches > 0) {
            throw new IllegalStateException(mismatches + " current rows differ from the workload's winners");
        }
    }

    // ---- bytes on disk ---------------------------------------------------------------------------

    /**
     * What the main ingest left on disk, tables with their indexes and TOAST, per version written (every
     * write of the workload, winner or not): Verso's current and history tables (read from its own database,
     * {@code --versoDb}), the direct PostgreSQL tables, MariaDB's system-versioned table (InnoDB's figures after
     * ANALYZE TABLE; it keeps a version only when it changes the row, never a losing write).
     */
    private void storage(Workload w) {
        Map<String, Long> bytes = new LinkedHashMap<>();
        if (!config.versoDbUrl().isEmpty()) {
            try (Connection c = DriverManager.getConnection(config.versoDbUrl());
                 PreparedStatement s = c.prepareStatement("SELECT sum(pg_total_relation_size(c.oid))::bigint"
                         + " FROM verso.user_tables t JOIN pg_class c ON c.relname LIKE 't' || t.id || '\\_%'"
                         + " JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'verso_data'"
                         + " WHERE t.name = ? AND c.relkind = 'r'")) {
                s.setString(1, VERSO_MAIN);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    bytes.put("verso", rs.getLong(1));
                }
            } catch (SQLException e) {
                failures.put("storage verso", e.getMessage());
            }
        }
        try {
            bytes.put("postgres", pg.bytes(PG_MAIN));
            if (maria != null) {
                bytes.put("mariadb", maria.bytes(MARIA_MAIN));
            }
        } catch (SQLException e) {
            failures.put("storage", e.getMessage());
        }
        bytes.forEach((system, b) -> {
            storage.put(system + " bytes", b);
            storage.put(system + " bytes per version", Math.round(b * 10.0 / w.writes()) / 10.0);
        });
        log("bytes on disk per version: %s", storage);
    }

    // ---- every attribute group written -----------------------------------------------------------

    /**
     * The workload again through {@code /v1/sql}, into a table of its own, with every write carrying the
     * {@code meta} group as well, ordered by its own label_seq: each key then has a winner in both groups at
     * nearly every commit, and an AS OF read pivots them per key (where the main workload, never writing meta,
     * lets it read one group's versions). Whole-table and filtered reads now and AS OF on it; Verso only, as
     * the baselines have no attribute groups.
     */
    private void everyGroup(Workload w) throws Exception {
        heap.phase("every group");
        String section = "Every attribute group written (Verso only)";
        int n = w.batches();
        long[] commits = new long[n];
        verso.create(VERSO_GROUPS);
        log("ingest: Verso POST /v1/sql, every group written");
        Measure ingest = Timer.run(1, n, true, i -> {
            int[] batch = w.batch(i);
            commits[i] = verso.writeSql(VERSO_GROUPS, w, batch, true);
            return batch.length;
        });
        figures.add(new Figure(section, "every group: ingest through POST /v1/sql", true, ingest, null, null,
                "each write carries both groups"));
        SplittableRandom random = new SplittableRandom(config.seed() + 2);
        int sample = Math.min(200, w.keys);
        int mismatches = 0;
        for (int i = 0; i < sample; i++) {
            int key = random.nextInt(w.keys);
            int meta = w.labelWinner(key);
            if (!w.amount(key, w.winner()).equals(verso.currentAmount(VERSO_GROUPS, w, key))
                    || !Workload.label(meta, w.labelSeq(key, meta)).equals(verso.current(VERSO_GROUPS, "label", w, key))) {
                mismatches++;
            }
        }
        checks.put("everyGroupRowsChecked", sample);
        checks.put("everyGroupRowMismatches", mismatches);
        if (mismatches > 0) {
            throw new IllegalStateException(mismatches + " current rows of " + VERSO_GROUPS + " differ from the winners");
        }
        int reads = config.tableReads();
        readScenario(section, "every group: whole table now", w, reads,
                (k, b) -> verso.select(VERSO_GROUPS, null, null), null, null, "POST /v1/sql SELECT * FROM t");
        readScenario(section, "every group: whole table AS OF a random commit", w, reads,
                (k, b) -> verso.select(VERSO_GROUPS, null, commits[b]), null, null, "each key's winners of both groups");
        readScenario(section, "every group: filtered (chain_id = 1) now", w, reads * 2,
                (k, b) -> verso.select(VERSO_GROUPS, 1L, null), null, null, "a tenth of the keys");
        readScenario(section, "every group: filtered (chain_id = 1) AS OF a random commit", w, reads * 2,
                (k, b) -> verso.select(VERSO_GROUPS, 1L, commits[b]), null, null, "a tenth of the keys");
        readScenario(section, "every group: one key AS OF a random commit", w, config.keyReads(),
                (k, b) -> verso.row(VERSO_GROUPS, w, k, commits[b]), null, null, "GET …/row?key=…&asOfCommit=n");
    }

    // ---- reads -----------------------------------------------------------------------------------

    interface Read {
        long run(int key, int batch) throws Exception;
    }

    private void reads(Workload w, Ingested in) throws Exception {
        heap.phase("reads");
        String section = "Reads (1 client)";
        int keyReads = config.keyReads();
        int tableReads = config.tableReads();
        readScenario(section, "one key now", w, keyReads,
                (k, b) -> verso.row(VERSO_MAIN, w, k, null),
                (k, b) -> pg.row(PG_MAIN, w, k, null),
                (k, b) -> maria.row(MARIA_MAIN, w, k, null), "GET /v1/tables/{t}/row?key=…");
        readScenario(section, "one key AS OF a random commit", w, keyReads,
                (k, b) -> verso.row(VERSO_MAIN, w, k, in.verso()[b]),
                (k, b) -> pg.row(PG_MAIN, w, k, in.postgres()[b]),
                (k, b) -> maria.row(MARIA_MAIN, w, k, in.mariadb()[b]), "GET …/row?key=…&asOfCommit=n");
        readScenario(section, "whole table now", w, tableReads,
                (k, b) -> verso.select(VERSO_MAIN, null, null),
                (k, b) -> pg.select(PG_MAIN, null, null),
                (k, b) -> maria.select(MARIA_MAIN, null, null), "POST /v1/sql SELECT * FROM t");
        readScenario(section, "whole table AS OF a random commit", w, tableReads,
                (k, b) -> verso.select(VERSO_MAIN, null, in.verso()[b]),
                (k, b) -> pg.select(PG_MAIN, null, in.postgres()[b]),
                (k, b) -> maria.select(MARIA_MAIN, null, in.mariadb()[b]), "POST /v1/sql SELECT * FROM t AS OF COMMIT n");
        readScenario(section, "filtered (chain_id = 1) now", w, tableReads * 2,
                (k, b) -> verso.select(VERSO_MAIN, 1L, null),
                (k, b) -> pg.select(PG_MAIN, 1L, null),
                (k, b) -> maria.select(MARIA_MAIN, 1L, null), "a tenth of the keys");
        readScenario(section, "filtered (chain_id = 1) AS OF a random commit", w, tableReads * 2,
                (k, b) -> verso.select(VERSO_MAIN, 1L, in.verso()[b]),
                (k, b) -> pg.select(PG_MAIN, 1L, in.postgres()[b]),
                (k, b) -> maria.select(MARIA_MAIN, 1L, in.mariadb()[b]), "a tenth of the keys");
        readScenario(section, "one key's history", w, keyReads,
                (k, b) -> verso.history(VERSO_MAIN, w, k),
                (k, b) -> pg.history(PG_MAIN, w, k),
                (k, b) -> maria.history(MARIA_MAIN, w, k), "GET …/history?key=…; MariaDB FOR SYSTEM_TIME ALL");
        readLanguage(w, in);
        int span = Math.min(config.diffSpan(), w.batches() / 4);
        readScenario(section, "diff between commits n and n+" + span, w, config.diffReads(),
                (k, b) -> verso.diff(VERSO_MAIN, in.verso()[b - span], in.verso()[b]),
                (k, b) -> pg.diff(PG_MAIN, in.postgres()[b - span], in.postgres()[b]),
                null, "whole table; GET …/diff?from&to vs one SQL statement");
    }

    /**
     * Queries of the whole read language (issue 11) beside the same SQL written by hand over the
     * baseline's current and history tables: the cost of parsing, analysing, compiling and HTTP.
     */
    private void readLanguage(Workload w, Ingested in) throws Exception {
        String section = "Read language (1 client)";
        int count = Math.max(2, config.tableReads());
        readScenario(section, "top-10 by amount AS OF a random commit", w, count,
                (k, b) -> verso.sql("SELECT chain_id, address, token, amount FROM " + VERSO_MAIN + " AS OF COMMIT "
                        + in.verso()[b] + " ORDER BY amount DESC, chain_id, address, token LIMIT 10", "").length(),
                (k, b) -> pg.query(PG_MAIN, "SELECT chain_id, address, token, amount FROM %hist WHERE _from <= ?"
                        + " AND (_to IS NULL OR _to > ?) ORDER BY amount DESC, chain_id, address, token LIMIT 10",
                        in.postgres()[b], in.postgres()[b]),
                null, "ORDER BY … LIMIT over every key's winner at n");
        readScenario(section, "history window (chain_id = 1, commits n-2 to n)", w, count,
                (k, b) -> verso.sql("SELECT chain_id, address, token, _commit, amount - lag(amount) OVER (PARTITION BY"
                        + " chain_id, address, token ORDER BY _commit) AS change FROM history(" + VERSO_MAIN + ")"
                        + " WHERE chain_id = 1 AND _commit BETWEEN " + in.verso()[Math.max(0, b - 2)] + " AND "
                        + in.verso()[b], "").length(),
                (k, b) -> pg.query(PG_MAIN, "SELECT chain_id, address, token, _commit, amount - lag(amount) OVER"
                        + " (PARTITION BY chain_id, address, token ORDER BY _commit) FROM %hist WHERE chain_id = 1"
                        + " AND _commit BETWEEN ? AND ?", in.postgres()[Math.max(0, b - 2)], in.postgres()[b]),
                null, "lag() over history(t)");
        readScenario(section, "AS OF subquery joined to current rows (chain_id = 1)", w, count,
                (k, b) -> verso.sql("SELECT n.address, n.token, n.amount - o.amount FROM " + VERSO_MAIN + " n JOIN"
                        + " (SELECT chain_id, address, token, amount FROM " + VERSO_MAIN + " WHERE chain_id = 1)"
                        + " AS OF COMMIT " + in.verso()[b] + " AS o ON o.chain_id = n.chain_id AND o.address ="
                        + " n.address AND o.token = n.token WHERE n.chain_id = 1", "").length(),
                (k, b) -> pg.query(PG_MAIN, "SELECT n.address, n.token, n.amount - o.amount FROM %cur n JOIN"
                        + " (SELECT chain_id, address, token, amount FROM %hist WHERE chain_id = 1 AND _from <= ?"
                        + " AND (_to IS NULL OR _to > ?)) o ON o.chain_id = n.chain_id AND o.address = n.address"
                        + " AND o.token = n.token WHERE n.chain_id = 1", in.postgres()[b], in.postgres()[b]),
                null, "a derived table AS OF n beside today's rows");
        readScenario(section, "INSERT … SELECT of every key AS OF a commit", w, 1,
                (k, b) -> {
                    String copy = VERSO_MAIN + "_copy";
                    verso.sql("DROP TABLE IF EXISTS " + copy + "; CREATE TABLE " + copy + " (chain_id BIGINT,"
                            + " address TEXT, token TEXT, amount NUMERIC(38,0), PRIMARY KEY (chain_id, address, token))"
                            + " VERSIONED", "");
                    return verso.sql("UPSERT INTO " + copy + " SELECT chain_id, address, token, amount FROM "
                            + VERSO_MAIN + " AS OF COMMIT " + in.verso()[b], "").length();
                },
                (k, b) -> pg.copyAsOf(PG_MAIN, PG_MAIN + "_copy", in.postgres()[b]),
                null, "one commit writing one version per key (" + w.keys + " rows)");
    }

    /**
     * A read scenario on the three systems with the same keys and the same commits (batch indexes):
     * keys uniform, commits from the second half of the ingest, where nearly every key exists.
     */
    private void readScenario(String section, String name, Workload w, int count, Read onVerso, Read onPg,
                              Read onMaria, String note) throws Exception {
        Figure f = new Figure(section, name, false,
                attempt("verso " + name, () -> measure(name, w, count, 1, onVerso)),
                onPg == null ? null : attempt("postgres " + name, () -> measure(name, w, count, 1, onPg)),
                maria == null || onMaria == null ? null
                        : attempt("mariadb " + name, () -> measure(name, w, count, 1, onMaria)), note);
        figures.add(f);
        log("%s: verso %s | pg %s | mariadb %s", name, f.cell(f.verso()), f.cell(f.postgres()), f.cell(f.mariadb()));
    }

    /**
     * A scenario that fails is reported as failed, with a thread dump of the service when its pid is
     * known (--servicePid), and the run goes on.
     */
    private Measure attempt(String name, Callable<Measure> scenario) {
        try {
            return scenario.call();
        } catch (Exception e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
            failures.put(name, VersoClient.abbreviate(message));
            log("FAILED %s: %s", name, message);
            dumpService(name);
            return null;
        }
    }

    private void dumpService(String name) {
        if (config.servicePid() == null || config.servicePid().isEmpty()) {
            return;
        }
        try {
            Path dump = Path.of(config.out(), "jstack-" + name.replaceAll("[^A-Za-z0-9]+", "-") + ".txt");
            Files.createDirectories(dump.getParent());
            new ProcessBuilder("jstack", config.servicePid()).redirectOutput(dump.toFile())
                    .redirectErrorStream(true).start().waitFor();
            log("  service thread dump: %s", dump);
        } catch (IOException | InterruptedException e) {
            log("  no thread dump: %s", e.getMessage());
        }
    }

    private Measure measure(String name, Workload w, int count, int clients, Read read) throws Exception {
        return measure(name, w, count, clients, read, new ServiceCpu(null), new double[2]);
    }

    /** As above, with the service's CPU seconds before and after the measured operations in {@code cpuSeconds}. */
    private Measure measure(String name, Workload w, int count, int clients, Read read, ServiceCpu cpu,
                            double[] cpuSeconds) throws Exception {
        int batches = w.batches();
        int[] keys = new int[count];
        int[] commits = new int[count];
        SplittableRandom random = new SplittableRandom(config.seed() ^ name.hashCode());
        for (int i = 0; i < count; i++) {
            keys[i] = random.nextInt(w.keys);
            commits[i] = batches / 2 + random.nextInt(batches - batches / 2);
        }
        Timer.warm(Math.max(2, Math.min(count / 10, 200)), i -> read.run(keys[i % count], commits[i % count]));
        cpuSeconds[0] = cpu.seconds();
        Measure measured = Timer.run(clients, count, false, i -> read.run(keys[i], commits[i]));
        cpuSeconds[1] = cpu.seconds();
        return measured;
    }

    // ---- concurrency -----------------------------------------------------------------------------

    private void concurrentWriters(Workload w) throws Exception {
        int batches = Math.min(config.concurrentBatches(), w.batches());
        for (int tables : new int[] {1, 4}) {
            for (int clients : config.clients()) {
                heap.phase("concurrent writes");
                String section = "Concurrency";
                // Batch i goes to table i mod tables: with 4 tables, writers of different tables commit at once.
                String[] vt = new String[tables];
                String[] pt = new String[tables];
                String[] mt = new String[tables];
                for (int t = 0; t < tables; t++) {
                    vt[t] = "bench_c" + clients + "_" + tables + "_" + t;
                    pt[t] = "c" + clients + "_" + tables + "_" + t;
                    mt[t] = "bench_c" + clients + "_" + tables + "_" + t;
                    verso.create(vt[t]);
                    pg.create(pt[t]);
                    if (maria != null) {
                        maria.create(mt[t]);
                    }
                }
                log("concurrent writes: %d clients, %d table(s), %,d batches", clients, tables, batches);
                String label = clients + " concurrent writers, " + tables + " table(s)";
                Measure v = attempt("verso " + label, () -> Timer.run(clients, batches, true, i -> {
                    verso.writeRest(vt[i % tables], w, w.batch(i));
                    return w.batch(i).length;
                }));
                Measure p = attempt("postgres " + label, () -> Timer.run(clients, batches, true, i -> {
                    pg.write(pt[i % tables], w, w.batch(i));
                    return w.batch(i).length;
                }));
                Measure m = maria == null ? null : attempt("mariadb " + label, () -> Timer.run(clients, batches, true,
                        i -> {
                            maria.write(mt[i % tables], w, w.batch(i));
                            return w.batch(i).length;
                        }));
                Figure f = new Figure(section, "ingest (REST), " + clients + " client(s), " + tables + " table(s), "
                        + batches + " batches", true, v, p, m, "each client takes the next batch; batch i into table "
                        + "i mod " + tables + "; fresh tables (the PostgreSQL baseline serialises every commit on one "
                        + "lock)");
                figures.add(f);
                log("  verso %s | pg %s | mariadb %s", f.cell(v), f.cell(p), f.cell(m));
            }
        }
    }

    /** How long the service took to warm up before the one-key reads (JitWarmUp), for the environment. */
    private String keyReadWarmUp;

    /** One-key reads now and AS OF from 1, 4 and 16 clients, with the service's CPU per read. */
    private void concurrentReads(Workload w, Ingested in) throws Exception {
        ServiceCpu cpu = new ServiceCpu(config.servicePid());
        // The reads until the service's JIT settles: measured cold, a first run reads at half the rate of a third.
        int most = java.util.Arrays.stream(config.clients()).max().orElse(1);
        JitWarmUp.Result warm = new JitWarmUp(config.servicePid()).run(() -> measure("warm-up", w,
                config.concurrentReads(), most, (k, b) -> verso.row(VERSO_MAIN, w, k, b % 2 == 0 ? null
                        : in.verso()[b])), 1);
        keyReadWarmUp = warm.toString();
        log("service warm-up before the one-key reads: %s", warm);
        for (boolean past : new boolean[] {false, true}) {
            for (int clients : config.clients()) {
                heap.phase("concurrent reads");
                int count = config.concurrentReads();
                String name = (past ? "one key AS OF, " : "one key now, ") + clients + " client(s)";
                double[] cpuSeconds = new double[2];
                Measure v = attempt("verso " + name, () -> measure(name, w, count, clients,
                        (k, b) -> verso.row(VERSO_MAIN, w, k, past ? in.verso()[b] : null), cpu, cpuSeconds));
                Measure p = attempt("postgres " + name, () -> measure(name, w, count, clients,
                        (k, b) -> pg.row(PG_MAIN, w, k, past ? in.postgres()[b] : null)));
                Measure m = maria == null ? null : attempt("mariadb " + name, () -> measure(name, w, count, clients,
                        (k, b) -> maria.row(MARIA_MAIN, w, k, past ? in.mariadb()[b] : null)));
                String baseline = "";
                if (bare != null && !past) {
                    if (bareReads.isEmpty()) {
                        // Its JIT starts cold, where the service's has run the whole ingest: warm it as far first.
                        attempt("bare Spring Boot warm-up", () -> measure("bare warm-up", w, BARE_WARM_UP, 4,
                                (k, b) -> bare.row(PG_MAIN, w, k, null)));
                    }
                    double[] bareCpu = new double[2];
                    Measure s = attempt("bare Spring Boot " + name, () -> measure(name, w, count, clients,
                            (k, b) -> bare.row(PG_MAIN, w, k, null), new ServiceCpu(config.barePid()), bareCpu));
                    if (s != null) {
                        bareReads.put(clients, s);
                    }
                    baseline = String.format("; bare Spring Boot %s reads/s%s, Verso / bare %s", perSecond(count, s),
                            cpuPerRead(count, bareCpu).replace("service", "its"), rateRatio(v, s));
                }
                Figure f = new Figure("Concurrency", name, false, v, p, m, String.format("reads/s: Verso %s, "
                        + "PostgreSQL %s%s; Verso / PG %s%s%s", perSecond(count, v), perSecond(count, p),
                        m == null ? "" : ", MariaDB " + perSecond(count, m), rateRatio(v, p),
                        cpuPerRead(count, cpuSeconds), baseline));
                figures.add(f);
                log("%s: verso %s | pg %s | mariadb %s (%s)", name, f.cell(v), f.cell(p), f.cell(m), f.note());
            }
        }
    }

    /** The service's CPU per read over the measured reads, when its pid was given. */
    private static String cpuPerRead(int count, double[] cpuSeconds) {
        return cpuSeconds[0] < 0 || cpuSeconds[1] < 0 || count == 0 ? ""
                : String.format("; service CPU %.0f µs/read", (cpuSeconds[1] - cpuSeconds[0]) * 1e6 / count);
    }

    /** Verso's rate over PostgreSQL's for the same number of operations. */
    private static String rateRatio(Measure verso, Measure postgres) {
        return verso == null || postgres == null ? "—"
                : String.format("%.2f×", postgres.wallSeconds() / verso.wallSeconds());
    }

    private static String perSecond(int count, Measure m) {
        return m == null ? "failed" : String.format("%,.0f", count / m.wallSeconds());
    }

    // ---- scale -----------------------------------------------------------------------------------

    /**
     * Per-key reads on a table with a tenth of the history (a tenth of the keys, as many versions
     * per key) against the main table: if their cost follows the key's versions, not the table's,
     * the two are the same.
     */
    private void scale(Workload w, Ingested in) throws Exception {
        heap.phase("scale");
        int smallKeys = Math.max(1, w.keys / config.scaleDivisor());
        Workload small = new Workload(smallKeys, w.versions, w.batchSize, config.seed());
        String vt = "bench_small";
        String pt = "small";
        verso.create(vt);
        pg.create(pt);
        long[] vc = new long[small.batches()];
        long[] pc = new long[small.batches()];
        log("scale: ingest %,d keys × %d versions", small.keys, small.versions);
        for (int i = 0; i < small.batches(); i++) {
            vc[i] = verso.writeRest(vt, small, small.batch(i));
            pc[i] = pg.write(pt, small, small.batch(i));
        }
        String section = "Scale: per-key reads at " + config.scaleDivisor() + "× the history";
        String smallLabel = String.format("%,d versions", small.writes());
        String bigLabel = String.format("%,d versions", w.writes());
        int count = config.keyReads();
        Figure[] pair = new Figure[4];
        pair[0] = new Figure(section, "one key AS OF, table of " + smallLabel, false,
                attempt("verso scale asof small", () -> measure("scale asof", small, count, 1,
                        (k, b) -> verso.row(vt, small, k, vc[b]))),
                attempt("postgres scale asof small", () -> measure("scale asof", small, count, 1,
                        (k, b) -> pg.row(pt, small, k, pc[b]))), null, null);
        pair[1] = new Figure(section, "one key AS OF, table of " + bigLabel, false,
                attempt("verso scale asof", () -> measure("scale asof", w, count, 1,
                        (k, b) -> verso.row(VERSO_MAIN, w, k, in.verso()[b]))),
                attempt("postgres scale asof", () -> measure("scale asof", w, count, 1,
                        (k, b) -> pg.row(PG_MAIN, w, k, in.postgres()[b]))), null, null);
        pair[2] = new Figure(section, "one key's history, table of " + smallLabel, false,
                attempt("verso scale history small", () -> measure("scale history", small, count, 1,
                        (k, b) -> verso.history(vt, small, k))),
                attempt("postgres scale history small", () -> measure("scale history", small, count, 1,
                        (k, b) -> pg.history(pt, small, k))), null, null);
        pair[3] = new Figure(section, "one key's history, table of " + bigLabel, false,
                attempt("verso scale history", () -> measure("scale history", w, count, 1,
                        (k, b) -> verso.history(VERSO_MAIN, w, k))),
                attempt("postgres scale history", () -> measure("scale history", w, count, 1,
                        (k, b) -> pg.history(PG_MAIN, w, k))), null, null);
        for (int i = 0; i < 4; i++) {
            Figure f = pair[i];
            if (i % 2 == 1 && f.verso() != null && pair[i - 1].verso() != null && f.postgres() != null
                    && pair[i - 1].postgres() != null) {
                Figure s = pair[i - 1];
                f = new Figure(f.section(), f.scenario(), false, f.verso(), f.postgres(), null, String.format(
                        "%d× the history: Verso p50 %.2f×, p99 %.2f× the smaller table's; PostgreSQL p50 %.2f×",
                        config.scaleDivisor(), f.verso().p50Ms() / s.verso().p50Ms(), f.verso().p99Ms() / s.verso().p99Ms(),
                        f.postgres().p50Ms() / s.postgres().p50Ms()));
            }
            figures.add(f);
            log("%s: verso %s | pg %s %s", f.scenario(), f.cell(f.verso()), f.cell(f.postgres()),
                    f.note() == null ? "" : f.note());
        }
    }

    // ---- report ----------------------------------------------------------------------------------

    private Path write(Workload w, Map<String, Object> environment, Map<String, Object> heapJson) throws IOException {
        Path out = Path.of(config.out());
        Files.createDirectories(out);
        List<Map<String, Object>> targets = targets();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("finishedAt", Instant.now().toString());
        json.put("config", config.json());
        json.put("workload", Map.of("writes", w.writes(), "batches", w.batches()));
        json.put("environment", environment);
        json.put("checks", checks);
        json.put("storage", storage);
        json.put("failures", failures);
        json.put("serviceHeap", heapJson);
        json.put("figures", figures.stream().map(Figure::json).toList());
        json.put("targets", targets);
        JsonMapper mapper = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
        Files.writeString(out.resolve("results.json"), mapper.writeValueAsString(json));

        StringBuilder md = new StringBuilder();
        md.append("# Verso benchmark\n\n");
        md.append(String.format("%,d keys × %d versions = %,d writes, batches of %,d, seed %d, arrival shuffled. ",
                w.keys, w.versions, w.writes(), w.batchSize, config.seed()));
        md.append("Latencies are median / p99 in ms; Verso is measured over HTTP, PostgreSQL and MariaDB over JDBC. ");
        md.append("Ratios are Verso ÷ the other: above 1 means Verso is slower (latency) or faster (rows/s).\n\n");
        String section = null;
        for (Figure f : figures) {
            if (!f.section().equals(section)) {
                section = f.section();
                md.append("\n### ").append(section).append("\n\n");
                md.append("| scenario | Verso | PostgreSQL direct | MariaDB | Verso / PG | Verso / MariaDB | note |\n");
                md.append("| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
            }
            md.append("| ").append(f.scenario()).append(" | ").append(f.cell(f.verso())).append(" | ")
                    .append(f.cell(f.postgres())).append(" | ").append(f.cell(f.mariadb())).append(" | ")
                    .append(f.ratioCell(false)).append(" | ").append(f.ratioCell(true)).append(" | ")
                    .append(f.note() == null ? "" : f.note()).append(" |\n");
        }
        if (!storage.isEmpty()) {
            md.append("\n### Bytes on disk after the ingest\n\n");
            storage.forEach((k, v) -> md.append("- ").append(k).append(": ").append(v instanceof Long l
                    ? String.format("%,d", l) : v).append('\n'));
        }
        md.append("\n### Targets\n\n| target | measured | met |\n| --- | --- | --- |\n");
        for (Map<String, Object> t : targets) {
            md.append("| ").append(t.get("target")).append(" | ").append(t.get("measured")).append(" | ")
                    .append(Boolean.TRUE.equals(t.get("met")) ? "yes" : "**no**").append(" |\n");
        }
        md.append(String.format("%n### Service heap%n%npeak used %.1f MiB, peak live data after GC %.1f MiB "
                        + "(%d samples of /actuator/metrics, max heap %s MiB); by phase: %s%n",
                heap.peakUsedMiB(), heap.peakLiveMiB(), heap.samples(), heapJson.get("maxHeapMiB"),
                heapJson.get("peakUsedMiBByPhase")));
        md.append("\n### Environment\n\n");
        environment.forEach((k, v) -> md.append("- ").append(k).append(": ").append(v).append('\n'));
        md.append("- checks: ").append(checks).append('\n');
        if (!failures.isEmpty()) {
            md.append("\n### Failed scenarios\n\n");
            failures.forEach((k, v) -> md.append("- ").append(k).append(": ").append(v).append('\n'));
        }
        Path report = out.resolve("results.md");
        Files.writeString(report, md.toString());
        return report;
    }

    private List<Map<String, Object>> targets() {
        List<Map<String, Object>> t = new ArrayList<>();
        for (String ingest : List.of("ingest through REST", "ingest through POST /v1/sql")) {
            Figure f = find(ingest);
            if (f != null) {
                String what = ingest.substring("ingest through ".length());
                if (f.mariadb() != null) {
                    target(t, what + " ingest ≥ 1.0× MariaDB system-versioned rows/s", f.ratioMariadb(false), 1.0, true,
                            "×");
                }
                target(t, what + " ingest vs direct PostgreSQL rows/s (reported)", f.ratioPostgres(false), 0.0, true,
                        "×");
            }
        }
        Figure now = find("one key now");
        Figure asOf = find("one key AS OF a random commit");
        if (now != null) {
            target(t, "one-key current read p50 ≤ 0.25 ms at 1 client (HTTP)", now.verso() == null ? null
                    : now.verso().p50Ms(), 0.25, false, " ms");
        }
        Figure sixteen = find("one key now, 16 client(s)");
        if (sixteen != null) {
            target(t, "one-key current reads at 16 clients ≥ 0.3× PostgreSQL's rate", sixteen.verso() == null
                    || sixteen.postgres() == null ? null : sixteen.postgres().wallSeconds() / sixteen.verso().wallSeconds(),
                    0.3, true, "×");
            Measure bareSixteen = bareReads.get(16);
            if (bare != null) {
                target(t, "one-key current reads at 16 clients ≥ 1.5× the bare Spring Boot app's rate",
                        sixteen.verso() == null || bareSixteen == null ? null
                                : bareSixteen.wallSeconds() / sixteen.verso().wallSeconds(), 1.5, true, "×");
            }
        }
        if (now != null && asOf != null) {
            boolean both = asOf.verso() != null && now.verso() != null;
            target(t, "one-key AS OF p99 ≤ 2× one-key current p99 (HTTP)",
                    both ? asOf.verso().p99Ms() / now.verso().p99Ms() : null, 2.0, false, "×");
        }
        Figure tableNow = find("whole table now");
        Figure tableAsOf = find("whole table AS OF");
        if (tableNow != null && tableAsOf != null) {
            boolean both = tableAsOf.verso() != null && tableNow.verso() != null;
            target(t, "whole-table AS OF ≤ 1.5× whole-table current (median, HTTP)",
                    both ? tableAsOf.verso().p50Ms() / tableNow.verso().p50Ms() : null, 1.5, false, "×");
        }
        Figure groupsNow = find("every group: whole table now");
        Figure groupsAsOf = find("every group: whole table AS OF");
        if (groupsNow != null && groupsAsOf != null) {
            boolean both = groupsAsOf.verso() != null && groupsNow.verso() != null;
            target(t, "whole-table AS OF ≤ 1.5× whole-table current, every attribute group written (median, HTTP)",
                    both ? groupsAsOf.verso().p50Ms() / groupsNow.verso().p50Ms() : null, 1.5, false, "×");
        }
        for (int clients : config.clients()) {
            Figure one = find("ingest (REST), " + clients + " client(s), 1 table(s)");
            Figure four = find("ingest (REST), " + clients + " client(s), 4 table(s)");
            if (one != null && four != null) {
                target(t, clients + " writer(s): 4 tables vs 1 table, Verso rows/s (reported)", one.verso() == null
                        || four.verso() == null ? null : one.verso().wallSeconds() / four.verso().wallSeconds(), 0.0,
                        true, "×");
            }
        }
        target(t, "service heap < 512 MiB (peak used)", heap.peakUsedMiB(), 512.0, false, " MiB");
        if (!config.jar().isEmpty()) {
            try {
                target(t, "service jar size (reported)", Files.size(Path.of(config.jar())) / 1048576.0, 1e9, false,
                        " MiB");
            } catch (IOException e) {
                failures.put("jar size", e.getMessage());
            }
        }
        return t;
    }

    private static void target(List<Map<String, Object>> t, String name, Double value, double bound, boolean atLeast,
                               String unit) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", name);
        m.put("measured", value == null ? "—" : String.format("%.2f%s", value, unit));
        m.put("value", value);
        m.put("met", value != null && (atLeast ? value >= bound : value <= bound));
        t.add(m);
    }

    private Figure find(String prefix) {
        return figures.stream().filter(f -> f.scenario().startsWith(prefix)).findFirst().orElse(null);
    }

    private Map<String, Object> environment(String when) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("load average " + when, loadAverage());
        if (when.equals("before")) {
            m.put("processors", Runtime.getRuntime().availableProcessors());
            m.put("service", config.url());
            m.put("service JVM options", config.serviceOpts());
            m.put("service Java", System.getenv().getOrDefault("BENCH_SERVICE_JAVA", "not given"));
            try {
                m.put("postgresql", pg.settings());
            } catch (SQLException e) {
                m.put("postgresql", e.getMessage());
            }
            if (maria != null) {
                try {
                    m.put("mariadb", maria.settings());
                } catch (SQLException e) {
                    m.put("mariadb", e.getMessage());
                }
            }
        }
        return m;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    static void log(String format, Object... args) {
        System.out.printf("[bench %tT] %s%n", System.currentTimeMillis(), String.format(format, args));
        System.out.flush();
    }
}
