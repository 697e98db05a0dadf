package io.verso.api.rest;

import static io.verso.support.RestClient.expect;
import static io.verso.support.RestClient.problem;
import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.RestClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Every resource end to end over HTTP: tables, rows, history, diff, commits. */
class RestResourceTests extends IntegrationTest {

    private RestClient rest;

    @BeforeEach
    void rest() {
        rest = new RestClient(port);
    }

    static Map<String, Object> balancesDefinition(String name) {
        return Map.of("name", name, "mode", "VERSIONED",
                "columns", List.of(
                        Map.of("name", "chain_id", "type", "BIGINT"),
                        Map.of("name", "address", "type", "TEXT"),
                        Map.of("name", "token", "type", "TEXT"),
                        Map.of("name", "amount", "type", "NUMERIC(38,0)"),
                        Map.of("name", "updated_at", "type", "TIMESTAMP(3)"),
                        Map.of("name", "balance_index", "type", "BIGINT"),
                        Map.of("name", "balance_version", "type", "BIGINT"),
                        Map.of("name", "note", "type", "TEXT", "default", "none")),
                "primaryKey", List.of("chain_id", "address", "token"),
                "groups", List.of(Map.of("name", "holding",
                        "columns", List.of("amount", "updated_at", "balance_index", "balance_version"),
                        "validBy", List.of("balance_index"), "revisionBy", List.of("balance_version"))));
    }

    private long write(String table, String amount, long index, long version, String expectedOutcome) {
        JsonNode receipt = expect(rest.json(Map.of("group", "holding", "rows", List.of(Map.of(
                "chain_id", 1, "address", "0x9c2e4f1a", "token", "USDC", "amount", amount,
                "updated_at", "2026-10-01T12:00:00", "balance_index", index, "balance_version", version))))
                .post("/v1/tables/{t}/rows", table), 200);
        assertThat(receipt.get("outcomes").get(0).get("outcome").asString()).isEqualTo(expectedOutcome);
        assertThat(receipt.get("outcomes").get(0).get("key").toString())
                .isEqualTo("{\"chain_id\":\"1\",\"address\":\"0x9c2e4f1a\",\"token\":\"USDC\"}");
        return Long.parseLong(receipt.get("commit").asString());
    }

    private JsonNode row(String table, String asOf) {
        var request = rest.request().queryParam("key", "1", "0x9c2e4f1a", "USDC");
        if (asOf != null) {
            request.queryParam("asOfCommit", asOf);
        }
        return expect(request.get("/v1/tables/{t}/row", table), 200);
    }

