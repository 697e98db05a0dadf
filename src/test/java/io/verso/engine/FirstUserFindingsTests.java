package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.RestClient;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What a new user and a black-box suite found wrong, each shown the way they met it. */
class FirstUserFindingsTests extends IntegrationTest {

    @Test
    void aTableWithoutADefaultGroupGetsNoDefaultGroupTombstones() {
        String t = table("groups_only");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, a INT, ax BIGINT, b TEXT, bx BIGINT, "
                + "ATTRIBUTE GROUP ga (a, ax) VALID BY (ax), ATTRIBUTE GROUP gb (b, bx) VALID BY (bx)) VERSIONED");
        sql.write("UPSERT INTO " + t + " (k, a, ax) VALUES (1, 5, 10)");
        JsonNode receipt = sql.run("DELETE FROM " + t + " WHERE k = 1 AT (ax = 20, bx = 20)").get("results").get(0);
        assertThat(receipt.get("versions").asLong()).as("one tombstone per named group").isEqualTo(2);

        assertThat(sql.rows("SELECT _group, _deleted FROM history(" + t + ") ORDER BY _commit, _group"))
                .containsExactly(List.of("ga", "false"), List.of("ga", "true"), List.of("gb", "true"));
        assertThat(sql.rows("SELECT * FROM " + t)).isEmpty();
    }

    @Test
    void aTableWithoutADefaultGroupOffersNoneOnAnySurface() {
        String t = table("no_default");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, a INT, ax BIGINT, b TEXT, bx BIGINT, "
                + "ATTRIBUTE GROUP ga (a, ax) VALID BY (ax), ATTRIBUTE GROUP gb (b, bx) VALID BY (bx)) VERSIONED");
        sql.write("UPSERT INTO " + t + " (k, a, ax) VALUES (1, 5, 10)");
        long before = sql.latestCommit();
        RestClient rest = new RestClient(port);
        JsonNode described = io.verso.support.SqlClient.JSON.readTree(rest.request().get("/v1/tables/" + t).asString());
        List<String> groups = new java.util.ArrayList<>();
        described.get("groups").forEach(g -> groups.add(g.get("name").asString()));
        assertThat(groups).containsExactly("ga", "gb");

        RestClient.problem(rest.json("{\"group\": \"default\", \"rows\": [{\"k\": 2}]}").post("/v1/tables/" + t + "/rows"),
                400, "UNKNOWN_GROUP", "/group");
        sql.fails(400, "UNKNOWN_GROUP", "UPSERT INTO " + t + " (k) VALUES (2) ATTRIBUTE GROUP \"default\"");
        RestClient.problem(rest.request().get("/v1/tables/" + t + "/history?key=1&group=default"),
                400, "UNKNOWN_GROUP", "group");
        assertThat(sql.latestCommit()).isEqualTo(before);
        assertThat(sql.rows("SELECT DISTINCT _group FROM history(" + t + ")")).containsExactly(List.of("ga"));
    }

    @Test
    void aRestValueErrorNamesTheRowItPointsAt() {
        String t = table("rest_rows");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, amount NUMERIC(10,2)) UPSERT");
        RestClient rest = new RestClient(port);
        JsonNode problem = RestClient.problem(rest.json("{\"rows\": [{\"k\": 1, \"amount\": \"1.5\"}, "
                + "{\"k\": 2, \"amount\": \"abc\"}]}").post("/v1/tables/" + t + "/rows"), 400, "INVALID_VALUE",
                "/rows/1/amount");
        assertThat(problem.get("detail").asString()).contains("row /rows/1").doesNotContain("row 2");
        assertThat(sql.rows("SELECT * FROM " + t)).isEmpty();
    }

    @Test
    void aRefusedWriteNamesTheLatestCommitThatWasMade() {
        String t = table("horizon");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT, ix BIGINT) VERSIONED VALID BY (ix)");
        long latest = sql.write("UPSERT INTO " + t + " VALUES (1, 1, 1)");
        JsonNode problem = sql.fails(400, "AS_OF_BEYOND_LATEST", "DELETE HISTORY FROM " + t + " BEFORE COMMIT 999999999");
        assertThat(problem.get("detail").asString()).endsWith("after the latest commit " + latest);
        assertThat(sql.latestCommit()).isEqualTo(latest);
    }

    @Test
    void aJoinOfAnAsOfTableWithACurrentOneReportsTheCommitItReadAt() {
        String b = table("then");
        String p = table("now");
        sql.write("CREATE TABLE " + b + " (k INT PRIMARY KEY, v INT, ix BIGINT) VERSIONED VALID BY (ix); "
                + "CREATE TABLE " + p + " (k INT PRIMARY KEY, label TEXT) UPSERT");
        long first = sql.write("UPSERT INTO " + b + " VALUES (1, 10, 1); UPSERT INTO " + p + " VALUES (1, 'one')");
        sql.write("UPSERT INTO " + b + " VALUES (1, 20, 2)");
        JsonNode result = sql.run("SELECT x.v, y.label FROM " + b + " AS OF COMMIT ? x JOIN " + p
                + " y ON y.k = x.k", first).get("results").get(0);
        assertThat(result.get("rows").toString()).isEqualTo("[[10,\"one\"]]");
        // Every SELECT reports the commit it was read at; relations read at different commits (here a
        // past one and the current rows) report the snapshot's latest commit (docs/language.md).
        assertThat(result.has("asOfCommit")).as(result.toString()).isTrue();
        assertThat(Long.parseLong(result.get("asOfCommit").asString())).isGreaterThan(first);
    }
}
