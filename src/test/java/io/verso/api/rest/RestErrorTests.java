package io.verso.api.rest;

import static io.verso.support.RestClient.expect;
import static io.verso.support.RestClient.problem;
import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.RestClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every error class of the REST surface: RFC 9457 problem+json with a stable code and a pointer
 * to the offending field or parameter, 404 for unknown things, and nothing written on any error.
 */
class RestErrorTests extends IntegrationTest {

    private RestClient rest;
    private String t;

    @BeforeEach
    void balances() {
        rest = new RestClient(port);
        t = table("errs");
        expect(rest.json(RestResourceTests.balancesDefinition(t)).post("/v1/tables"), 201);
        expect(rest.json(Map.of("rows", List.of(row("100", 1)))).post("/v1/tables/{t}/rows", t), 200);
    }

    private static Map<String, Object> row(Object amount, Object index) {
        return Map.of("chain_id", 1, "address", "a", "token", "T", "amount", amount,
                "updated_at", "2026-10-01 12:00:00", "balance_index", index, "balance_version", 1);
    }

    private void nothingWritten(long latestBefore) {
        assertThat(sql.latestCommit()).isEqualTo(latestBefore);
        assertThat(sql.rows("SELECT amount FROM " + t)).containsExactly(List.of("100"));
    }

    @Test
    void malformedBodiesAre400PointingAtTheBody() {
        long before = sql.latestCommit();
        problem(rest.json("{\"rows\": [").post("/v1/tables/{t}/rows", t), 400, "INVALID_REQUEST", "/");
        problem(rest.json("[1, 2]").post("/v1/tables/{t}/rows", t), 400, "INVALID_REQUEST", "/");
        problem(rest.json("{\"rows\": {}}").post("/v1/tables/{t}/rows", t), 400, "INVALID_REQUEST", "/rows");
        problem(rest.json("{\"rows\": []}").post("/v1/tables/{t}/rows", t), 400, "INVALID_REQUEST", "/rows");
        problem(rest.json("{\"rows\": [7]}").post("/v1/tables/{t}/rows", t), 400, "INVALID_REQUEST", "/rows/0");
        problem(rest.json(Map.of("rows", List.of(row("1", 2)), "insertOnly", "yes")).post("/v1/tables/{t}/rows", t),
                400, "INVALID_REQUEST", "/insertOnly");
        problem(rest.request().contentType("application/json").post("/v1/tables/{t}/rows", t),
                400, "INVALID_REQUEST", "/");
        nothingWritten(before);
    }

