package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A single SELECT runs as one batch (BEGIN, snapshot state, query, COMMIT) on a pooled autocommit
 * connection: what fails inside it leaves no aborted transaction on the connection, results are still
 * bounded, and a catalog change made meanwhile is never read through a stale definition.
 */
class OneRoundTripReadTests extends IntegrationTest {

    @Test
    void aReadFailingInPostgresLeavesEveryPooledConnectionUsable() {
        String t = table("rt");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED; UPSERT INTO " + t
                + " (k, v) VALUES (1, 10)");
        sql.rows("SELECT * FROM " + t); // caches the definition: later reads take the one-round-trip path
        // More failures than the pool has connections: each one's aborted batch must have been rolled back.
        for (int i = 0; i < 25; i++) {
            assertThat(sql.post("SELECT v / (k - k) FROM " + t).statusCode()).isBetween(400, 499);
        }
        for (int i = 0; i < 25; i++) {
            assertThat(sql.rows("SELECT v FROM " + t + " WHERE k = ?", 1)).containsExactly(List.of("10"));
        }
    }

    @Test
    void aResultPastTheRowLimitIsRefusedNotTruncated() {
        String t = table("rt");
        StringBuilder upsert = new StringBuilder("UPSERT INTO " + t + " (k) VALUES ");
        List<Object> keys = new ArrayList<>();
        for (int k = 0; k < 400; k++) {
            upsert.append(k > 0 ? ", " : "").append("(?)");
            keys.add(k);
        }
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY) VERSIONED");
        sql.write(upsert.toString(), keys.toArray());
        sql.rows("SELECT count(*) FROM " + t);
        // 160,000 rows: past verso.max-result-rows (100,000).
        sql.fails(400, "RESULT_TOO_LARGE", "SELECT a.k, b.k FROM " + t + " AS a CROSS JOIN " + t + " AS b");
        assertThat(sql.rows("SELECT a.k FROM " + t + " AS a CROSS JOIN " + t + " AS b LIMIT 100000")).hasSize(100_000);
    }

    @Test
    void aReadAfterACatalogChangeUsesTheNewDefinition() {
        String t = table("rt");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED; UPSERT INTO " + t
                + " (k, v) VALUES (1, 10)");
        assertThat(sql.rows("SELECT * FROM " + t)).containsExactly(List.of("1", "10"));
        sql.write("ALTER TABLE " + t + " ADD COLUMN w TEXT; UPSERT INTO " + t + " (k, v, w) VALUES (1, 11, 'x')");
        assertThat(sql.rows("SELECT * FROM " + t)).containsExactly(List.of("1", "11", "x"));
        sql.write("ALTER TABLE " + t + " DROP COLUMN v");
        assertThat(sql.rows("SELECT * FROM " + t)).containsExactly(List.of("1", "x"));
    }
}
