package io.verso.api.rest;

import static io.verso.support.RestClient.expect;
import static io.verso.support.RestClient.problem;
import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.RestClient;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Write bodies are read by streaming parsers, straight from their bytes (a row write into column arrays,
 * a statement's parameters into values): what a JSON tree would make of a body is what they make of it,
 * down to the message of each refusal, and a refused body writes nothing.
 */
class WriteBodyReadingTests extends IntegrationTest {

    private static final String ROW = "{\"chain_id\": 1, \"address\": \"a\", \"token\": \"T\", \"amount\": \"%s\","
            + " \"updated_at\": \"2026-10-01 12:00:00\", \"balance_index\": %s, \"balance_version\": 1}";

    private RestClient rest;
    private String t;

    @BeforeEach
    void balances() {
        rest = new RestClient(port);
        t = table("bodies");
        expect(rest.json(RestResourceTests.balancesDefinition(t)).post("/v1/tables"), 201);
    }

    private static String row(String amount, Object index) {
        return String.format(ROW, amount, index);
    }

    private JsonNode refused(String body, String code, String pointer, String detail) {
        long before = sql.latestCommit();
        JsonNode problem = problem(rest.json(body).post("/v1/tables/{t}/rows", t), 400, code, pointer);
        assertThat(problem.path("detail").asString()).isEqualTo(detail);
        assertThat(sql.latestCommit()).isEqualTo(before);
        return problem;
    }

    private List<List<String>> amounts() {
        return sql.rows("SELECT amount, note FROM " + t + " ORDER BY address");
    }

    @Test
    void aFieldGivenTwiceTakesItsLaterValueInItsFirstPlace() {
        String twice = "{\"chain_id\": 1, \"amount\": \"oops\", \"address\": \"a\", \"token\": \"T\", \"amount\": \"7\","
                + " \"updated_at\": \"2026-10-01 12:00:00\", \"balance_index\": 1, \"balance_version\": 1}";
        expect(rest.json("{\"rows\": [" + twice + "]}").post("/v1/tables/{t}/rows", t), 200);
        assertThat(amounts()).containsExactly(java.util.Arrays.asList("7", null));
    }

    @Test
    void rowsNamingColumnsInAnotherOrderOrOtherColumnsAreWrittenInOrder() {
        String reordered = "{\"balance_version\": 1, \"balance_index\": 2, \"updated_at\": \"2026-10-01 12:00:00\","
                + " \"amount\": \"20\", \"token\": \"T\", \"address\": \"b\", \"chain_id\": 1}";
        String withNote = "{\"chain_id\": 1, \"address\": \"c\", \"token\": \"T\", \"amount\": \"30\", \"note\": \"n\","
                + " \"updated_at\": \"2026-10-01 12:00:00\", \"balance_index\": 3, \"balance_version\": 1}";
        JsonNode receipt = expect(rest.json("{\"rows\": [" + row("10", 1) + ", " + reordered + ", " + withNote + ", "
                + row("11", 4) + "]}").post("/v1/tables/{t}/rows", t), 200);
        assertThat(receipt.get("rows").asLong()).isEqualTo(4);
        assertThat(receipt.get("outcomes").get(1).get("key").toString())
                .isEqualTo("{\"chain_id\":\"1\",\"address\":\"b\",\"token\":\"T\"}");
        assertThat(amounts()).containsExactly(java.util.Arrays.asList("11", null), java.util.Arrays.asList("20", null),
                List.of("30", "n"));
    }

    @Test
    void theRowsMemberIsRefusedAsATreeWouldBe() {
        refused("{}", "INVALID_REQUEST", "/rows", "/rows: \"rows\" is required");
        refused("{\"rows\": null}", "INVALID_REQUEST", "/rows", "/rows: \"rows\" is required");
        refused("{\"rows\": [" + row("1", 1) + "], \"rows\": 5}", "INVALID_REQUEST", "/rows",
                "/rows: \"rows\" must be an array");
        refused("{\"rows\": []}", "INVALID_REQUEST", "/rows", "/rows: \"rows\" must not be empty");
        refused("{\"rows\": [" + row("1", 1) + ", 7]}", "INVALID_REQUEST", "/rows/1", "/rows/1: must be a JSON object");
        refused("{\"rows\": [" + row("1", 1) + ", {}]}", "INVALID_REQUEST", "/rows/1",
                "/rows/1: a row names at least one column");
        refused("{\"rows\": [" + row("1", 1) + "], \"group\": 3}", "INVALID_REQUEST", "/group",
                "/group: \"group\" must be a string");
        refused("null", "INVALID_REQUEST", "/", "the request body must be a JSON object");
    }

    @Test
    void bodiesThatAreNotJsonAreRefusedBeforeAnyRowIsLookedAt() {
        long before = sql.latestCommit();
        JsonNode trailing = problem(rest.json("{\"rows\": [" + row("1", 1) + "]} {}").post("/v1/tables/{t}/rows", t),
                400, "INVALID_REQUEST", "/");
        assertThat(trailing.path("detail").asString()).startsWith("the request body is not valid JSON: Trailing token");
        JsonNode cut = problem(rest.json("{\"rows\": [{\"colour\": 1}], \"group\": ").post("/v1/tables/{t}/rows", t),
                400, "INVALID_REQUEST", "/");
        assertThat(cut.path("detail").asString()).startsWith("the request body is not valid JSON: ");
        assertThat(sql.latestCommit()).isEqualTo(before);
    }

    @Test
    void eachRowIsCheckedWithAPointerToItsField() {
        refused("{\"rows\": [" + row("1", 1) + ", " + row("2", "null") + "]}", "MISSING_ORDERING_VALUE",
                "/rows/1/balance_index",
                "row 1 writes attribute group holding and must give its ordering column 'balance_index'");
        refused("{\"rows\": [" + row("1", 1) + ", " + row("2", 2).replace("\"chain_id\": 1", "\"chain_id\": null") + "]}",
                "MISSING_KEY_VALUE", "/rows/1/chain_id", "row 1 gives no value for key column 'chain_id'");
        refused("{\"rows\": [" + row("1", 1) + ", " + row("2", 2).replace("\"token\": \"T\"", "\"colour\": \"T\"") + "]}",
                "UNKNOWN_COLUMN", "/rows/1/colour", "unknown column 'colour' in " + t);
        refused("{\"group\": \"holding\", \"rows\": [{\"chain_id\": 1, \"address\": \"a\", \"token\": \"T\", \"note\": \"x\","
                + " \"balance_index\": 1, \"balance_version\": 1}]}", "COLUMN_NOT_IN_GROUP", "/rows/0/note",
                "column 'note' is not in attribute group holding (it is in default)");
        refused("{\"rows\": [" + row("1", 1) + ", " + row("2", "[2]") + "]}", "INVALID_VALUE", "/rows/1/balance_index",
                "value for column balance_index (BIGINT) must be a string of digits (or a JSON number), not a JSON array");
        refused("{\"rows\": [" + row("1", 1) + ", " + row("2", "2.5") + "]}", "INVALID_VALUE", "/rows/1/balance_index",
                "value '2.5' for column balance_index (BIGINT) in row /rows/1 is not an integer");
        refused("{\"rows\": [" + row("1", 1) + ", " + row("x", 2) + "]}", "INVALID_VALUE", "/rows/1/amount",
                "value 'x' for column amount (NUMERIC(38,0)) in row /rows/1 is not a valid NUMERIC(38,0)");
    }

    @Test
    void statementParametersReadAsATreeWouldReadThem() {
        String upsert = "UPSERT INTO " + t + " (chain_id, address, token, amount, updated_at, balance_index,"
                + " balance_version, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
        JsonNode done = expect(rest.json("{\"sql\": \"" + upsert + "\", \"params\": "
                + "[1, \"a\", \"T\", 12345678901234567890123, \"2026-10-01 12:00:00\", 1.0, 1, null]}")
                .post("/v1/sql"), 200);
        assertThat(done.get("results").get(0).get("versions").asLong()).isEqualTo(2);
        assertThat(sql.rows("SELECT amount, balance_index, note FROM " + t))
                .containsExactly(java.util.Arrays.asList("12345678901234567890123", "1", null));
        problem(rest.json("{\"sql\": 5}").post("/v1/sql"), 400, "INVALID_REQUEST", "/sql");
        problem(rest.json("{\"sql\": \"SHOW TABLES\", \"params\": {}}").post("/v1/sql"), 400, "INVALID_REQUEST",
                "/params");
        // The last of two members named alike counts, as in a tree.
        expect(rest.json("{\"sql\": \"SHOW TABLES\", \"params\": {}, \"params\": []}").post("/v1/sql"), 200);
        JsonNode trailing = problem(rest.json("{\"sql\": \"SHOW TABLES\"} []").post("/v1/sql"), 400, "INVALID_REQUEST",
                "/");
        assertThat(trailing.path("detail").asString()).startsWith("the request body is not valid JSON: Trailing token");
    }

    @Test
    void aNumberNoDecimalHoldsIsRefusedWhereverItStands() {
        // Jackson reports an exponent beyond an int's range as a NumberFormatException of its own.
        String huge = "-54451e308406155978333094";
        long before = sql.latestCommit();
        JsonNode param = problem(rest.json("{\"sql\": \"SHOW TABLES\", \"params\": [1, " + huge + "]}")
                .post("/v1/sql"), 400, "INVALID_REQUEST", "/");
        assertThat(param.path("detail").asString()).startsWith("the request body holds a number no decimal can hold: ")
                .contains(huge);
        problem(rest.json("{\"sql\": \"SHOW TABLES\", \"params\": [{\"a\": " + huge + "}]}").post("/v1/sql"), 400,
                "INVALID_REQUEST", "/");
        refused("{\"rows\": [" + row("1", huge) + "]}", "INVALID_REQUEST", "/",
                "the request body holds a number no decimal can hold: Value \"" + huge
                        + "\" cannot be deserialized as `java.math.BigDecimal`, reason:  value exceeds limits");
        refused("{\"rows\": [" + row("1", 1) + "], \"group\": " + huge + "}", "INVALID_REQUEST", "/",
                "the request body holds a number no decimal can hold: Value \"" + huge
                        + "\" cannot be deserialized as `java.math.BigDecimal`, reason:  value exceeds limits");
        assertThat(sql.latestCommit()).isEqualTo(before);
    }

    @Test
    void decimalsOfAMillionDigitsAreRefusedWithoutBeingWrittenOut() {
        // Each would be a gigabyte of digits written plainly, past what NUMERIC holds: refused wherever it is bound.
        String insert = "INSERT INTO " + t + " (chain_id, address, token, amount, updated_at, balance_index,"
                + " balance_version) VALUES (?, 'a', 'T', ?, '2026-10-01 12:00:00', ?, 1)";
        long before = sql.latestCommit();
        for (String n : List.of("1e999999999", "-1e999999999", "1e-999999999")) {
            for (String[] use : List.of(
                    new String[] {"SELECT * FROM " + t + " AS OF COMMIT ?", "[" + n + "]", "0"},
                    new String[] {"SELECT ? AS x", "[" + n + "]", "0"},
                    new String[] {"SELECT ? || 'a' AS x", "[" + n + "]", "0"},
                    new String[] {"SELECT * FROM " + t + " LIMIT ?", "[" + n + "]", "0"},
                    new String[] {"SELECT * FROM " + t + " WHERE balance_index = ?", "[" + n + "]", "0"},
                    new String[] {insert, "[" + n + ", 1, 1]", "0"},
                    new String[] {insert, "[1, " + n + ", 1]", "1"},
                    new String[] {insert, "[1, 1, " + n + "]", "2"})) {
                JsonNode refused = problem(rest.json("{\"sql\": \"" + use[0] + "\", \"params\": " + use[1] + "}")
                        .post("/v1/sql"), 400, "INVALID_VALUE", "/params/" + use[2]);
                assertThat(refused.path("detail").asString()).as(use[0])
                        .endsWith("is out of range for NUMERIC, which holds at most 131072 digits before the point and "
                                + "16383 after it");
            }
        }
        assertThat(sql.latestCommit()).isEqualTo(before);
    }
}
