package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * CHECK constraints on every table mode: enforced on every write path against the rows as they are
 * after the statement, refused with CHECK_VIOLATION naming the constraint and the row, nothing written;
 * shown by DESCRIBE and SHOW CREATE TABLE; their expressions limited to the row's own columns.
 */
class CheckConstraintTests extends IntegrationTest {

    private static final String COLUMNS = "id INT PRIMARY KEY, price NUMERIC(10,2) CHECK (price > 0), qty INT, "
            + "CONSTRAINT qty_ok CHECK (qty IS NULL OR qty BETWEEN 0 AND 100)";

    private String create(String mode) {
        String t = table("ck");
        String columns = mode.equals("APPEND") ? COLUMNS.replace(" PRIMARY KEY", "") : COLUMNS;
        sql.write("CREATE TABLE " + t + " (" + columns + ") " + (mode.equals("SYSTEM") ? "WITH SYSTEM VERSIONING"
                : mode));
        return t;
    }

    private List<List<String>> state(String t) {
        return sql.rows("SELECT id, price, qty FROM " + t + " ORDER BY id, price");
    }

    private void refused(String t, String statement, String constraint) {
        long before = sql.latestCommit();
        List<List<String>> rows = state(t);
        JsonNode problem = sql.fails(400, "CHECK_VIOLATION", statement);
        assertThat(problem.path("detail").asString()).contains(constraint).contains(t).contains("\"id\"");
        assertThat(sql.latestCommit()).as("no commit").isEqualTo(before);
        assertThat(state(t)).as("nothing changed").isEqualTo(rows);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"APPEND", "UPSERT", "VERSIONED", "SYSTEM"})
    void everyWriteIsCheckedOnEveryMode(String mode) {
        String t = create(mode);
        String write = mode.equals("UPSERT") || mode.equals("VERSIONED") ? "UPSERT" : "INSERT";
        sql.write(write + " INTO " + t + " VALUES (1, 9.50, 3), (2, 1.00, NULL)");
        refused(t, write + " INTO " + t + " VALUES (3, 5.00, 1), (4, -1.00, 1)", t + "_price_check");
        refused(t, write + " INTO " + t + " VALUES (3, 5.00, 101)", "qty_ok");
        refused(t, write + " INTO " + t + " (id, price, qty) SELECT id + 10, price - 9.50, qty FROM " + t,
                t + "_price_check");
        // A failing statement after a good one leaves the good one unwritten too.
        refused(t, write + " INTO " + t + " VALUES (5, 5.00, 5); " + write + " INTO " + t + " VALUES (6, 0, 5)",
                t + "_price_check");
        if (!mode.equals("APPEND")) {
            refused(t, "UPDATE " + t + " SET qty = qty * 100 WHERE id = 1", "qty_ok");
            sql.write("UPDATE " + t + " SET price = price * 2 WHERE id = 1");
            sql.write("DELETE FROM " + t + " WHERE id = 2");
        }
        assertThat(state(t).get(0)).isEqualTo(List.of("1", mode.equals("APPEND") ? "9.50" : "19.00", "3"));
    }

    @Test
    void aCheckSpanningAttributeGroupsHoldsForTheRowAsPutTogether() {
        String t = table("ckgroups");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, lo INT, lo_ix INT, hi INT, hi_ix INT, "
                + "ATTRIBUTE GROUP low (lo, lo_ix) VALID BY (lo_ix), ATTRIBUTE GROUP high (hi, hi_ix) VALID BY (hi_ix), "
                + "CHECK (lo <= hi)) VERSIONED");
        sql.write("UPSERT INTO " + t + " VALUES (1, 1, 1, 10, 1)");
        long before = sql.latestCommit();
        JsonNode problem = sql.fails(400, "CHECK_VIOLATION", "UPSERT INTO " + t + " (k, lo, lo_ix) VALUES (1, 20, 2) "
                + "ATTRIBUTE GROUP low");
        assertThat(problem.path("detail").asString()).contains(t + "_check").contains("\"lo\": 20");
        assertThat(sql.latestCommit()).isEqualTo(before);
        // Both groups in one statement: checked once the statement is done, not group by group.
        sql.write("UPSERT INTO " + t + " VALUES (1, 20, 2, 30, 2)");
        // A late version that loses on arrival never becomes current: no current row breaks the check.
        sql.write("UPSERT INTO " + t + " (k, lo, lo_ix) VALUES (1, 99, 0) ATTRIBUTE GROUP low");
        assertThat(sql.rows("SELECT lo, hi FROM " + t)).containsExactly(List.of("20", "30"));
    }

    @Test
    void describeAndShowCreateTableShowTheChecksAsWritten() {
        String t = create("VERSIONED");
        List<List<String>> describe = sql.rows("DESCRIBE " + t);
        assertThat(describe.stream().filter(r -> r.get(0).equals("CHECK")).map(r -> List.of(r.get(1), r.get(10))))
                .containsExactly(List.of(t + "_price_check", "price > 0"),
                        List.of("qty_ok", "qty IS NULL OR qty BETWEEN 0 AND 100"));
        String shown = sql.rows("SHOW CREATE TABLE " + t).get(0).get(1);
        assertThat(shown).contains("CONSTRAINT " + t + "_price_check CHECK (price > 0)")
                .contains("CONSTRAINT qty_ok CHECK (qty IS NULL OR qty BETWEEN 0 AND 100)");
        // What SHOW CREATE TABLE prints creates the same table.
        String copy = table("ckcopy");
        sql.write(shown.replace(t + " (", copy + " (").replace(t + "_price_check", copy + "_price_check"));
        sql.fails(400, "CHECK_VIOLATION", "UPSERT INTO " + copy + " VALUES (1, -5, 1)");
    }

    @Test
    void renamingAColumnRewritesItsChecksAndDroppingItDropsThem() {
        String t = create("UPSERT");
        sql.write("ALTER TABLE " + t + " RENAME COLUMN qty TO quantity");
        assertThat(sql.rows("SHOW CREATE TABLE " + t).get(0).get(1))
                .contains("CHECK (quantity IS NULL OR quantity BETWEEN 0 AND 100)");
        sql.fails(400, "CHECK_VIOLATION", "UPSERT INTO " + t + " VALUES (1, 1, 500)");
        sql.write("ALTER TABLE " + t + " DROP COLUMN quantity");
        assertThat(sql.rows("DESCRIBE " + t).stream().filter(r -> r.get(0).equals("CHECK")).map(r -> r.get(1)))
                .containsExactly(t + "_price_check");
        sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        sql.fails(400, "CHECK_VIOLATION", "UPSERT INTO " + t + " VALUES (2, 0)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            subquery                 | INVALID_DEFINITION | CHECK (n > (SELECT 1))
            EXISTS                   | INVALID_DEFINITION | CHECK (EXISTS (SELECT 1))
            parameter                | INVALID_DEFINITION | CHECK (n > ?)
            clock                    | INVALID_DEFINITION | CHECK (d < now())
            current_date             | INVALID_DEFINITION | CHECK (d < current_date)
            aggregate                | INVALID_DEFINITION | CHECK (sum(n) > 0)
            window                   | INVALID_DEFINITION | CHECK (row_number() OVER () > 0)
            qualified column         | INVALID_DEFINITION | CHECK (x.n > 0)
            not a condition          | INVALID_DEFINITION | CHECK (n + 1)
            wrong types              | INVALID_DEFINITION | CHECK (n > DATE '2026-01-01')
            unknown column           | UNKNOWN_COLUMN     | CHECK (missing > 0)
            unknown function         | UNKNOWN_FUNCTION   | CHECK (pg_sleep(1) IS NULL)
            duplicate name           | DUPLICATE_NAME     | CONSTRAINT c CHECK (n > 0), CONSTRAINT c CHECK (n < 9)
            """)
    void badChecksAreRefusedAndNothingIsCreated(String what, String code, String check) {
        for (String mode : List.of("VERSIONED", "WITH SYSTEM VERSIONING")) {
            String t = table("ckbad");
            long before = sql.latestCommit();
            JsonNode problem = sql.fails(400, code, "CREATE TABLE " + t + " (k INT PRIMARY KEY, n INT, d DATE, "
                    + check + ") " + mode, check.contains("?") ? new Object[] {1} : new Object[0]);
            assertThat(problem.path("detail").asString()).as(what).isNotBlank();
            assertThat(sql.latestCommit()).as("nothing created").isEqualTo(before);
            assertThat(sql.rows("SHOW TABLES").stream().map(r -> r.get(0))).doesNotContain(t);
        }
    }
}
