package io.verso.api.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.RestClient;
import io.verso.support.TestSecurity;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.graphql.test.tester.GraphQlTester;
import org.springframework.graphql.test.tester.HttpGraphQlTester;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * {@code asOfTime} beside {@code asOfCommit} on REST and GraphQL reads (issue 12): the same meaning as
 * AS OF TIMESTAMP in /v1/sql, the resolved commit reported, the same codes for bad values; and the
 * history of a system-versioned table's key with each version's period (row_start/row_end).
 */
class AsOfTimeTests extends IntegrationTest {

    private RestClient rest;
    private HttpGraphQlTester graphql;

    @BeforeEach
    void clients() {
        rest = new RestClient(port);
        WebTestClient client = WebTestClient.bindToServer(new JdkClientHttpConnector())
                .baseUrl("http://localhost:" + port + "/graphql").responseTimeout(Duration.ofSeconds(60))
                .defaultHeader(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).build();
        graphql = HttpGraphQlTester.create(client);
    }

    private String committedAt(long commit) {
        return RestClient.expect(rest.request().get("/v1/commits/" + commit), 200).path("committedAt").asString();
    }

    @Test
    void restReadsAsOfATimeReportTheCommitItResolvedTo() {
        String t = table("aot");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT) VERSIONED");
        long c1 = sql.write("UPSERT INTO " + t + " VALUES (1, 'one')");
        long c2 = sql.write("UPSERT INTO " + t + " VALUES (1, 'two'), (2, 'b')");
        String at1 = committedAt(c1);

        JsonNode row = RestClient.expect(rest.request().queryParam("key", "1").queryParam("asOfTime", at1)
                .get("/v1/tables/" + t + "/row"), 200);
        assertThat(row.path("readCommit").asString()).isEqualTo(Long.toString(c1));
        assertThat(row.path("row").path("v").asString()).isEqualTo("one");

        JsonNode page = RestClient.expect(rest.request().queryParam("asOfTime", at1)
                .get("/v1/tables/" + t + "/rows"), 200);
        assertThat(page.path("readCommit").asString()).isEqualTo(Long.toString(c1));
        assertThat(page.path("rows")).hasSize(1);

        JsonNode later = RestClient.expect(rest.request().queryParam("asOfTime", "2999-01-01T00:00:00Z")
                .get("/v1/tables/" + t + "/rows"), 200);
        assertThat(later.path("readCommit").asString()).isEqualTo(Long.toString(sql.latestCommit()));
        assertThat(later.path("rows")).hasSize(2);

        JsonNode history = RestClient.expect(rest.request().queryParam("key", "1").queryParam("asOfTime", at1)
                .get("/v1/tables/" + t + "/history"), 200);
        assertThat(history.path("readCommit").asString()).isEqualTo(Long.toString(c1));
        assertThat(history.path("versions")).hasSize(1);
        assertThat(history.path("versions").get(0).has("rowStart")).as("only system-versioned tables").isFalse();

