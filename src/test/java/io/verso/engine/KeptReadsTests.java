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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * One-key reads are planned once and run again with each request's parameters ({@link KeptReads}). What a user
 * must never see of it: one request's key answered for another's, a plan made for one caller or grant serving a
 * caller it would refuse, a table's old definition after it changed, or a parameter that shapes the statement
 * (a LIMIT) taken from an earlier request. Over HTTP with security on (REST, GraphQL and /v1/sql), each read
 * repeated so the plan is kept.
 */
class KeptReadsTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String ADMIN = TestSecurity.HEADER + ": " + TestSecurity.ADMIN_KEY;

    @Test
    void eachRequestIsAnsweredForItsOwnKey() throws Exception {
        String t = table("kept");
        sql.write("CREATE TABLE " + t + " (chain BIGINT, address TEXT, v TEXT, PRIMARY KEY (chain, address)) VERSIONED");
        List<Object[]> keys = new ArrayList<>();
        StringBuilder values = new StringBuilder();
        for (int chain = 1; chain <= 5; chain++) {
            for (String address : List.of("a", "b", "c", "d", "e", "f")) {
                keys.add(new Object[] {chain, address});
                values.append(values.isEmpty() ? "" : ", ").append('(').append(chain).append(", '").append(address)
                        .append("', '").append(chain).append(address).append("')");
            }
        }
        sql.write("UPSERT INTO " + t + " VALUES " + values);
        Random random = new Random(26);
        for (int round = 0; round < 3; round++) {
            Collections.shuffle(keys, random);
            for (Object[] key : keys) {
                String expected = "" + key[0] + key[1];
                JsonNode row = body(get("/v1/tables/" + t + "/row?key=" + key[0] + "&key=" + key[1], ADMIN), 200)
                        .path("row");
                assertThat(row.path("v").asString()).as("REST %s", expected).isEqualTo(expected);
                String graphql = "{\"query\": \"query K($c: BigInt!, $a: String!) { " + t + "_by_key(chain: $c, "
                        + "address: $a) { v } }\", \"variables\": {\"c\": \"" + key[0] + "\", \"a\": \"" + key[1]
                        + "\"}}";
                assertThat(body(post("/graphql", graphql), 200).path("data").path(t + "_by_key").path("v").asString())
                        .as("GraphQL %s", expected).isEqualTo(expected);
                // The same statement with the chain as a JSON number, then as a string: two classes, two plans.
                assertThat(sql.rows("SELECT v FROM " + t + " WHERE chain = ? AND address = ?", key[0], key[1]))
                        .as("SQL %s", expected).containsExactly(List.of(expected));
                assertThat(sql.rows("SELECT v, ? FROM " + t + " WHERE chain = ? AND address = ?", "echo " + expected,
                        String.valueOf(key[0]), key[1])).as("SQL %s, text", expected)
                        .containsExactly(List.of(expected, "echo " + expected));
            }
        }
        assertThat(body(get("/v1/tables/" + t + "/row?key=9&key=a", ADMIN), 404).path("code").asString())
                .isEqualTo("UNKNOWN_KEY");
    }

    @Test
    void aPlanKeptForOneCallerServesNoCallerItWouldRefuse() throws Exception {
        String t = table("kept_grants");
        String readers = table("kept_readers");
        String writers = table("kept_writers");
        sql.run("CREATE TABLE " + t + " (k BIGINT PRIMARY KEY, v TEXT) VERSIONED; UPSERT INTO " + t
                + " VALUES (1, 'one'), (2, 'two'); CREATE ROLE " + readers + "; CREATE ROLE " + writers
                + "; GRANT SELECT ON TABLE " + t + " TO " + readers + "; GRANT WRITE ON TABLE " + t + " TO " + writers);
        String reader = "Authorization: Bearer " + TestSecurity.jwt("kate", readers);
        String writer = "Authorization: Bearer " + TestSecurity.jwt("will", writers);
        String nobody = "Authorization: Bearer " + TestSecurity.jwt("nora");
        String path = "/v1/tables/" + t + "/row?key=";
        for (int i = 0; i < 3; i++) {
            assertThat(body(get(path + (1 + i % 2), reader), 200).path("row").path("k").asString())
                    .isEqualTo(String.valueOf(1 + i % 2));
        }
        assertThat(body(get(path + 1, writer), 403).path("code").asString()).isEqualTo("FORBIDDEN");
        assertThat(body(get(path + 1, nobody), 404).path("code").asString()).isEqualTo("UNKNOWN_TABLE");
        sql.run("REVOKE SELECT ON TABLE " + t + " FROM " + readers);
        assertThat(body(get(path + 2, reader), 404).path("code").asString()).as("revoked").isEqualTo("UNKNOWN_TABLE");
        sql.run("GRANT SELECT ON TABLE " + t + " TO " + writers);
        for (int i = 0; i < 2; i++) {
            assertThat(body(get(path + 2, writer), 200).path("row").path("v").asString()).isEqualTo("two");
            assertThat(body(get(path + 2, reader), 404).path("code").asString()).isEqualTo("UNKNOWN_TABLE");
        }
    }

    @Test
    void aKeptPlanFollowsItsTable() throws Exception {
        String t = table("kept_alter");
        sql.write("CREATE TABLE " + t + " (k BIGINT PRIMARY KEY, v TEXT) VERSIONED; UPSERT INTO " + t + " VALUES (1, 'a')");
        String path = "/v1/tables/" + t + "/row?key=1";
        for (int i = 0; i < 2; i++) {
            assertThat(body(get(path, ADMIN), 200).path("row").toString()).isEqualTo("{\"k\":\"1\",\"v\":\"a\"}");
        }
        sql.write("ALTER TABLE " + t + " ADD COLUMN w TEXT; UPSERT INTO " + t + " VALUES (1, 'b', 'c')");
        assertThat(body(get(path, ADMIN), 200).path("row").toString()).isEqualTo("{\"k\":\"1\",\"v\":\"b\",\"w\":\"c\"}");
        sql.write("DROP TABLE " + t + "; CREATE TABLE " + t + " (k TEXT PRIMARY KEY, z INT) VERSIONED; UPSERT INTO " + t
                + " VALUES ('1', 7)");
        assertThat(body(get(path, ADMIN), 200).path("row").toString()).isEqualTo("{\"k\":\"1\",\"z\":7}");
    }

    @Test
    void aParameterThatShapesTheStatementIsReadAtEachRequest() {
        String t = table("kept_limit");
        sql.write("CREATE TABLE " + t + " (k BIGINT PRIMARY KEY, v TEXT) VERSIONED; UPSERT INTO " + t + " VALUES (1, 'a')");
        String read = "SELECT v FROM " + t + " WHERE k = ? LIMIT ?";
        for (int i = 0; i < 3; i++) {
            assertThat(sql.rows(read, 1, 1)).containsExactly(List.of("a"));
        }
        assertThat(sql.rows(read, 1, 0)).isEmpty();
        sql.fails(400, "INVALID_LIMIT", read, 1, -1);
        long first = sql.latestCommit();
        sql.write("UPSERT INTO " + t + " VALUES (1, 'b')");
        String asOf = "SELECT v FROM " + t + " AS OF COMMIT ? WHERE k = ?";
        for (int i = 0; i < 2; i++) {
            assertThat(sql.rows(asOf, first, 1)).containsExactly(List.of("a"));
            assertThat(sql.rows(asOf, sql.latestCommit(), 1)).containsExactly(List.of("b"));
        }
    }

    /**
     * A read AS OF a commit given as a parameter (REST's asOfCommit, GraphQL's) is kept for that commit: each commit
     * is answered with its own row, a commit not yet made is refused, and a history horizon moved past a commit
     * refuses it even where a plan was kept for it.
     */
    @Test
    void aReadAsOfACommitIsKeptForThatCommitOnly() throws Exception {
        String t = table("kept_asof");
        long[] commits = {
            sql.write("CREATE TABLE " + t + " (k BIGINT PRIMARY KEY, v TEXT) VERSIONED; UPSERT INTO " + t
                    + " VALUES (1, 'a'), (2, 'x')"),
            sql.write("UPSERT INTO " + t + " VALUES (1, 'b')"),
            sql.write("UPSERT INTO " + t + " VALUES (1, 'c'), (2, 'y')")};
        String[][] expected = {{"a", "x"}, {"b", "x"}, {"c", "y"}};
        for (int round = 0; round < 3; round++) {
            for (int c = 0; c < commits.length; c++) {
                for (int k = 1; k <= 2; k++) {
                    JsonNode rest = body(get("/v1/tables/" + t + "/row?key=" + k + "&asOfCommit=" + commits[c], ADMIN),
                            200);
                    assertThat(rest.path("row").path("v").asString()).as("REST key %d at %d", k, commits[c])
                            .isEqualTo(expected[c][k - 1]);
                    assertThat(rest.path("readCommit").asString()).isEqualTo(String.valueOf(commits[c]));
                    String graphql = "{\"query\": \"query K($k: BigInt!, $c: CommitSeq) { " + t + "_by_key(k: $k, "
                            + "asOfCommit: $c) { v } }\", \"variables\": {\"k\": \"" + k + "\", \"c\": \""
                            + commits[c] + "\"}}";
                    JsonNode answer = body(post("/graphql", graphql), 200);
                    assertThat(answer.path("data").path(t + "_by_key").path("v").asString())
                            .as("GraphQL key %d at %d: %s", k, commits[c], answer).isEqualTo(expected[c][k - 1]);
                }
            }
        }
        long beyond = sql.latestCommit() + 1000;
        assertThat(body(get("/v1/tables/" + t + "/row?key=1&asOfCommit=" + beyond, ADMIN), 400).path("code")
                .asString()).isEqualTo("AS_OF_BEYOND_LATEST");
        sql.write("DELETE HISTORY FROM " + t + " BEFORE COMMIT " + commits[1]);
        assertThat(body(get("/v1/tables/" + t + "/row?key=1&asOfCommit=" + commits[0], ADMIN), 400).path("code")
                .asString()).isEqualTo("AS_OF_BEFORE_HORIZON");
        assertThat(body(get("/v1/tables/" + t + "/row?key=1&asOfCommit=" + commits[1], ADMIN), 200).path("row")
                .path("v").asString()).isEqualTo("b");
    }

    private HttpResponse<String> get(String path, String header) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
        int colon = header.indexOf(": ");
        request.header(header.substring(0, colon), header.substring(colon + 2));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String json) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode body(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        return SqlClient.JSON.readTree(response.body());
    }
}
