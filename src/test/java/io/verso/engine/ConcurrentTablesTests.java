package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.RepeatedTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Writers of different tables commit at once (they share the commit lock and serialise only per
 * table and while drawing a sequence), mixed with writers that hold the commit lock alone (UPDATE …
 * WHERE) and requests that fail after drawing a sequence (a gap). Random interleavings, seeded per
 * repetition (the seed is in the failure message). After the run the commits are replayed in sequence
 * order; the rules of the spec must hold for every read made meanwhile:
 * <ul>
 * <li>a read reporting commit R shows exactly the state after every commit up to R (each predecessor
 * of R visible, nothing after R): so sequences became visible in increasing order;</li>
 * <li>the same read AS OF COMMIT R afterwards returns the same rows (AS OF is repeatable);</li>
 * <li>each client's receipts increase, and no sequence is handed out twice;</li>
 * <li>every snapshot of the commit log taken meanwhile (straight from PostgreSQL, thousands of them,
 * to catch short windows) holds a prefix of the commits finally made.</li>
 * </ul>
 */
class ConcurrentTablesTests extends IntegrationTest {

    @Autowired
    private JdbcTemplate jdbc;

    private static final int TABLES = 4;
    private static final int KEYS = 4;
    private static final int WRITERS = 6;
    private static final int WRITES_EACH = 12;
    private static final int READERS = 2;

    /** One acknowledged commit: its sequence and what it did, in statement order. */
    private record Receipt(long commit, List<int[]> changes) {
    }

    /** A read made while writers ran: the commit it reported and its rows. */
    private record Seen(long commit, List<List<String>> rows) {
    }

