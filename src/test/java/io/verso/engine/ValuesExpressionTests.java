package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * VALUES takes expressions as SQL users write them: arithmetic, casts, functions of the language's
 * list, DEFAULT, over literals and parameters, each evaluated once and checked against its column
 * as a literal written there would be; what cannot be a row's value is refused at its line:column,
 * and nothing is written.
 */
class ValuesExpressionTests extends IntegrationTest {

    private String table() {
        String t = table("vexpr");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT, n NUMERIC(10,2), at TIMESTAMPTZ, "
                + "s TEXT DEFAULT 'none', b BIGINT, vi BIGINT) VERSIONED VALID BY (vi)");
        return t;
    }

    @Test
    void arithmeticCastsFunctionsParametersAndDefaultAreWrittenAsTheirValues() {
        String t = table();
        sql.write("UPSERT INTO " + t + " VALUES (1, 1 + 1, CAST(? AS NUMERIC) * 2, now(), DEFAULT, -?, 10), "
                + "(2, abs(-5), round(? * 1.1, 2), NULL, upper(?), CASE WHEN 1 < 2 THEN 3 ELSE 4 END, 5 * 2 + 1)",
                "2.25", 7, 3, "x");
        assertThat(sql.rows("SELECT k, v, n, s, b, vi FROM " + t + " ORDER BY k")).containsExactly(
                List.of("1", "2", "4.50", "none", "-7", "10"),
                List.of("2", "5", "3.30", "X", "3", "11"));
        assertThat(sql.rows("SELECT count(*) FROM " + t + " WHERE at IS NOT NULL")).containsExactly(List.of("1"));
    }

    @Test
    void nowIsTheSameInEveryRowOfARequestAndItsCommitsTime() {
        String t = table();
        long commit = sql.write("UPSERT INTO " + t + " (k, at, vi) VALUES (1, now(), 1), (2, now(), 1), "
                + "(3, now() - INTERVAL '1 hour', 1)");
        assertThat(sql.rows("SELECT count(DISTINCT at) FROM " + t + " WHERE k < 3")).containsExactly(List.of("1"));
        assertThat(sql.rows("SELECT count(*) FROM " + t + " a, " + t + " b WHERE a.k = 1 AND b.k = 3 "
                + "AND b.at = a.at - INTERVAL '1 hour'")).containsExactly(List.of("1"));
        assertThat(commit).isPositive();
    }

    @Test
    void aValueIsCastToItsColumnAsInsertSelectCastsIt() {
        String t = table();
        sql.write("UPSERT INTO " + t + " (k, v, vi) VALUES (1, 2.5 * 1, 1)");
        assertThat(sql.rows("SELECT v FROM " + t)).containsExactly(List.of("3"));
        // A literal is still checked as it was: 2.5 is no INT.
        sql.fails(400, "INVALID_VALUE", "UPSERT INTO " + t + " (k, v, vi) VALUES (2, 2.5, 1)");
    }

    @Test
    void whatCannotBeARowsValueIsRefusedAtItsPosition() {
        String t = table();
        long before = sql.latestCommit();
        assertPosition(sql.fails(400, "INVALID_EXPRESSION", "UPSERT INTO " + t + " (k, v, vi) VALUES (1, k + 1, 1)"),
                1, "UPSERT INTO ".length() + t.length() + " (k, v, vi) VALUES (1, ".length() + 1);
        JsonNode subquery = sql.fails(400, "INVALID_EXPRESSION",
                "UPSERT INTO " + t + " (k, v, vi) VALUES (1, (SELECT max(v) FROM " + t + "), 1)");
        assertThat(subquery.path("detail").asString()).contains("subquery");
        assertThat(sql.fails(400, "INVALID_EXPRESSION", "UPSERT INTO " + t + " (k, v, vi) VALUES (1, sum(1), 1)")
                .path("detail").asString()).contains("aggregate");
        sql.fails(400, "UNKNOWN_FUNCTION", "UPSERT INTO " + t + " (k, v, vi) VALUES (1, nosuch(1), 1)");

        JsonNode division = sql.fails(400, "DIVISION_BY_ZERO",
                "UPSERT INTO " + t + " (k, v, vi) VALUES (1, 1, 1),\n  (2, 1 / 0, 1)");
        assertPosition(division, 2, 7);
        assertThat(division.path("detail").asString()).contains("'v'");
        assertPosition(sql.fails(400, "INVALID_VALUE", "UPSERT INTO " + t + " (k, v, vi) VALUES (1, 'a' || 'b', 1)"),
                1, "UPSERT INTO ".length() + t.length() + " (k, v, vi) VALUES (1, ".length() + 1);

        assertThat(sql.latestCommit()).as("nothing written").isEqualTo(before);
        assertThat(sql.rows("SELECT * FROM " + t)).isEmpty();
    }

    @Test
    void orderingAndKeyColumnsStillMustBeGivenAndNonNull() {
        String t = table();
        sql.fails(400, "MISSING_ORDERING_VALUE", "UPSERT INTO " + t + " (k, v, vi) VALUES (1, 1, DEFAULT)");
        sql.fails(400, "MISSING_ORDERING_VALUE", "UPSERT INTO " + t + " (k, v, vi) VALUES (1, 1, CAST(NULL AS BIGINT))");
        sql.fails(400, "MISSING_KEY_VALUE", "UPSERT INTO " + t + " (k, v, vi) VALUES (DEFAULT, 1, 1)");
        sql.fails(400, "MISSING_KEY_VALUE", "UPSERT INTO " + t + " (k, v, vi) VALUES (nullif(1, 1), 1, 1)");
        assertThat(sql.rows("SELECT * FROM " + t)).isEmpty();
    }

    @Test
    void anAppendTableTakesExpressionsAndDefaultToo() {
        String t = table("vexpr_log");
        sql.write("CREATE TABLE " + t + " (at TIMESTAMPTZ, actor TEXT DEFAULT 'system', n INT) APPEND");
        sql.write("INSERT INTO " + t + " VALUES (CAST('2026-10-01T12:00:00Z' AS TIMESTAMPTZ) + INTERVAL '1 day', "
                + "DEFAULT, length(?))", "four");
        assertThat(sql.rows("SELECT at, actor, n FROM " + t)).containsExactly(
                List.of("2026-10-02T12:00:00Z", "system", "4"));
    }

    @Test
    void aSystemVersionedTableTakesExpressionsAndStillRefusesItsPeriodColumns() {
        String t = table("vexpr_sv");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) WITH SYSTEM VERSIONING");
        sql.write("INSERT INTO " + t + " VALUES (1, 2 * 3), (2, DEFAULT)");
        assertThat(sql.rows("SELECT k, v FROM " + t + " ORDER BY k")).containsExactly(List.of("1", "6"),
                Arrays.asList("2", null));
        sql.fails(400, "PERIOD_COLUMN_WRITE", "INSERT INTO " + t + " (k, v, row_start) VALUES (3, 1, now())");
    }

    private static void assertPosition(JsonNode problem, int line, int column) {
        assertThat(problem.path("line").asInt()).as(problem.toString()).isEqualTo(line);
        assertThat(problem.path("column").asInt()).as(problem.toString()).isEqualTo(column);
    }
}