    @Test
    void fourWritesLateAndOutOfOrderReadNowAsOfHistoryDiffAndCommits() {
        String balances = table("balances");
        JsonNode created = expect(rest.json(balancesDefinition(balances)).post("/v1/tables"), 201);
        long c0 = Long.parseLong(created.get("commit").asString());
        JsonNode described = expect(rest.request().get("/v1/tables/{t}", balances), 200);
        assertThat(described.get("mode").asString()).isEqualTo("VERSIONED");
        assertThat(described.get("key").toString()).isEqualTo("[\"chain_id\",\"address\",\"token\"]");
        JsonNode holding = described.get("groups").get(1);
        assertThat(holding.get("name").asString()).isEqualTo("holding");
        assertThat(holding.get("validBy").toString()).isEqualTo("[\"balance_index\"]");
        assertThat(holding.get("revisionBy").toString()).isEqualTo("[\"balance_version\"]");
        assertThat(described.get("columns").get(3).get("type").asString()).isEqualTo("NUMERIC(38,0)");
        assertThat(described.get("columns").get(5).get("ordering").asString()).isEqualTo("VALID BY");
        assertThat(described.get("columns").get(7).get("default").asString()).isEqualTo("none");
        JsonNode tables = expect(rest.request().get("/v1/tables"), 200);
        assertThat(tables.get("tables").findValuesAsString("name")).contains(balances);

        long c1 = write(balances, "101", 100, 1, "CURRENT");
        long c2 = write(balances, "102", 200, 1, "CURRENT");
        long c3 = write(balances, "103", 150, 9, "LOST"); // late: index 150 is before 200
        long c4 = write(balances, "104", 200, 2, "CURRENT");

        JsonNode now = row(balances, null);
        assertThat(now.get("row").get("amount").asString()).isEqualTo("104");
        assertThat(now.get("row").get("updated_at").asString()).isEqualTo("2026-10-01T12:00:00");
        assertThat(Long.parseLong(now.get("readCommit").asString())).isGreaterThanOrEqualTo(c4);
        JsonNode then = row(balances, Long.toString(c3));
        assertThat(then.get("row").get("amount").asString()).isEqualTo("102");
        assertThat(then.get("readCommit").asString()).isEqualTo(Long.toString(c3));
        assertThat(row(balances, Long.toString(c1)).get("row").get("amount").asString()).isEqualTo("101");

        JsonNode history = expect(rest.request().queryParam("key", "1", "0x9c2e4f1a", "USDC")
                .queryParam("group", "holding").get("/v1/tables/{t}/history", balances), 200);
        List<String> versions = new ArrayList<>();
        for (JsonNode v : history.get("versions")) {
            versions.add(v.get("values").get("amount").asString() + "@" + v.get("commit").asString() + " "
                    + v.get("currentFrom").asString(null) + ".." + v.get("currentTo").asString(null)
                    + (v.get("current").asBoolean() ? " current" : ""));
        }
        assertThat(versions).containsExactly(
                "101@" + c1 + " " + c1 + ".." + c2,
                "102@" + c2 + " " + c2 + ".." + c4,
                "103@" + c3 + " null..null",
                "104@" + c4 + " " + c4 + "..null current");
        assertThat(history.get("versions").get(2).get("ordering").toString())
                .isEqualTo("{\"balance_index\":\"150\",\"balance_version\":\"9\"}");

        JsonNode diff = expect(rest.request().queryParam("from", c1).queryParam("to", c4)
                .get("/v1/tables/{t}/diff", balances), 200);
        assertThat(diff.get("added")).isEmpty();
        assertThat(diff.get("removed")).isEmpty();
        JsonNode change = diff.get("changed").get(0);
        assertThat(change.get("before").get("amount").asString()).isEqualTo("101");
        assertThat(change.get("after").get("amount").asString()).isEqualTo("104");
        assertThat(change.get("columns").toString())
                .isEqualTo("[\"amount\",\"balance_index\",\"balance_version\"]");
        JsonNode created0 = expect(rest.request().queryParam("from", c0).queryParam("to", c1)
                .queryParam("key", "1", "0x9c2e4f1a", "USDC").get("/v1/tables/{t}/diff", balances), 200);
        assertThat(created0.get("added").get(0).get("amount").asString()).isEqualTo("101");

        JsonNode commit = expect(rest.request().get("/v1/commits/{c}", c3), 200);
        assertThat(commit.get("rowCount").asLong()).isEqualTo(1);
        assertThat(commit.get("tables").get(0).get("table").asString()).isEqualTo(balances);
        assertThat(commit.get("committedAt").asString()).endsWith("Z");
        JsonNode feed = expect(rest.request().queryParam("after", c1).queryParam("limit", 2)
                .get("/v1/commits"), 200);
        assertThat(feed.get("commits").findValuesAsString("commit"))
                .containsExactly(Long.toString(c2), Long.toString(c3));
        assertThat(feed.get("next").asString()).isEqualTo(Long.toString(c3));
        JsonNode latest = expect(rest.request().get("/v1/commits/latest"), 200);
        assertThat(Long.parseLong(latest.get("commit").asString())).isGreaterThanOrEqualTo(c4);

        JsonNode deleted = expect(rest.json(Map.of("keys", List.of(Map.of("chain_id", "1", "address", "0x9c2e4f1a",
                "token", "USDC", "balance_index", 300, "balance_version", 0))))
                .post("/v1/tables/{t}/rows/delete", balances), 200);
        assertThat(deleted.get("outcomes").get(0).get("outcome").asString()).isEqualTo("CURRENT");
        problem(rest.request().queryParam("key", "1", "0x9c2e4f1a", "USDC").get("/v1/tables/{t}/row", balances),
                404, "UNKNOWN_KEY", "key");
        assertThat(row(balances, Long.toString(c4)).get("row").get("amount").asString()).isEqualTo("104");

        JsonNode dropped = expect(rest.request().delete("/v1/tables/{t}", balances), 200);
        assertThat(dropped.get("table").asString()).isEqualTo(balances);
        problem(rest.request().get("/v1/tables/{t}", balances), 404, "UNKNOWN_TABLE", "table");
    }