        // The same read by commit gives the same answer: the time pinned to a commit.
        JsonNode byCommit = RestClient.expect(rest.request().queryParam("key", "1").queryParam("asOfCommit", c1)
                .get("/v1/tables/" + t + "/row"), 200);
        assertThat(byCommit.path("row")).isEqualTo(row.path("row"));
        assertThat(c2).isGreaterThan(c1);
    }

    @Test
    void badTimesGetTheCodesSqlGivesOnEverySurfaceAndChangeNothing() {
        String t = table("aotbad");
        String upsert = table("aotups");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT) VERSIONED; CREATE TABLE " + upsert
                + " (k INT PRIMARY KEY, v TEXT)");
        sql.write("UPSERT INTO " + t + " VALUES (1, 'one')");
        long before = sql.latestCommit();

        String sqlCode = RestClient.expect(sql.post("SELECT * FROM " + t + " AS OF TIMESTAMP ?", "not a time"), 400)
                .path("code").asString();
        assertThat(sqlCode).isEqualTo("INVALID_VALUE");
        RestClient.problem(rest.request().queryParam("asOfTime", "not a time").get("/v1/tables/" + t + "/rows"),
                400, sqlCode, null);
        RestClient.problem(rest.request().queryParam("key", "1").queryParam("asOfTime", "not a time")
                .get("/v1/tables/" + t + "/row"), 400, sqlCode, null);
        String upsertCode = RestClient.expect(sql.post("SELECT * FROM " + upsert + " AS OF TIMESTAMP ?",
                "2026-01-01T00:00:00Z"), 400).path("code").asString();
        RestClient.problem(rest.request().queryParam("asOfTime", "2026-01-01T00:00:00Z")
                .get("/v1/tables/" + upsert + "/rows"), 400, upsertCode, null);
        RestClient.problem(rest.request().queryParam("asOfTime", "2026-01-01T00:00:00Z").queryParam("asOfCommit", 1)
                .get("/v1/tables/" + t + "/rows"), 400, "INVALID_PARAMETER", "asOfTime");

        graphqlError("{ " + t + "(asOfTime: \"not a time\") { nodes { k } } }", sqlCode);
        graphqlError("{ " + t + "_by_key(k: 1, asOfTime: \"not a time\") { v } }", sqlCode);
        graphqlError("{ " + t + "(asOfTime: \"2026-01-01T00:00:00Z\", asOfCommit: \"1\") { nodes { k } } }",
                "INVALID_PARAMETER");
        assertThat(sql.latestCommit()).as("nothing was written").isEqualTo(before);
    }

    private void graphqlError(String document, String code) {
        graphql.document(document).execute().errors().satisfy(errors -> {
            assertThat(errors).hasSize(1);
            assertThat(errors.get(0).getExtensions()).containsEntry("code", code);
        });
    }

    @Test
    void graphqlReadsAsOfATimeReportTheResolvedCommit() {
        String t = table("aotgql");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT) VERSIONED");
        long c1 = sql.write("UPSERT INTO " + t + " VALUES (1, 'one')");
        sql.write("UPSERT INTO " + t + " VALUES (1, 'two')");
        String at1 = committedAt(c1);

        GraphQlTester.Response response = graphql.document("query($at: String) { page: " + t
                + "(asOfTime: $at) { asOfCommit nodes { k v _asOfCommit } } one: " + t
                + "_by_key(k: 1, asOfTime: $at) { v _asOfCommit } agg: " + t
                + "_aggregate(asOfTime: $at) { count asOfCommit } versions: " + t
                + "_history(k: 1, asOfTime: $at) { v _commit } }").variable("at", at1).execute();
        response.errors().verify();
        response.path("page.asOfCommit").entity(String.class).isEqualTo(Long.toString(c1));
        response.path("page.nodes[*].v").entityList(String.class).containsExactly("one");
        response.path("one.v").entity(String.class).isEqualTo("one");
        response.path("one._asOfCommit").entity(String.class).isEqualTo(Long.toString(c1));
        response.path("agg.asOfCommit").entity(String.class).isEqualTo(Long.toString(c1));
        response.path("versions[*]._commit").entityList(String.class).containsExactly(Long.toString(c1));
    }

    @Test
    void historyOfASystemVersionedKeyListsEachVersionsPeriod() {
        String t = table("aotsys");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT) WITH SYSTEM VERSIONING");
        long c1 = sql.write("INSERT INTO " + t + " VALUES (1, 'one'), (2, 'b')");
        long c2 = sql.write("UPDATE " + t + " SET v = 'two' WHERE k = 1");
        long c3 = sql.write("DELETE FROM " + t + " WHERE k = 1");
        List<List<String>> periods = sql.rows("SELECT v, row_start, row_end FROM " + t
                + " FOR SYSTEM_TIME ALL WHERE k = 1 ORDER BY row_start");

        JsonNode history = RestClient.expect(rest.request().queryParam("key", "1")
                .get("/v1/tables/" + t + "/history"), 200);
        JsonNode versions = history.path("versions");
        assertThat(versions).hasSize(2);
        for (int i = 0; i < 2; i++) {
            assertThat(versions.get(i).path("values").path("v").asString()).isEqualTo(periods.get(i).get(0));
            assertThat(versions.get(i).path("rowStart").asString()).isEqualTo(periods.get(i).get(1));
            assertThat(versions.get(i).path("rowEnd").asString()).isEqualTo(periods.get(i).get(2));
            assertThat(versions.get(i).path("current").asBoolean()).isFalse();
        }
        assertThat(versions.get(0).path("commit").asString()).isEqualTo(Long.toString(c1));
        assertThat(versions.get(0).path("currentTo").asString()).isEqualTo(Long.toString(c2));
        assertThat(versions.get(1).path("currentTo").asString()).isEqualTo(Long.toString(c3));

        // As of c2 the second version was current and its period open.
        JsonNode then = RestClient.expect(rest.request().queryParam("key", "1").queryParam("asOfCommit", c2)
                .get("/v1/tables/" + t + "/history"), 200);
        assertThat(then.path("versions")).hasSize(2);
        assertThat(then.path("versions").get(1).path("current").asBoolean()).isTrue();
        assertThat(then.path("versions").get(1).path("rowEnd").asString()).isEqualTo("2038-01-19T03:14:07.999999");

        JsonNode row = RestClient.expect(rest.request().queryParam("key", "2").get("/v1/tables/" + t + "/row"), 200);
        assertThat(row.path("row").path("v").asString()).isEqualTo("b");
        assertThat(row.path("row").has("row_start")).as("implicit period columns stay invisible").isFalse();

        // history() in /v1/sql lists the period of each version, readable by name.
        assertThat(sql.rows("SELECT v, _commit, _current_to FROM history(" + t + ") WHERE k = 1 ORDER BY _commit"))
                .containsExactly(List.of("one", Long.toString(c1), Long.toString(c2)),
                        List.of("two", Long.toString(c2), Long.toString(c3)));

        GraphQlTester.Response response = graphql.document("{ versions: " + t
                + "_history(k: 1) { v row_start row_end _commit } row: " + t + "_by_key(k: 2) { v } }").execute();
        response.errors().verify();
        response.path("versions[*].v").entityList(String.class).containsExactly("one", "two");
        response.path("versions[0].row_start").entity(String.class).isEqualTo(periods.get(0).get(1));
        response.path("versions[1].row_end").entity(String.class).isEqualTo(periods.get(1).get(2));
        response.path("row.v").entity(String.class).isEqualTo("b");
    }

    @Test
    void historyOfASystemTableWithoutVersioningIsRefused() {
        String t = table("aotnov");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT) WITH SYSTEM VERSIONING");
        sql.write("ALTER TABLE " + t + " DROP SYSTEM VERSIONING");
        long before = sql.latestCommit();
        sql.fails(400, "NO_HISTORY", "SELECT * FROM history(" + t + ")");
        sql.fails(400, "NO_HISTORY", "SELECT * FROM changes(" + t + ")");
        assertThat(sql.latestCommit()).isEqualTo(before);
    }
}
