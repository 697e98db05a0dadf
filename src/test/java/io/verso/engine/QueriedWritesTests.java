package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * INSERT/UPSERT ... SELECT of more rows than one write takes (RowWrites.QUERIED_CHUNK): the rows are written as
 * they are read, a chunk at a time, and what lands is what one write of them all gives: each key's winner, the
 * receipt's counts, a read of the target by the statement that writes it. A query with ORDER BY is written at
 * once, up to its bound, and refused past it with nothing written.
 */
class QueriedWritesTests extends IntegrationTest {

    /** Three rows a key, so that a chunk ending by its size alone (10,000 rows) would split one. */
    private static final int ROWS = 24_000;
    private static final int KEYS = 8_000;

    /** A CTE {@code n} of {@code rows} rows, its column {@code x} numbering them from 0, before a query of it. */
    private static String numbers(int rows) {
        return "WITH RECURSIVE n (x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < " + (rows - 1) + ") ";
    }

    /** Row i's key and valid-by value: a key's rows lie 8,000 apart, their values all different. */
    private static long key(int i) {
        return i % KEYS;
    }

    private static long valid(int i) {
        return (long) i * 7919 % 1009;
    }

    @Test
    void aQueryOfManyRowsIsWrittenAsOneWriteOfThemAll() {
        String src = table("qw_src");
        String t = table("qw_t");
        sql.run("CREATE TABLE " + src + " (i BIGINT PRIMARY KEY, k BIGINT, n INT) UPSERT");
        sql.run("CREATE TABLE " + t + " (k BIGINT PRIMARY KEY, n INT, i BIGINT) VERSIONED VALID BY (n)");
        JsonNode filled = sql.run("INSERT INTO " + src + " (i, k, n) " + numbers(ROWS) + "SELECT x, x % " + KEYS
                + ", x * 7919 % 1009 FROM n").get("results").get(0);
        assertThat(filled.get("rows").asLong()).isEqualTo(ROWS);

        // Each key's rows in key order, so some keys' two rows straddle where a chunk would end by its size.
        JsonNode written = sql.run("UPSERT INTO " + t + " (k, n, i) SELECT k, n, i FROM " + src).get("results").get(0);
        assertThat(List.of(written.get("rows").asLong(), written.get("versions").asLong(),
                written.get("current").asLong(), written.get("lost").asLong()))
                .containsExactly((long) ROWS, (long) ROWS, (long) KEYS, (long) ROWS - KEYS);
        List<List<String>> expected = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
            int winner = k;
            for (int i = k + KEYS; i < ROWS; i += KEYS) {
                winner = valid(i) > valid(winner) ? i : winner;
            }
            expected.add(List.of(String.valueOf(k), String.valueOf(valid(winner)), String.valueOf(winner)));
        }
        assertThat(sql.rows("SELECT k, n, i FROM " + t + " ORDER BY k")).isEqualTo(expected);
        assertThat(sql.rows("SELECT count(*) FROM history(" + t + ")")).containsExactly(List.of(String.valueOf(ROWS)));

        // A table read by the statement that writes it, in more than one chunk: every row it reads is as the
        // statement found it, none as an earlier chunk of its own wrote it.
        JsonNode again = sql.run("UPSERT INTO " + src + " (i, k, n) SELECT i, k, n + 2000 FROM " + src)
                .get("results").get(0);
        assertThat(again.get("current").asLong()).isEqualTo(ROWS);
        assertThat(sql.rows("SELECT count(*), min(n), max(n), sum(n) - sum(i * 7919 % 1009) FROM " + src))
                .containsExactly(List.of(String.valueOf(ROWS), "2000", "3008", String.valueOf(2000L * ROWS)));
    }

    @Test
    void appendAndSystemVersionedTablesTakeManyRows() {
        String log = table("qw_log");
        String sv = table("qw_sv");
        sql.run("CREATE TABLE " + log + " (i BIGINT, n INT) APPEND");
        sql.run("CREATE TABLE " + sv + " (i BIGINT PRIMARY KEY, n INT) WITH SYSTEM VERSIONING");
        for (String target : List.of(log, sv)) {
            for (String order : List.of("", " ORDER BY 1 DESC")) {
                int offset = order.isEmpty() ? 0 : ROWS;
                sql.run("INSERT INTO " + target + " (i, n) " + numbers(ROWS) + "SELECT x + " + offset + ", x % 1000 FROM n"
                        + order);
            }
            assertThat(sql.rows("SELECT count(*), count(DISTINCT i), min(i), max(i) FROM " + target))
                    .containsExactly(List.of(String.valueOf(2 * ROWS), String.valueOf(2 * ROWS), "0",
                            String.valueOf(2 * ROWS - 1)));
        }
        // Twice one key across chunks of a system-versioned table is refused, and nothing is written.
        sql.fails(409, "KEY_EXISTS", "INSERT INTO " + sv + " (i, n) " + numbers(ROWS) + "SELECT " + 3 * ROWS + " + x % "
                + (ROWS - 1) + ", 0 FROM n");
        assertThat(sql.rows("SELECT count(*) FROM " + sv)).containsExactly(List.of(String.valueOf(2 * ROWS)));
    }

    @Test
    void aQueryWithOrderByIsWrittenAtOnceUpToItsBound() {
        String t = table("qw_ordered");
        sql.run("CREATE TABLE " + t + " (k BIGINT PRIMARY KEY, n INT) VERSIONED VALID BY (n)");
        // Two rows a key, equal in n: the later in the query's order wins.
        JsonNode written = sql.run("UPSERT INTO " + t + " (k, n) " + numbers(20_000) + "SELECT x % 10000, 1 FROM n "
                + "ORDER BY x DESC").get("results").get(0);
        assertThat(written.get("current").asLong()).isEqualTo(10_000);
        assertThat(sql.rows("SELECT count(*) FROM history(" + t + ") WHERE k = 5")).containsExactly(List.of("2"));

        int over = RowWrites.ORDERED_ROWS + 1;
        JsonNode refused = sql.fails(400, "RESOURCE_LIMIT", "UPSERT INTO " + t + " (k, n) " + numbers(over)
                + "SELECT x, 2 FROM n ORDER BY 1");
        assertThat(refused.get("detail").asString()).contains("ORDER BY", String.valueOf(RowWrites.ORDERED_ROWS));
        assertThat(sql.rows("SELECT count(*), max(n) FROM " + t)).containsExactly(List.of("10000", "1"));
    }
}
