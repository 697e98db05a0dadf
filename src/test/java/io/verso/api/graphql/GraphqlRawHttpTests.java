package io.verso.api.graphql;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.support.SqlClient;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The endpoint as a non-Java client sees it: a raw JSON body over plain HTTP. */
class GraphqlRawHttpTests extends GraphqlSupport {

    @Test
    void aRawJsonRequestGetsTypedDataAndTheCommitInExtensions() {
        String t = table("raw");
        sql.write("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, amount NUMERIC(40, 10), at TIMESTAMP) VERSIONED");
        long c1 = sql.write("UPSERT INTO " + t + " VALUES (9223372036854775807, 12345678901234567890.0123456789,"
                + " '2026-10-01 12:00:00.5')");
        sql.write("UPSERT INTO " + t + " VALUES (9223372036854775807, 1, '2026-10-02 00:00:00')");

        String body = """
                {"query": "query Raw($id: BigInt!, $at: CommitSeq) { then: %1$s_by_key(id: $id, asOfCommit: $at) { id amount at } now: %1$s_by_key(id: $id) { amount } }",
                 "operationName": "Raw",
                 "variables": {"id": "9223372036854775807", "at": "%2$d"}}""".formatted(t, c1);
        Response response = given().port(port).contentType("application/json").accept("application/json")
                .body(body).when().post("/graphql");
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        JsonNode json = SqlClient.JSON.readTree(response.asString());
        assertThat(json.has("errors")).as(response.asString()).isFalse();
        assertThat(json.at("/data/then/id").asString()).isEqualTo("9223372036854775807");
        assertThat(json.at("/data/then/amount").asString()).isEqualTo("12345678901234567890.0123456789");
        assertThat(json.at("/data/then/at").asString()).isEqualTo("2026-10-01T12:00:00.5");
        assertThat(json.at("/data/now/amount").asString()).isEqualTo("1.0000000000");
        long commit = Long.parseLong(json.at("/extensions/verso/commit").asString());
        assertThat(commit).isEqualTo(sql.latestCommit());

        // A mutation reports the commit it made.
        String mutation = """
                {"query": "mutation { upsert_%s(rows: [{id: \\"1\\", amount: 0.5}]) { commit } }"}""".formatted(t);
        JsonNode written = SqlClient.JSON.readTree(given().port(port).contentType("application/json")
                .body(mutation).when().post("/graphql").asString());
        assertThat(written.at("/extensions/verso/commit").asString())
                .isEqualTo(written.at("/data/upsert_" + t + "/commit").asString());
    }

    @Test
    void aBodyOfAnotherTypeIsRefusedNamingTheTypeAndWhatToSend() {
        Response response = given().port(port).contentType("text/plain")
                .body("{\"query\": \"{ __typename }\"}").when().post("/graphql");
        assertThat(response.statusCode()).isEqualTo(415);
        JsonNode problem = SqlClient.JSON.readTree(response.asString());
        assertThat(problem.get("code").asString()).isEqualTo("UNSUPPORTED_MEDIA_TYPE");
        assertThat(problem.get("detail").asString()).contains("Content-Type 'text/plain", "send application/json");
    }

    @Test
    void introspectionAndGraphiqlAreOn() {
        Response introspection = given().port(port).contentType("application/json")
                .body("{\"query\": \"{ __schema { queryType { name } types { name } } }\"}").when().post("/graphql");
        assertThat(introspection.statusCode()).isEqualTo(200);
        assertThat(introspection.asString()).contains("\"Query\"", "\"BigInt\"", "\"CommitSeq\"");
        Response graphiql = given().port(port).redirects().follow(true).when().get("/graphiql");
        assertThat(graphiql.statusCode()).isEqualTo(200);
        assertThat(graphiql.asString()).containsIgnoringCase("graphiql");
    }
}
