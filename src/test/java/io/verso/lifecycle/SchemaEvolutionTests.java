package io.verso.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** ALTER TABLE keeps every AS OF answer: earlier commits read under the current schema. */
class SchemaEvolutionTests extends IntegrationTest {

    @Test
    void addedColumnReadsAtItsDefaultInEveryEarlierVersionAndCommit() {
        String t = table("evo");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT, ix INT) VERSIONED VALID BY (ix)");
        long c1 = sql.write("UPSERT INTO " + t + " VALUES (1, 'a', 1), (2, 'b', 1)");
        long c2 = sql.write("UPSERT INTO " + t + " VALUES (1, 'a2', 2)");
        long alter = sql.write("ALTER TABLE " + t + " ADD COLUMN score INT NOT NULL DEFAULT 7; "
                + "ALTER TABLE " + t + " ADD COLUMN note TEXT");
        long c3 = sql.write("UPSERT INTO " + t + " (k, v, ix, score, note) VALUES (2, 'b2', 5, 9, 'n')");

        assertThat(sql.rows("SELECT k, v, score, note FROM " + t + " AS OF COMMIT " + c1 + " ORDER BY k"))
                .containsExactly(Arrays.asList("1", "a", "7", null), Arrays.asList("2", "b", "7", null));
        assertThat(sql.rows("SELECT k, v, score, note FROM " + t + " AS OF COMMIT " + c2 + " ORDER BY k"))
                .containsExactly(Arrays.asList("1", "a2", "7", null), Arrays.asList("2", "b", "7", null));
        assertThat(sql.rows("SELECT k, v, score, note FROM " + t + " AS OF COMMIT " + c3 + " ORDER BY k"))
                .containsExactly(Arrays.asList("1", "a2", "7", null), Arrays.asList("2", "b2", "9", "n"));
        assertThat(sql.rows("SELECT score FROM history(" + t + ") WHERE _commit < " + alter))
                .hasSize(3).allMatch(r -> r.equals(List.of("7")));
        // A write that omits the new column takes its DEFAULT.
        sql.write("UPSERT INTO " + t + " (k, v, ix) VALUES (3, 'c', 1)");
        assertThat(sql.rows("SELECT score FROM " + t + " WHERE k = 3")).containsExactly(List.of("7"));
    }

    @Test
    void historyFollowsRenamesAndDroppedColumnsLeaveEveryRead() {
        String t = table("evo");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT, extra INT, ix INT) VERSIONED VALID BY (ix)");
        long c1 = sql.write("UPSERT INTO " + t + " VALUES (1, 'a', 10, 1)");
        long c2 = sql.write("UPSERT INTO " + t + " VALUES (1, 'a2', 11, 2)");
        sql.write("ALTER TABLE " + t + " RENAME COLUMN v TO val; ALTER TABLE " + t + " RENAME COLUMN ix TO position");
        String renamed = t + "_r";
        sql.write("ALTER TABLE " + t + " RENAME TO " + renamed + "; ALTER TABLE " + renamed + " DROP COLUMN extra");

        assertThat(sql.rows("SELECT * FROM " + renamed + " AS OF COMMIT " + c1)).containsExactly(List.of("1", "a", "1"));
        assertThat(sql.rows("SELECT val, position FROM " + renamed + " AS OF COMMIT " + c2))
                .containsExactly(List.of("a2", "2"));
        assertThat(sql.rows("SELECT val, _commit FROM history(" + renamed + ") ORDER BY _commit"))
                .containsExactly(List.of("a", "" + c1), List.of("a2", "" + c2));
        // The renamed ordering column still orders: a late write at an earlier position loses.
        sql.write("UPSERT INTO " + renamed + " (k, val, position) VALUES (1, 'late', 0)");
        assertThat(sql.rows("SELECT val FROM " + renamed)).containsExactly(List.of("a2"));
        sql.fails(404, "UNKNOWN_TABLE", "SELECT * FROM " + t);
        sql.fails(400, "UNKNOWN_COLUMN", "SELECT extra FROM " + renamed + " AS OF COMMIT " + c1);
        JsonNode describe = sql.run("DESCRIBE " + renamed);
        assertThat(describe.at("/results/0/rows").toString()).contains("\"val\"", "\"position\"", "VALID BY")
                .doesNotContain("\"extra\"");
    }

    @Test
    void keyAndOrderingColumnsAndTheModeCannotChange() {
        String t = table("evo");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT, ix INT) VERSIONED VALID BY (ix)");
        long before = sql.latestCommit();
        sql.fails(400, "INVALID_ALTER", "ALTER TABLE " + t + " DROP COLUMN k");
        sql.fails(400, "INVALID_ALTER", "ALTER TABLE " + t + " DROP COLUMN ix");
        sql.fails(400, "INVALID_ALTER", "ALTER TABLE " + t + " VALID BY (v)");
        sql.fails(400, "INVALID_ALTER", "ALTER TABLE " + t + " SET UPSERT");
        sql.fails(400, "INVALID_ALTER", "ALTER TABLE " + t + " ADD COLUMN z INT NOT NULL");
        sql.fails(400, "DUPLICATE_NAME", "ALTER TABLE " + t + " ADD COLUMN v INT");
        sql.fails(400, "DUPLICATE_NAME", "ALTER TABLE " + t + " RENAME COLUMN v TO ix");
        sql.fails(400, "UNKNOWN_GROUP", "ALTER TABLE " + t + " ADD COLUMN z INT TO ATTRIBUTE GROUP nope");
        assertThat(sql.latestCommit()).isEqualTo(before);
    }

    @Test
    void addedColumnJoinsAnAttributeGroup() {
        String t = table("evo");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT, a INT, ax INT, "
                + "ATTRIBUTE GROUP ga (a, ax) VALID BY (ax)) VERSIONED");
        sql.write("UPSERT INTO " + t + " (k, v) VALUES (1, 'only default group')");
        long alter = sql.write("ALTER TABLE " + t + " ADD COLUMN b INT DEFAULT 5 TO ATTRIBUTE GROUP ga");
        // Key 1 never had a ga version: ga's columns, the new one included, read as NULL.
        assertThat(sql.rows("SELECT k, v, a, b FROM " + t)).containsExactly(Arrays.asList("1", "only default group", null, null));
        sql.fails(400, "COLUMN_NOT_IN_GROUP", "UPSERT INTO " + t + " (k, v, b, ax) VALUES (1, 'x', 1, 1) ATTRIBUTE GROUP ga");
        sql.write("UPSERT INTO " + t + " (k, a, ax) VALUES (1, 3, 1) ATTRIBUTE GROUP ga");
        assertThat(sql.rows("SELECT a, b FROM " + t)).containsExactly(List.of("3", "5"));
        assertThat(sql.rows("SELECT a, b FROM " + t + " AS OF COMMIT " + alter)).containsExactly(Arrays.asList(null, null));
    }

    @Test
    void concurrentReadersSeeTheTableBeforeOrAfterEachChangeNeverHalf() throws Exception {
        String t = table("evo");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT, ix INT) VERSIONED VALID BY (ix)");
        sql.write("UPSERT INTO " + t + " VALUES (1, 1, 1), (2, 2, 1), (3, 3, 1)");
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicBoolean altering = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
        List<Future<?>> readers = List.of(pool.submit(() -> read(t, altering, seen)), pool.submit(() -> read(t, altering, seen)));
        for (int i = 0; i < 8; i++) {
            sql.write("ALTER TABLE " + t + " ADD COLUMN c" + i + " INT DEFAULT " + i + "; UPSERT INTO " + t
                    + " (k, v, ix) VALUES (1, " + (10 + i) + ", " + (2 + i) + ")");
        }
        altering.set(false);
        for (Future<?> reader : readers) {
            reader.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        // Each request added one column and wrote one version together: never one without the other.
        assertThat(seen).isNotEmpty().allMatch(s -> s.startsWith("ok"));
    }

    private void read(String t, AtomicBoolean altering, ConcurrentLinkedQueue<String> seen) {
        var client = new io.verso.support.SqlClient(port);
        while (altering.get()) {
            var response = client.post("SELECT * FROM " + t + " WHERE k = 1");
            if (response.statusCode() != 200) {
                seen.add("error " + response.asString());
                continue;
            }
            JsonNode row = io.verso.support.SqlClient.JSON.readTree(response.asString()).at("/results/0/rows/0");
            int added = row.size() - 3;
            int v = row.get(1).asInt();
            seen.add(added == 0 ? (v == 1 ? "ok" : "bad v " + v) : v == 10 + added - 1 ? "ok" : "bad " + row);
        }
    }
}
