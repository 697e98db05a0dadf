package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A request is a session: one that ends inside the transaction its START TRANSACTION / BEGIN opened commits
 * nothing (MariaDB keeps nothing of a transaction its session never committed), on every table mode.
 */
class OpenTransactionTests extends IntegrationTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"APPEND", "UPSERT", "VERSIONED", "WITH SYSTEM VERSIONING"})
    void aRequestEndingInsideItsTransactionIsRefusedAndKeepsNothing(String mode) {
        String t = table("open");
        sql.write("CREATE TABLE " + t + " (k INT" + (mode.startsWith("WITH") || mode.equals("APPEND") ? "" : " PRIMARY KEY")
                + ", v INT) " + mode);
        sql.write("INSERT INTO " + t + " VALUES (1, 10)");
        long before = sql.latestCommit();

        JsonNode problem = sql.fails(400, "TRANSACTION_NOT_ENDED",
                "INSERT INTO " + t + " VALUES (2, 20);\nBEGIN; INSERT INTO " + t + " VALUES (3, 30)");
        assertThat(problem.path("line").asInt()).isEqualTo(2);
        assertThat(problem.path("column").asInt()).isEqualTo(1);
        assertThat(problem.path("detail").asString()).contains("COMMIT", "ROLLBACK", "nothing of the request");

        sql.fails(400, "TRANSACTION_NOT_ENDED", "START TRANSACTION; INSERT INTO " + t + " VALUES (4, 40); "
                + "COMMIT; BEGIN WORK; INSERT INTO " + t + " VALUES (5, 50)");
        assertThat(sql.latestCommit()).as("no commit was made").isEqualTo(before);
        assertThat(sql.rows("SELECT k, v FROM " + t + " ORDER BY k")).containsExactly(List.of("1", "10"));
    }

    @Test
    void aClosedFrameStillCommitsAndARolledBackOneLeavesNothing() {
        String t = table("open");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        sql.write("BEGIN; INSERT INTO " + t + " VALUES (1, 10); COMMIT");
        long before = sql.latestCommit();
        JsonNode rolledBack = sql.run("START TRANSACTION; INSERT INTO " + t + " VALUES (2, 20); ROLLBACK");
        assertThat(rolledBack.path("commit").isNull()).isTrue();
        assertThat(sql.latestCommit()).isEqualTo(before);
        assertThat(sql.rows("SELECT k, v FROM " + t)).containsExactly(List.of("1", "10"));
        assertThat(sql.rows("SELECT count(*) FROM history(" + t + ")")).containsExactly(List.of("1"));
    }

    @Test
    void aReadLeftInsideItsTransactionIsRefusedToo() {
        String t = table("open");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT)");
        sql.fails(400, "TRANSACTION_NOT_ENDED", "BEGIN; SELECT k FROM " + t);
        assertThat(sql.run("BEGIN; SELECT k FROM " + t + "; COMMIT").at("/results/1/rowCount").asInt()).isZero();
    }
}
