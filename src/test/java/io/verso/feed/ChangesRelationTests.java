package io.verso.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code changes(t)} in statements: one row per key and commit whose current row changed. */
class ChangesRelationTests extends IntegrationTest {

    @Test
    void lostVersionsChangeNothingAndDeletesCarryTheRowBefore() {
        String t = table("ledger");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT, ix INT) VERSIONED VALID BY (ix)");
        long c1 = sql.write("UPSERT INTO " + t + " VALUES (1, 10, 1), (2, 20, 1)");
        long c2 = sql.write("UPSERT INTO " + t + " VALUES (1, 11, 2), (2, 19, 0)"); // key 2 loses on arrival
        long c3 = sql.write("DELETE FROM " + t + " WHERE k = 1 AT (ix = 5)");
        long c4 = sql.write("DELETE FROM " + t + " WHERE k = 3 AT (ix = 5)"); // tombstone of an absent key

        assertThat(sql.rows("SELECT k, v, _commit, _op, _before FROM changes(" + t + ") ORDER BY _commit, k"))
                .containsExactly(
                        Arrays.asList("1", "10", "" + c1, "insert", null),
                        Arrays.asList("2", "20", "" + c1, "insert", null),
                        Arrays.asList("1", "11", "" + c2, "update", "{\"k\":1,\"v\":10,\"ix\":1}"),
                        Arrays.asList("1", null, "" + c3, "delete", "{\"k\":1,\"v\":11,\"ix\":2}"));
        assertThat(c4).isGreaterThan(c3);
        // AS OF like history(t): the changes made at or before the commit.
        assertThat(sql.rows("SELECT count(*) FROM changes(" + t + ") AS OF COMMIT " + c2)).containsExactly(List.of("3"));
        assertThat(sql.rows("SELECT _op FROM changes(" + t + ") WHERE _commit > ? ORDER BY _commit", c2))
                .containsExactly(List.of("delete"));
    }

    @Test
    void groupsCombinePerKeyAndAppendTablesListInserts() {
        String t = table("bal");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, a INT, ai INT, b TEXT, bi INT,"
                + " ATTRIBUTE GROUP ga (a, ai) VALID BY (ai), ATTRIBUTE GROUP gb (b, bi) VALID BY (bi)) VERSIONED");
        long c1 = sql.write("UPSERT INTO " + t + " (k, a, ai) VALUES (1, 5, 1) ATTRIBUTE GROUP ga");
        long c2 = sql.write("UPSERT INTO " + t + " (k, a, ai, b, bi) VALUES (1, 6, 2, 'x', 1)");
        long c3 = sql.write("UPSERT INTO " + t + " (k, b, bi) VALUES (1, 'old', 0) ATTRIBUTE GROUP gb"); // loses
        assertThat(sql.rows("SELECT k, a, b, _commit, _op FROM changes(" + t + ") ORDER BY _commit"))
                .containsExactly(Arrays.asList("1", "5", null, "" + c1, "insert"),
                        Arrays.asList("1", "6", "x", "" + c2, "update"));
        assertThat(c3).isGreaterThan(c2);

        String log = table("log");
        sql.write("CREATE TABLE " + log + " (at INT, body TEXT) APPEND");
        long a1 = sql.write("INSERT INTO " + log + " VALUES (1, 'a'), (2, 'b')");
        assertThat(sql.rows("SELECT at, _commit, _op FROM changes(" + log + ") ORDER BY at"))
                .containsExactly(List.of("1", "" + a1, "insert"), List.of("2", "" + a1, "insert"));
    }

    @Test
    void upsertTablesHaveNoChanges() {
        String t = table("up");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) UPSERT");
        sql.fails(400, "NO_HISTORY", "SELECT * FROM changes(" + t + ")");
    }
}