    @Test
    void deleteBeforeTheWriteItSupersedesStillWins() {
        String t = table("late_delete");
        expect(rest.json(Map.of("name", t, "mode", "VERSIONED", "columns", List.of(
                Map.of("name", "k", "type", "INT"), Map.of("name", "v", "type", "TEXT"),
                Map.of("name", "ix", "type", "INT")), "primaryKey", List.of("k"), "validBy", List.of("ix")))
                .post("/v1/tables"), 201);
        JsonNode tomb = expect(rest.json(Map.of("keys", List.of(Map.of("k", 1), Map.of("k", 2)), "at", Map.of("ix", 5)))
                .post("/v1/tables/{t}/rows/delete", t), 200);
        assertThat(tomb.get("outcomes").findValuesAsString("outcome")).containsExactly("CURRENT", "CURRENT");
        JsonNode late = expect(rest.json(Map.of("rows", List.of(Map.of("k", 1, "v", "old", "ix", 4),
                Map.of("k", 2, "v", "new", "ix", 6)))).post("/v1/tables/{t}/rows", t), 200);
        assertThat(late.get("outcomes").findValuesAsString("outcome")).containsExactly("LOST", "CURRENT");
        assertThat(late.get("outcomes").get(1).get("key").toString()).isEqualTo("{\"k\":2}");
        JsonNode page = expect(rest.request().get("/v1/tables/{t}/rows", t), 200);
        assertThat(page.get("rows").toString()).isEqualTo("[{\"k\":2,\"v\":\"new\",\"ix\":6}]");
    }

    @Test
    void everyTypeKeepsItsDocumentedJsonFormBothWays() {
        String t = table("forms");
        expect(rest.json(Map.of("name", t, "mode", "VERSIONED", "primaryKey", List.of("id"), "columns", List.of(
                Map.of("name", "id", "type", "BIGINT"), Map.of("name", "small", "type", "SMALLINT"),
                Map.of("name", "n", "type", "NUMERIC"), Map.of("name", "d", "type", "DOUBLE PRECISION"),
                Map.of("name", "b", "type", "BOOLEAN"), Map.of("name", "day", "type", "DATE"),
                Map.of("name", "ts", "type", "TIMESTAMP"), Map.of("name", "tz", "type", "TIMESTAMP WITH TIME ZONE"),
                Map.of("name", "u", "type", "UUID"), Map.of("name", "j", "type", "JSONB"),
                Map.of("name", "s", "type", "VARCHAR(5)")))).post("/v1/tables"), 201);
        String body = """
                {"rows": [{"id": "9007199254740993", "small": 7, "n": "12345678901234567890.000000001", "d": 0.5,
                  "b": true, "day": "2026-02-28", "ts": "2026-10-01T12:00:00.123456",
                  "tz": "2026-10-01T14:00:00+02:00", "u": "1b4e28ba-2fa1-11d2-883f-0016d3cca427",
                  "j": {"a": [1, 2.50, "x"], "big": 12345678901234567890}, "s": "abc"},
                  {"id": 9007199254740995, "n": 1.10, "j": "just a string"}]}""";
        expect(rest.json(body).post("/v1/tables/{t}/rows", t), 200);
        // The raw text: a JSON parser in the test would itself round decimals to doubles.
        var response = rest.request().queryParam("key", "9007199254740993").get("/v1/tables/{t}/row", t);
        expect(response, 200);
        assertThat(response.asString()).contains("\"row\":{\"id\":\"9007199254740993\",\"small\":7,"
                + "\"n\":\"12345678901234567890.000000001\",\"d\":0.5,\"b\":true,\"day\":\"2026-02-28\","
                + "\"ts\":\"2026-10-01T12:00:00.123456\",\"tz\":\"2026-10-01T12:00:00Z\","
                + "\"u\":\"1b4e28ba-2fa1-11d2-883f-0016d3cca427\","
                + "\"j\":{\"a\":[1,2.50,\"x\"],\"big\":12345678901234567890},\"s\":\"abc\"}");
        JsonNode second = expect(rest.request().queryParam("key", "9007199254740995").get("/v1/tables/{t}/row", t), 200)
                .get("row");
        assertThat(second.get("n").asString()).isEqualTo("1.10");
        assertThat(second.get("j").asString()).isEqualTo("just a string");
        JsonNode filtered = expect(rest.request().queryParam("filter", "n:gt:12345678901234567890")
                .get("/v1/tables/{t}/rows", t), 200);
        assertThat(filtered.get("rows").findValuesAsString("id")).containsExactly("9007199254740993");
    }

