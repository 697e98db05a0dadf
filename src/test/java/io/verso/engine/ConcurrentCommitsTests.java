package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Writers and readers at once: every request commits all or nothing, receipts are visible to the
 * next read, commit sequences follow the order commits became visible, and AS OF a fixed commit
 * returns the same rows whatever runs meanwhile.
 */
class ConcurrentCommitsTests extends IntegrationTest {

    private static final int WRITERS = 4;
    private static final int WRITES_EACH = 15;
    private static final int KEYS_PER_WRITER = 5;

    @Test
    void commitsAreAtomicOrderedVisibleAndRepeatable() throws Exception {
        String t = table("conc");
        sql.write("CREATE TABLE " + t + " (w INT, n INT, v INT, ix INT, PRIMARY KEY (w, n)) VERSIONED VALID BY (ix)");
        long pinned = sql.write(upsert(t, 0, 0), params(0, 0));
        List<List<String>> pinnedRows = sql.rows("SELECT * FROM " + t + " AS OF COMMIT " + pinned + " ORDER BY w, n");

        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 3);
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        List<Future<List<Long>>> writers = new ArrayList<>();
        for (int w = 1; w <= WRITERS; w++) {
            int writer = w;
            writers.add(pool.submit(() -> {
                SqlClient client = new SqlClient(port);
                List<Long> receipts = new ArrayList<>();
                for (int i = 1; i <= WRITES_EACH; i++) {
                    long commit = client.write(upsert(t, writer, i), params(writer, i));
                    receipts.add(commit);
                    // Read-your-writes: the next read, on any connection, is served at or after the receipt.
                    JsonNode read = client.run("SELECT v FROM " + t + " WHERE w = ?", writer);
                    if (Long.parseLong(read.get("readCommit").asString()) < commit) {
                        violations.add("receipt " + commit + " not visible to the next read");
                    }
                    for (JsonNode row : read.at("/results/0/rows")) {
                        if (row.get(0).asInt() < i) {
                            violations.add("writer " + writer + " read v=" + row.get(0) + " after its write " + i);
                        }
                    }
                }
                return receipts;
            }));
        }
        List<Future<?>> readers = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            readers.add(pool.submit(() -> {
                SqlClient client = new SqlClient(port);
                long lastSeen = 0;
                while (writing.get()) {
                    if (!client.rows("SELECT * FROM " + t + " AS OF COMMIT " + pinned + " ORDER BY w, n").equals(pinnedRows)) {
                        violations.add("AS OF " + pinned + " changed");
                    }
                    JsonNode read = client.run("SELECT w, min(v), max(v), count(*) FROM " + t + " GROUP BY w");
                    long served = Long.parseLong(read.get("readCommit").asString());
                    if (served < lastSeen) {
                        violations.add("reads went back from commit " + lastSeen + " to " + served);
                    }
                    lastSeen = served;
                    for (JsonNode row : read.at("/results/0/rows")) {
                        if (row.get(1).asInt() != row.get(2).asInt() || row.get(3).asInt() != KEYS_PER_WRITER) {
                            violations.add("half a commit seen: " + row);
                        }
                    }
                }
                return null;
            }));
        }
        List<Long> all = new ArrayList<>();
        List<List<Long>> perWriter = new ArrayList<>();
        for (Future<List<Long>> writer : writers) {
            List<Long> receipts = writer.get(120, TimeUnit.SECONDS);
            perWriter.add(receipts);
            all.addAll(receipts);
        }
        writing.set(false);
        for (Future<?> reader : readers) {
            reader.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(violations).isEmpty();
        assertThat(all).doesNotHaveDuplicates().allMatch(c -> c > pinned);
        for (List<Long> receipts : perWriter) {
            assertThat(receipts).isSorted();
        }
        // Each commit, read as of itself, shows exactly the writes acknowledged at or before it.
        Collections.sort(all);
        for (int w = 1; w <= WRITERS; w++) {
            List<Long> receipts = perWriter.get(w - 1);
            for (int i = 0; i < receipts.size(); i++) {
                List<List<String>> rows = sql.rows("SELECT DISTINCT v FROM " + t + " WHERE w = ? AS OF COMMIT ?", w,
                        receipts.get(i));
                assertThat(rows).containsExactly(List.of(String.valueOf(i + 1)));
            }
        }
        assertThat(sql.rows("SELECT * FROM " + t + " AS OF COMMIT " + pinned + " ORDER BY w, n")).isEqualTo(pinnedRows);
    }

    private static String upsert(String table, int writer, int i) {
        List<String> rows = new ArrayList<>();
        for (int n = 1; n <= KEYS_PER_WRITER; n++) {
            rows.add("(?, " + n + ", ?, ?)");
        }
        return "UPSERT INTO " + table + " (w, n, v, ix) VALUES " + String.join(", ", rows);
    }

    private static Object[] params(int writer, int i) {
        Object[] params = new Object[KEYS_PER_WRITER * 3];
        for (int n = 0; n < KEYS_PER_WRITER; n++) {
            params[n * 3] = writer;
            params[n * 3 + 1] = i;
            params[n * 3 + 2] = i;
        }
        return params;
    }
}
