package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * EXPLAIN over /v1/sql: the plan, one line per row, from the same planner and printer as the golden plan
 * files; nothing runs and nothing is committed; ANALYZE adds PostgreSQL's plan and timings of the reads;
 * a caller is shown only what it may use.
 */
class ExplainTests extends IntegrationTest {

    private static List<String> lines(JsonNode response) {
        List<String> lines = new ArrayList<>();
        response.path("results").get(0).path("rows").forEach(row -> lines.add(row.get(0).asString()));
        return lines;
    }

    @Test
    void explainPrintsThePlanAndRunsNothing() {
        String t = table("explained");
        long created = sql.write("CREATE TABLE " + t + " (id INT PRIMARY KEY, v INT, ix INT) VERSIONED VALID BY (ix)");
        sql.write("UPSERT INTO " + t + " VALUES (1, 10, 1)");

        JsonNode select = sql.run("EXPLAIN SELECT v FROM " + t + " AS OF COMMIT " + created + " WHERE id = ?", 1);
        assertThat(select.path("commit").isNull()).isTrue();
        assertThat(select.path("results").get(0).path("statement").asString()).isEqualTo("EXPLAIN");
        assertThat(lines(select)).startsWith("SELECT", "reads: " + t + " AS OF COMMIT " + created,
                "needs: SELECT on " + t, "step 1: read the rows");
        assertThat(String.join("\n", lines(select))).contains("-- $3 = 1 (Integer)");

        JsonNode update = sql.run("EXPLAIN UPDATE " + t + " SET v = v + 1, ix = 2 WHERE v > 5");
        assertThat(update.path("commit").isNull()).isTrue();
        assertThat(lines(update)).contains("UPDATE " + t, "needs: SELECT on " + t + ", WRITE on " + t,
                "step 1: read the rows it matches, with their new values");
        assertThat(sql.rows("SELECT v, ix FROM " + t)).containsExactly(List.of("10", "1"));

        JsonNode analyzed = sql.run("EXPLAIN ANALYZE DELETE FROM " + t + " WHERE v > 5 AT (ix = 3)");
        assertThat(String.join("\n", lines(analyzed))).contains("PostgreSQL's plan of the read, run:")
                .contains("Execution Time");
        assertThat(sql.rows("SELECT v FROM " + t)).containsExactly(List.of("10"));
        assertThat(lines(sql.run("EXPLAIN DROP TABLE " + t))).containsExactly("DROP TABLE " + t,
                "needs: ADMIN on " + t, "step 1: carried out as it runs (no query of its own to show)");
        assertThat(sql.rows("SELECT v FROM " + t)).hasSize(1);
    }

    @Test
    void explainAnswersWhatTheStatementWouldForACallerWithoutPrivileges() throws Exception {
        String t = table("explain_hidden");
        sql.write("CREATE TABLE " + t + " (id INT PRIMARY KEY, v TEXT) VERSIONED");
        String role = table("explain_role");
        sql.run("CREATE ROLE " + role + "; GRANT WRITE ON TABLE " + t + " TO " + role);
        JsonNode forbidden = as(TestSecurity.jwt("xena", role), "EXPLAIN SELECT v FROM " + t);
        assertThat(forbidden.path("code").asString()).as(forbidden.toString()).isEqualTo("FORBIDDEN");
        assertThat(forbidden.path("detail").asString()).contains("permission SELECT on table " + t);
        JsonNode outsider = as(TestSecurity.jwt("yann"), "EXPLAIN UPDATE " + t + " SET v = 'x'");
        assertThat(outsider.path("code").asString()).as(outsider.toString()).isEqualTo("UNKNOWN_TABLE");
        assertThat(outsider.path("detail").asString()).isEqualTo("unknown table '" + t + "'");
    }

    private JsonNode as(String token, String statement) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        "http://localhost:" + port + "/v1/sql")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(
                        SqlClient.JSON.writeValueAsString(Map.of("sql", statement)))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isBetween(400, 499);
        return SqlClient.JSON.readTree(response.body());
    }
}