    @Test
    void filtersOrderAndPages() {
        String t = table("scores");
        expect(rest.json(Map.of("name", t, "mode", "VERSIONED", "primaryKey", List.of("k"), "validBy", List.of("ix"),
                "columns", List.of(Map.of("name", "k", "type", "INT"), Map.of("name", "name", "type", "TEXT"),
                        Map.of("name", "score", "type", "BIGINT"), Map.of("name", "ix", "type", "INT"))))
                .post("/v1/tables"), 201);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int k = 1; k <= 10; k++) {
            Map<String, Object> row = new java.util.HashMap<>(Map.of("k", k, "score", k % 4, "ix", 1));
            row.put("name", k % 3 == 0 ? null : "n" + k);
            rows.add(row);
        }
        expect(rest.json(Map.of("rows", rows)).post("/v1/tables/{t}/rows", t), 200);

        assertThat(keys(rest.request().queryParam("filter", "score:ge:2", "name:notNull")
                .get("/v1/tables/{t}/rows", t))).containsExactly(2, 7, 10);
        assertThat(keys(rest.request().queryParam("filter", "k:in:1,3,5", "score:ne:3")
                .get("/v1/tables/{t}/rows", t))).containsExactly(1, 5);
        assertThat(keys(rest.request().queryParam("filter", "name:in:[\"n1\",\"n2\"]")
                .get("/v1/tables/{t}/rows", t))).containsExactly(1, 2);
        assertThat(keys(rest.request().queryParam("filter", "k:in:4,8").get("/v1/tables/{t}/rows", t)))
                .containsExactly(4, 8);
        assertThat(keys(rest.request().queryParam("filter", "name:isNull").get("/v1/tables/{t}/rows", t)))
                .containsExactly(3, 6, 9);
        assertThat(keys(rest.request().queryParam("filter", "k:lt:3").get("/v1/tables/{t}/rows", t)))
                .containsExactly(1, 2);
        assertThat(keys(rest.request().queryParam("filter", "k:le:3", "k:gt:1").get("/v1/tables/{t}/rows", t)))
                .containsExactly(2, 3);