    @Test
    void wrongTypesMissingValuesAndUnknownColumnsPointAtTheField() {
        long before = sql.latestCommit();
        problem(rest.json(Map.of("rows", List.of(row("200", 2), row("not a number", 3)))).post("/v1/tables/{t}/rows", t),
                400, "INVALID_VALUE", "/rows/1/amount");
        problem(rest.json(Map.of("rows", List.of(row(List.of(1), 3)))).post("/v1/tables/{t}/rows", t),
                400, "INVALID_VALUE", "/rows/0/amount");
        problem(rest.json(Map.of("rows", List.of(row("1", 1.5)))).post("/v1/tables/{t}/rows", t),
                400, "INVALID_VALUE", "/rows/0/balance_index");
        problem(rest.json("{\"rows\": [{\"chain_id\": 1, \"address\": \"a\", \"token\": \"T\", \"amount\": \"5\"}]}")
                .post("/v1/tables/{t}/rows", t), 400, "MISSING_ORDERING_VALUE", "/rows/0/balance_index");
        problem(rest.json("{\"rows\": [{\"chain_id\": 1, \"token\": \"T\", \"note\": \"x\"}]}")
                .post("/v1/tables/{t}/rows", t), 400, "MISSING_KEY_VALUE", "/rows/0/address");
        problem(rest.json("{\"rows\": [{\"chain_id\": 1, \"address\": \"a\", \"token\": \"T\", \"colour\": 1}]}")
                .post("/v1/tables/{t}/rows", t), 400, "UNKNOWN_COLUMN", "/rows/0/colour");
        problem(rest.json(Map.of("rows", List.of(row("1", 5)), "group", "nope")).post("/v1/tables/{t}/rows", t),
                400, "UNKNOWN_GROUP", "/group");
        problem(rest.json(Map.of("rows", List.of(row("1", 5)), "insertOnly", true)).post("/v1/tables/{t}/rows", t),
                409, "KEY_EXISTS", null);
        problem(rest.json(Map.of("keys", List.of(Map.of("chain_id", 1, "address", "a", "token", "T"))))
                .post("/v1/tables/{t}/rows/delete", t), 400, "MISSING_ORDERING_VALUE", "/keys/0/balance_index");
        problem(rest.json(Map.of("keys", List.of(Map.of("chain_id", 1, "token", "T")), "at",
                Map.of("balance_index", 9, "balance_version", 1))).post("/v1/tables/{t}/rows/delete", t),
                400, "MISSING_KEY_VALUE", "/keys/0/address");
        problem(rest.json(Map.of("keys", List.of(Map.of("chain_id", "x", "address", "a", "token", "T")), "at",
                Map.of("balance_index", 9, "balance_version", 1))).post("/v1/tables/{t}/rows/delete", t),
                400, "INVALID_VALUE", "/keys/0/chain_id");
        nothingWritten(before);
    }

    @Test
    void tableDefinitionErrorsPointIntoTheDefinition() {
        long before = sql.latestCommit();
        String name = table("bad_def");
        problem(rest.json(Map.of("name", name, "columns", List.of(Map.of("name", "k", "type", "WIDGET"))))
                .post("/v1/tables"), 400, "UNKNOWN_TYPE", "/columns/0/type");
        problem(rest.json(Map.of("name", name, "mode", "VERSIONED", "primaryKey", List.of("k"), "columns", List.of(
                Map.of("name", "k", "type", "INT"), Map.of("name", "v", "type", "TEXT")),
                "validBy", List.of("v"))).post("/v1/tables"), 400, "INVALID_ORDERING_COLUMN", "/validBy");
        problem(rest.json(Map.of("name", name, "mode", "VERSIONED", "primaryKey", List.of("k"), "columns", List.of(
                Map.of("name", "k", "type", "INT"), Map.of("name", "k", "type", "TEXT")))).post("/v1/tables"),
                400, "DUPLICATE_NAME", "/columns/1");
        problem(rest.json(Map.of("name", name, "mode", "VERSIONED", "columns", List.of(
                Map.of("name", "k", "type", "INT")))).post("/v1/tables"), 400, "PRIMARY_KEY_REQUIRED", null);
        problem(rest.json(Map.of("name", t, "columns", List.of(Map.of("name", "k", "type", "INT"))))
                .post("/v1/tables"), 409, "TABLE_EXISTS", "/name");
        problem(rest.json(Map.of("name", name, "columns", "k")).post("/v1/tables"), 400, "INVALID_REQUEST", "/columns");
        assertThat(sql.latestCommit()).isEqualTo(before);
        problem(rest.request().get("/v1/tables/{t}", name), 404, "UNKNOWN_TABLE", "table");
    }

    @Test
    void unknownTablesKeysAndCommitsAre404() {
        problem(rest.request().get("/v1/tables/{t}", "no_such_table"), 404, "UNKNOWN_TABLE", "table");
        problem(rest.request().delete("/v1/tables/{t}", "no_such_table"), 404, "UNKNOWN_TABLE", "table");
        problem(rest.request().get("/v1/tables/{t}/rows", "no_such_table"), 404, "UNKNOWN_TABLE", "table");
        problem(rest.json(Map.of("rows", List.of(row("1", 1)))).post("/v1/tables/{t}/rows", "no_such_table"),
                404, "UNKNOWN_TABLE", "table");
        problem(rest.request().queryParam("key", "1", "a", "nope").get("/v1/tables/{t}/row", t),
                404, "UNKNOWN_KEY", "key");
        problem(rest.request().queryParam("key", "2", "a", "T").get("/v1/tables/{t}/history", t),
                404, "UNKNOWN_KEY", "key");
        problem(rest.request().get("/v1/commits/{c}", Long.toString(Long.MAX_VALUE)), 404, "UNKNOWN_COMMIT", "commit");
    }

