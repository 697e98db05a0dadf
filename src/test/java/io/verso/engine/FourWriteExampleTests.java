package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The concept page's worked example: four versions of one key, in arrival order, read as of each step. */
class FourWriteExampleTests extends IntegrationTest {

    private static final String UPSERT = """
            UPSERT INTO %s (chain_id, address, token, amount, updated_at, balance_index, balance_version)
            VALUES (1, '0x9c2e4f1a', 'USDC', ?, '2026-10-01 12:00:00.000', ?, ?)
            ATTRIBUTE GROUP holding""";

    @Test
    void currentRowFollowsTheOrderingNotTheArrivalOrder() {
        String balances = table("balances");
        sql.write("""
                CREATE TABLE %s (
                    chain_id BIGINT, address TEXT, token TEXT,
                    amount NUMERIC(38, 0), updated_at TIMESTAMP(3), balance_index BIGINT, balance_version BIGINT,
                    PRIMARY KEY (chain_id, address, token),
                    ATTRIBUTE GROUP holding (amount, updated_at, balance_index, balance_version)
                        VALID BY (balance_index) REVISION BY (balance_version)
                ) VERSIONED""".formatted(balances));

        long c1 = sql.write(UPSERT.formatted(balances), 101, 100, 1);
        assertCurrent(balances, "101", "100", "1");
        long c2 = sql.write(UPSERT.formatted(balances), 102, 200, 1);
        assertCurrent(balances, "102", "200", "1");
        long c3 = sql.write(UPSERT.formatted(balances), 103, 150, 9);
        assertCurrent(balances, "102", "200", "1"); // 150 is earlier than 200: the high version does not matter
        long c4 = sql.write(UPSERT.formatted(balances), 104, 200, 2);
        assertCurrent(balances, "104", "200", "2"); // same index as write 2, higher version

        assertAsOf(balances, c1, "101");
        assertAsOf(balances, c2, "102");
        assertAsOf(balances, c3, "102");
        assertAsOf(balances, c4, "104");

        // Every accepted version is retained, including write 3 which lost on arrival.
        List<List<String>> history = sql.rows("SELECT amount, _commit, _current_from, _current_to, _group FROM history("
                + balances + ") ORDER BY _commit");
        assertThat(history).containsExactly(
                List.of("101", "" + c1, "" + c1, "" + c2, "holding"),
                java.util.Arrays.asList("102", "" + c2, "" + c2, "" + c4, "holding"),
                java.util.Arrays.asList("103", "" + c3, null, null, "holding"),
                java.util.Arrays.asList("104", "" + c4, "" + c4, null, "holding"));
    }

    @Test
    void trailingAsOfAppliesToTheWholeStatement() {
        String balances = table("balances");
        sql.write("CREATE TABLE " + balances + " (k INT PRIMARY KEY, v INT, ix INT) VERSIONED VALID BY (ix)");
        long first = sql.write("UPSERT INTO " + balances + " VALUES (1, 10, 1), (2, 20, 1)");
        sql.write("UPSERT INTO " + balances + " VALUES (1, 11, 2), (2, 19, 0)");
        assertThat(sql.rows("SELECT k, v FROM " + balances + " WHERE v > 0 ORDER BY k AS OF COMMIT " + first + " LIMIT 5"))
                .containsExactly(List.of("1", "10"), List.of("2", "20"));
        assertThat(sql.rows("SELECT k, v FROM " + balances + " ORDER BY k"))
                .containsExactly(List.of("1", "11"), List.of("2", "20"));
        // A NULL parameter is a value like any other.
        assertThat(sql.rows("SELECT k, coalesce(?, v) FROM " + balances + " WHERE k = ?", null, 1))
                .containsExactly(List.of("1", "11"));
    }

    private void assertCurrent(String table, String amount, String index, String version) {
        assertThat(sql.rows("SELECT amount, balance_index, balance_version FROM " + table))
                .containsExactly(List.of(amount, index, version));
    }

    private void assertAsOf(String table, long commit, String amount) {
        assertThat(sql.rows("SELECT amount FROM " + table + " AS OF COMMIT ?", commit))
                .containsExactly(List.of(amount));
        assertThat(sql.rows("SELECT amount FROM " + table + " WHERE chain_id = 1 AS OF COMMIT " + commit))
                .containsExactly(List.of(amount));
    }
}