        // score descending, then name (NULLs last), then key: pages of 3 visit every row once.
        List<Integer> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var request = rest.request().queryParam("limit", 3);
            request = cursor == null ? request.queryParam("order", "score:desc", "name")
                    : request.queryParam("cursor", cursor);
            JsonNode page = expect(request.get("/v1/tables/{t}/rows", t), 200);
            page.get("rows").forEach(r -> seen.add(r.get("k").asInt()));
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asString();
            pages++;
        } while (cursor != null);
        assertThat(seen).containsExactly(7, 3, 10, 2, 6, 1, 5, 9, 4, 8);
        assertThat(pages).isEqualTo(4);
    }

    @Test
    void upsertTablesServeCurrentPagesAndRefuseAsOf() {
        String t = table("latest_only");
        expect(rest.json(Map.of("name", t, "primaryKey", List.of("k"), "columns", List.of(
                Map.of("name", "k", "type", "TEXT"), Map.of("name", "v", "type", "INT")))).post("/v1/tables"), 201);
        long c = Long.parseLong(expect(rest.json(Map.of("rows", List.of(Map.of("k", "a", "v", 1), Map.of("k", "b", "v", 2),
                Map.of("k", "c", "v", 3)))).post("/v1/tables/{t}/rows", t), 200).get("commit").asString());
        JsonNode page = expect(rest.request().queryParam("limit", 2).get("/v1/tables/{t}/rows", t), 200);
        assertThat(page.get("pinned").asBoolean()).isFalse();
        assertThat(keysText(page)).containsExactly("a", "b");
        JsonNode next = expect(rest.request().queryParam("cursor", page.get("nextCursor").asString())
                .get("/v1/tables/{t}/rows", t), 200);
        assertThat(keysText(next)).containsExactly("c");
        problem(rest.request().queryParam("asOfCommit", c).get("/v1/tables/{t}/rows", t),
                400, "AS_OF_NOT_SUPPORTED", "asOfCommit");
        problem(rest.request().queryParam("key", "a").get("/v1/tables/{t}/history", t), 400, "NO_HISTORY", "table");
    }

    @Test
    void appendTablesAppendPageAndDiffWholeRows() {
        String t = table("events");
        expect(rest.json(Map.of("name", t, "columns", List.of(Map.of("name", "what", "type", "TEXT"),
                Map.of("name", "n", "type", "INT")))).post("/v1/tables"), 201);
        long c1 = Long.parseLong(expect(rest.json(Map.of("rows", List.of(Map.of("what", "a", "n", 1),
                Map.of("what", "a", "n", 1)))).post("/v1/tables/{t}/rows", t), 200).get("commit").asString());
        expect(rest.json(Map.of("rows", List.of(Map.of("what", "b", "n", 2), Map.of("what", "a", "n", 1))))
                .post("/v1/tables/{t}/rows", t), 200);
        JsonNode diff = expect(rest.request().queryParam("from", c1).get("/v1/tables/{t}/diff", t), 200);
        assertThat(diff.get("added").toString()).isEqualTo("[{\"what\":\"b\",\"n\":2},{\"what\":\"a\",\"n\":1}]");
        JsonNode first = expect(rest.request().queryParam("limit", 3).get("/v1/tables/{t}/rows", t), 200);
        assertThat(first.get("pinned").asBoolean()).isTrue();
        JsonNode second = expect(rest.request().queryParam("cursor", first.get("nextCursor").asString())
                .get("/v1/tables/{t}/rows", t), 200);
        assertThat(first.get("rows").size() + second.get("rows").size()).isEqualTo(4);
        assertThat(second.get("nextCursor").isNull()).isTrue();
        JsonNode asOf = expect(rest.request().queryParam("asOfCommit", c1).get("/v1/tables/{t}/rows", t), 200);
        assertThat(asOf.get("rows").size()).isEqualTo(2);
    }

    private static List<Integer> keys(io.restassured.response.Response response) {
        List<Integer> keys = new ArrayList<>();
        expect(response, 200).get("rows").forEach(r -> keys.add(r.get("k").asInt()));
        return keys;
    }

    private static List<String> keysText(JsonNode page) {
        List<String> keys = new ArrayList<>();
        page.get("rows").forEach(r -> keys.add(r.get("k").asString()));
        return keys;
    }
}