    @Test
    void badParametersAre400NamingTheParameter() {
        long latest = sql.latestCommit();
        problem(rest.request().queryParam("key", "1", "a").get("/v1/tables/{t}/row", t),
                400, "INVALID_PARAMETER", "key");
        problem(rest.request().queryParam("key", "x", "a", "T").get("/v1/tables/{t}/row", t),
                400, "INVALID_VALUE", "key[0]");
        problem(rest.request().get("/v1/tables/{t}/row", t), 400, "INVALID_REQUEST", "key");
        problem(rest.request().queryParam("asOfCommit", "abc").get("/v1/tables/{t}/rows", t),
                400, "AS_OF_NOT_INTEGER", "asOfCommit");
        problem(rest.request().queryParam("asOfCommit", "0").get("/v1/tables/{t}/rows", t),
                400, "AS_OF_NOT_POSITIVE", "asOfCommit");
        problem(rest.request().queryParam("asOfCommit", latest + 1000).get("/v1/tables/{t}/rows", t),
                400, "AS_OF_BEYOND_LATEST", "asOfCommit");
        problem(rest.request().queryParam("filter", "amount:between:1").get("/v1/tables/{t}/rows", t),
                400, "INVALID_PARAMETER", "filter[0]");
        problem(rest.request().queryParam("filter", "amount:gt:1", "colour:eq:red").get("/v1/tables/{t}/rows", t),
                400, "UNKNOWN_COLUMN", "filter[1]");
        problem(rest.request().queryParam("filter", "balance_index:eq:soon").get("/v1/tables/{t}/rows", t),
                400, "INVALID_VALUE", "filter[0]");
        problem(rest.request().queryParam("order", "colour").get("/v1/tables/{t}/rows", t),
                400, "UNKNOWN_COLUMN", "order[0]");
        problem(rest.request().queryParam("limit", 0).get("/v1/tables/{t}/rows", t), 400, "INVALID_LIMIT", "limit");
        problem(rest.request().queryParam("limit", "many").get("/v1/tables/{t}/rows", t), 400, "INVALID_REQUEST", "limit");
        problem(rest.request().queryParam("cursor", "garbage!").get("/v1/tables/{t}/rows", t),
                400, "INVALID_PARAMETER", "cursor");
        problem(rest.request().queryParam("from", latest).queryParam("to", latest - 1).get("/v1/tables/{t}/diff", t),
                400, "INVALID_PARAMETER", "from");
        problem(rest.request().queryParam("key", "1", "a", "T").queryParam("group", "nope")
                .get("/v1/tables/{t}/history", t), 400, "UNKNOWN_GROUP", "group");
    }

    @Test
    void atLeastCommitWaitsForTheCommitOrSaysItWasNotReached() {
        long latest = sql.latestCommit();
        JsonNode served = expect(rest.request().queryParam("atLeastCommit", latest).get("/v1/tables/{t}/rows", t), 200);
        assertThat(Long.parseLong(served.get("readCommit").asString())).isGreaterThanOrEqualTo(latest);
        JsonNode problem = problem(rest.request().queryParam("atLeastCommit", latest + 1_000_000)
                .get("/v1/tables/{t}/rows", t), 409, "COMMIT_NOT_REACHED", "atLeastCommit");
        assertThat(problem.get("detail").asString()).contains("retry");
    }
}