    @RepeatedTest(2)
    void readsSeeEveryPredecessorAndAsOfRepeatsUnderConcurrentTables() throws Exception {
        long seed = System.nanoTime();
        String prefix = table("ct");
        List<String> tables = new ArrayList<>();
        StringBuilder create = new StringBuilder();
        for (int t = 0; t < TABLES; t++) {
            tables.add(prefix + "_" + t);
            create.append("CREATE TABLE ").append(prefix).append('_').append(t)
                    .append(" (k INT PRIMARY KEY, v INT) VERSIONED; ");
        }
        long created = sql.write(create.toString());

        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS + 1);
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Receipt> receipts = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            Random random = new Random(seed + w);
            int writer = w;
            writers.add(pool.submit(() -> {
                SqlClient client = new SqlClient(port);
                long last = created;
                for (int i = 0; i < WRITES_EACH; i++) {
                    int value = (writer + 1) * 1000 + i;
                    int kind = random.nextInt(10);
                    List<int[]> changes = new ArrayList<>();
                    StringBuilder statements = new StringBuilder();
                    List<Object> params = new ArrayList<>();
                    if (kind == 0) {
                        // Fails after its sequence is drawn: the key exists (written at the start), nothing is committed.
                        int t = random.nextInt(TABLES);
                        Response failed = client.post("UPSERT INTO " + tables.get(t) + " (k, v) VALUES (?, ?); INSERT INTO "
                                + tables.get(t) + " (k, v) VALUES (?, ?)", KEYS, value, KEYS, value);
                        if (failed.statusCode() != 409) {
                            violations.add("expected KEY_EXISTS, got " + failed.statusCode() + " " + failed.asString());
                        }
                        continue;
                    }
                    if (kind == 1) {
                        // Holds the commit lock alone: may change any table.
                        int t = random.nextInt(TABLES);
                        int k = random.nextInt(KEYS);
                        statements.append("UPDATE ").append(tables.get(t)).append(" SET v = ? WHERE k = ?");
                        params.add(value);
                        params.add(k);
                        changes.add(new int[] {t, k, value, 1});
                    } else {
                        // One or two tables named up front, each written with one or two keys.
                        int count = 1 + random.nextInt(2);
                        for (int s = 0; s < count; s++) {
                            int t = random.nextInt(TABLES);
                            int k = random.nextInt(KEYS);
                            statements.append(s > 0 ? "; " : "").append("UPSERT INTO ").append(tables.get(t))
                                    .append(" (k, v) VALUES (?, ?)");
                            params.add(k);
                            params.add(value);
                            changes.add(new int[] {t, k, value, 0});
                        }
                    }
                    long commit = client.write(statements.toString(), params.toArray());
                    if (commit <= last) {
                        violations.add("writer " + writer + " got commit " + commit + " after " + last);
                    }
                    last = commit;
                    receipts.add(new Receipt(commit, changes));
                }
                return null;
            }));
        }
        StringBuilder union = new StringBuilder();
        for (int t = 0; t < TABLES; t++) {
            union.append(t > 0 ? " UNION ALL " : "").append("SELECT ").append(t).append(" AS t, k, v FROM ")
                    .append(tables.get(t)).append(" %s");
        }
        String current = union.toString().replace("%s", "");
        List<Future<?>> readers = new ArrayList<>();
        for (int r = 0; r < READERS; r++) {
            readers.add(pool.submit(() -> {
                SqlClient client = new SqlClient(port);
                while (writing.get()) {
                    JsonNode read = client.run(current + " ORDER BY t, k");
                    List<List<String>> rows = new ArrayList<>();
                    for (JsonNode row : read.at("/results/0/rows")) {
                        rows.add(List.of(row.get(0).asString(), row.get(1).asString(), row.get(2).asString()));
                    }
                    seen.add(new Seen(Long.parseLong(read.get("readCommit").asString()), rows));
                }
                return null;
            }));
        }
        ConcurrentLinkedQueue<List<Long>> logs = new ConcurrentLinkedQueue<>();
        readers.add(pool.submit(() -> {
            while (writing.get() && logs.size() < 50_000) {
                logs.add(jdbc.queryForList("SELECT seq FROM verso.commits WHERE seq > ? ORDER BY seq", Long.class,
                        created));
            }
            return null;
        }));
        for (Future<?> writer : writers) {
            writer.get(180, TimeUnit.SECONDS);
        }
        writing.set(false);
        for (Future<?> reader : readers) {
            reader.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(violations).as("seed " + seed).isEmpty();

        List<Long> made = jdbc.queryForList("SELECT seq FROM verso.commits WHERE seq > ? ORDER BY seq", Long.class,
                created);
        for (List<Long> log : logs) {
            if (!log.isEmpty()) {
                long newest = log.get(log.size() - 1);
                assertThat(log).as("seed %d: a snapshot holding commit %d holds every commit before it", seed, newest)
                        .isEqualTo(made.stream().filter(c -> c <= newest).toList());
            }
        }

        // AS OF TIMESTAMP relies on commit times ordered like sequences, also when writers overlap.
        assertThat(jdbc.queryForObject("SELECT count(*) FROM (SELECT committed_at < lag(committed_at) OVER "
                + "(ORDER BY seq) AS back FROM verso.commits WHERE seq > ?) x WHERE back", Long.class, created))
                .as("seed %d: commits whose time is before an earlier commit's", seed).isZero();

        // Replay in sequence order: the state after each commit.
        TreeMap<Long, Receipt> bySeq = new TreeMap<>();
        for (Receipt receipt : receipts) {
            assertThat(bySeq.put(receipt.commit(), receipt)).as("sequence " + receipt.commit() + " twice").isNull();
        }
        TreeMap<Long, List<List<String>>> states = new TreeMap<>();
        Map<String, Integer> state = new HashMap<>();
        states.put(created, rowsOf(state));
        for (Receipt receipt : bySeq.values()) {
            for (int[] change : receipt.changes()) {
                String key = change[0] + "/" + change[1];
                if (change[3] == 0 || state.containsKey(key)) {
                    state.put(key, change[2]);
                }
            }
            states.put(receipt.commit(), rowsOf(state));
        }
        assertThat(seen).isNotEmpty();
        int checked = 0;
        for (Seen read : seen) {
            var expected = states.floorEntry(read.commit());
            assertThat(read.rows()).as("seed %d: a read at commit %d must show every commit up to it and none after",
                    seed, read.commit()).isEqualTo(expected.getValue());
            if (checked++ < 40) {
                assertThat(sql.rows(union.toString().replace("%s", "AS OF COMMIT " + read.commit()) + " ORDER BY t, k"))
                        .as("seed %d: AS OF COMMIT %d repeats the read made at it", seed, read.commit())
                        .isEqualTo(read.rows());
            }
        }
    }

    private static List<List<String>> rowsOf(Map<String, Integer> state) {
        List<List<String>> rows = new ArrayList<>();
        for (int t = 0; t < TABLES; t++) {
            for (int k = 0; k < KEYS; k++) {
                Integer v = state.get(t + "/" + k);
                if (v != null) {
                    rows.add(List.of(String.valueOf(t), String.valueOf(k), String.valueOf(v)));
                }
            }
        }
        return rows;
    }
}
