package io.verso.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The same bad input gets the same code through /v1/sql, REST and GraphQL, and the same read gives
 * the same rows in the same value forms: the three surfaces are one statement model underneath.
 */
class CrossSurfaceTests extends IntegrationTest {

    private String t;
    private long first;

    @BeforeEach
    void data() {
        t = table("xs");
        sql.write("CREATE TABLE " + t + " (k BIGINT, name TEXT, qty INT, price NUMERIC(12,2), ix BIGINT, "
                + "PRIMARY KEY (k)) VERSIONED VALID BY (ix)");
        first = sql.write("UPSERT INTO " + t + " VALUES (1, 'one', 10, 1.50, 1), (2, 'two', 20, 2.25, 1)");
        sql.write("UPSERT INTO " + t + " VALUES (1, 'uno', 11, 1.75, 2), (3, 'three', NULL, NULL, 1)");
    }

    private String sqlCode(String statement) {
        return SqlClient.JSON.readTree(sql.post(statement).asString()).path("code").asString();
    }

    private String restCode(String method, String path, String body) {
        var request = given().port(port).contentType("application/json");
        if (body != null) {
            request = request.body(body);
        }
        var response = method.equals("GET") ? request.get(path) : request.post(path);
        assertThat(response.statusCode()).as(response.asString()).isBetween(400, 499);
        return SqlClient.JSON.readTree(response.asString()).path("code").asString();
    }

    private JsonNode graphql(String document) {
        Map<String, Object> body = Map.of("query", document);
        String response = given().port(port).contentType("application/json")
                .body(SqlClient.JSON.writeValueAsString(body)).post("/graphql").asString();
        return SqlClient.JSON.readTree(response);
    }

    private String graphqlCode(String document) {
        return graphqlError(document).path("extensions").path("code").asString();
    }

    private JsonNode graphqlError(String document) {
        JsonNode response = graphql(document);
        assertThat(response.path("errors").isArray()).as(response.toString()).isTrue();
        return response.path("errors").get(0);
    }

    @Test
    void theFilterWordsMeanTheSameOnRestAndGraphql() {
        // like: accepted by GraphQL only, before the vocabulary was one list.
        var rest = given().port(port).queryParam("filter", "name:like:t%", "k:notIn:9")
                .get("/v1/tables/" + t + "/rows");
        assertThat(rest.statusCode()).as(rest.asString()).isEqualTo(200);
        List<String> viaRest = new ArrayList<>();
        SqlClient.JSON.readTree(rest.asString()).path("rows").forEach(r -> viaRest.add(r.path("name").asString()));
        JsonNode page = graphql("{ " + t + "(where: {name: {like: \"t%\"}, k: {notIn: [\"9\"]}}, "
                + "orderBy: [{column: k}]) { nodes { name } } }");
        List<String> viaGraphql = new ArrayList<>();
        page.path("data").path(t).path("nodes").forEach(n -> viaGraphql.add(n.path("name").asString()));
        assertThat(viaRest).containsExactly("two", "three");
        assertThat(viaGraphql).isEqualTo(viaRest);
        // GraphQL's comparison inputs are the words that apply to the scalar's type (isNull stands for both tests).
        JsonNode fields = graphql("{ __type(name: \"String_comparison\") { inputFields { name } } }")
                .path("data").path("__type").path("inputFields");
        List<String> names = new ArrayList<>();
        fields.forEach(f -> names.add(f.path("name").asString()));
        assertThat(names).containsExactly("eq", "ne", "lt", "le", "gt", "ge", "in", "notIn", "like", "ilike",
                "isNull");
        assertThat(restCode("GET", "/v1/tables/" + t + "/rows?filter=qty:like:1", null)).isEqualTo("INVALID_PARAMETER");
    }

    @Test
    void describeSaysTheSameWordsOnSqlAndRest() {
        String s = table("xsd");
        sql.write("CREATE TABLE " + s + " (id INT PRIMARY KEY, v INT, "
                + "row_start TIMESTAMP(6) GENERATED ALWAYS AS ROW START, row_end TIMESTAMP(6) GENERATED ALWAYS AS ROW END, "
                + "PERIOD FOR SYSTEM_TIME (row_start, row_end)) WITH SYSTEM VERSIONING");
        for (String table : List.of(t, s)) {
            Map<String, String> viaSql = new LinkedHashMap<>();
            sql.run("DESCRIBE " + table).path("results").get(0).path("rows").forEach(r -> {
                if (r.get(0).asString().equals("COLUMN")) {
                    viaSql.put(r.get(1).asString(), r.get(7).isNull() ? null : r.get(7).asString());
                }
            });
            Map<String, String> viaRest = new LinkedHashMap<>();
            JsonNode described = SqlClient.JSON.readTree(given().port(port).get("/v1/tables/" + table).asString());
            described.path("columns").forEach(c -> viaRest.put(c.path("name").asString(),
                    c.path("ordering").isNull() ? null : c.path("ordering").asString()));
            assertThat(viaRest).as(table).isEqualTo(viaSql);
        }
        assertThat(sql.run("DESCRIBE " + t).toString()).contains("\"VALID BY\"");
        assertThat(sql.run("DESCRIBE " + s).toString()).contains("\"ROW START\"", "\"ROW END\"");
    }

    @Test
    void anAsOfBeyondTheLatestCommitIsTheSameErrorEverywhere() {
        assertThat(sqlCode("SELECT * FROM " + t + " AS OF COMMIT 999999999")).isEqualTo("AS_OF_BEYOND_LATEST");
        assertThat(restCode("GET", "/v1/tables/" + t + "/row?key=1&asOfCommit=999999999", null))
                .isEqualTo("AS_OF_BEYOND_LATEST");
        assertThat(graphqlCode("{ " + t + "_by_key(k: \"1\", asOfCommit: \"999999999\") { name } }"))
                .isEqualTo("AS_OF_BEYOND_LATEST");
    }

    @Test
    void aValueItsTypeCannotHoldIsInvalidValueOnGraphqlToo() {
        assertThat(restCode("GET", "/v1/tables/" + t + "/row?key=abc", null)).isEqualTo("INVALID_VALUE");
        assertThat(restCode("GET", "/v1/tables/" + t + "/rows?filter=price:gt:abc", null)).isEqualTo("INVALID_VALUE");
        assertThat(sqlCode("SELECT * FROM " + t + " WHERE price > 'abc'")).isEqualTo("INVALID_VALUE");
        // GraphQL refuses these while validating the document, before any field runs: still a
        // ValidationError, but with the code REST and /v1/sql give.
        JsonNode key = graphqlError("{ " + t + "_by_key(k: \"abc\") { name } }");
        assertThat(key.path("extensions").path("code").asString()).as(key.toString()).isEqualTo("INVALID_VALUE");
        assertThat(key.path("extensions").path("classification").asString()).isEqualTo("ValidationError");
        assertThat(graphqlCode("{ " + t + "(where: {price: {gt: \"abc\"}}) { nodes { k } } }")).isEqualTo("INVALID_VALUE");
        assertThat(graphqlCode("mutation { upsert_" + t + "(rows: [{k: \"9\", price: \"abc\", ix: \"1\"}]) { commit } }"))
                .isEqualTo("INVALID_VALUE");
        // The same value as a variable.
        Map<String, Object> body = Map.of("query", "query($k: BigInt!) { " + t + "_by_key(k: $k) { name } }",
                "variables", Map.of("k", "abc"));
        JsonNode variable = SqlClient.JSON.readTree(given().port(port).contentType("application/json")
                .body(SqlClient.JSON.writeValueAsString(body)).post("/graphql").asString());
        assertThat(variable.path("errors").get(0).path("extensions").path("code").asString()).as(variable.toString())
                .isEqualTo("INVALID_VALUE");
    }

    @Test
    void aCommitThatIsNoCommitIsTheSameErrorEverywhere() {
        assertThat(sqlCode("SELECT * FROM " + t + " AS OF COMMIT 'abc'")).isEqualTo("AS_OF_NOT_INTEGER");
        assertThat(restCode("GET", "/v1/tables/" + t + "/rows?asOfCommit=abc", null)).isEqualTo("AS_OF_NOT_INTEGER");
        assertThat(graphqlCode("{ " + t + "(asOfCommit: \"abc\") { nodes { k } } }")).isEqualTo("AS_OF_NOT_INTEGER");
        assertThat(sqlCode("SELECT * FROM " + t + " AS OF COMMIT 0")).isEqualTo("AS_OF_NOT_POSITIVE");
        assertThat(restCode("GET", "/v1/tables/" + t + "/rows?asOfCommit=0", null)).isEqualTo("AS_OF_NOT_POSITIVE");
        assertThat(graphqlCode("{ " + t + "(asOfCommit: \"0\") { nodes { k } } }")).isEqualTo("AS_OF_NOT_POSITIVE");
    }

    @Test
    void aTimeThatIsNoTimeIsRefusedWhereItWasGivenOnEverySurface() {
        String statement = "SELECT * FROM " + t + " AS OF TIMESTAMP 'garbage'";
        JsonNode viaSql = SqlClient.JSON.readTree(sql.post(statement).asString());
        assertThat(viaSql.path("code").asString()).as(viaSql.toString()).isEqualTo("INVALID_VALUE");
        assertThat(viaSql.path("line").asInt()).isEqualTo(1);
        assertThat(viaSql.path("column").asInt()).isEqualTo(statement.indexOf("'garbage'") + 1);

        JsonNode viaRest = SqlClient.JSON.readTree(given().port(port).get("/v1/tables/" + t + "/rows?asOfTime=garbage")
                .asString());
        assertThat(viaRest.path("code").asString()).as(viaRest.toString()).isEqualTo("INVALID_VALUE");
        assertThat(viaRest.path("pointer").asString()).isEqualTo("asOfTime");

        JsonNode viaGraphql = graphqlError("{ " + t + "(asOfTime: \"garbage\") { nodes { k } } }");
        assertThat(viaGraphql.path("extensions").path("code").asString()).as(viaGraphql.toString())
                .isEqualTo("INVALID_VALUE");
        assertThat(viaGraphql.path("extensions").path("argument").asString()).isEqualTo("asOfTime");
    }

    @Test
    void aNumberTooLargeForItsNumericColumnIsRefusedWhereItWasWrittenOnEverySurface() {
        long before = sql.latestCommit();
        String statement = "UPSERT INTO " + t + " (k, price, ix) VALUES (8, 1, 1),\n(9, 12345678901.5, 1)";
        JsonNode viaSql = SqlClient.JSON.readTree(sql.post(statement).asString());
        assertThat(viaSql.path("code").asString()).as(viaSql.toString()).isEqualTo("INVALID_VALUE");
        assertThat(viaSql.path("line").asInt()).isEqualTo(2);
        assertThat(viaSql.path("column").asInt()).isEqualTo("(9, ".length() + 1);

        JsonNode viaRest = SqlClient.JSON.readTree(given().port(port).contentType("application/json")
                .body("{\"rows\": [{\"k\": 8, \"price\": 1, \"ix\": 1}, {\"k\": 9, \"price\": \"12345678901.5\", \"ix\": 1}]}")
                .post("/v1/tables/" + t + "/rows").asString());
        assertThat(viaRest.path("code").asString()).as(viaRest.toString()).isEqualTo("INVALID_VALUE");
        assertThat(viaRest.path("pointer").asString()).isEqualTo("/rows/1/price");

        JsonNode viaGraphql = graphqlError("mutation { upsert_" + t + "(rows: [{k: \"8\", price: \"1\", ix: \"1\"}, "
                + "{k: \"9\", price: \"12345678901.5\", ix: \"1\"}]) { commit } }");
        assertThat(viaGraphql.path("extensions").path("code").asString()).as(viaGraphql.toString())
                .isEqualTo("INVALID_VALUE");
        assertThat(viaGraphql.path("extensions").path("argument").asString()).isEqualTo("rows[1].price");
        assertThat(sql.latestCommit()).isEqualTo(before);

        // Rounded to the column's scale, as PostgreSQL stores it, the largest value still fits; and a
        // value compared with the column may have any magnitude.
        sql.write("UPSERT INTO " + t + " (k, price, ix) VALUES (9, 9999999999.994, 1)");
        assertThat(sqlCode("UPSERT INTO " + t + " (k, price, ix) VALUES (9, 9999999999.995, 1)")).isEqualTo("INVALID_VALUE");
        assertThat(given().port(port).get("/v1/tables/" + t + "/rows?filter=price:lt:123456789012345").statusCode())
                .isEqualTo(200);
    }

    @Test
    void theSameTimestampFormsAreAcceptedEverywhere() {
        String w = table("xt");
        sql.write("CREATE TABLE " + w + " (k INT PRIMARY KEY, ts TIMESTAMP(3), tz TIMESTAMPTZ) UPSERT");
        List<String> forms = List.of("2026-10-01 12:00:00", "2026-10-01T12:00:00.5", "2026-10-01T12:00:00Z",
                "2026-10-01T12:00:00+02:00", "2026-10-01", "2026-10-01T12:00");
        for (int i = 0; i < forms.size(); i++) {
            String form = forms.get(i);
            assertThat(sql.post("UPSERT INTO " + w + " VALUES (" + i + ", '" + form + "', '" + form + "')").statusCode())
                    .as("SQL " + form).isEqualTo(200);
            assertThat(given().port(port).contentType("application/json").body("{\"rows\": [{\"k\": " + (100 + i)
                    + ", \"ts\": \"" + form + "\", \"tz\": \"" + form + "\"}]}").post("/v1/tables/" + w + "/rows")
                    .statusCode()).as("REST " + form).isEqualTo(200);
            JsonNode viaGraphql = graphql("mutation { upsert_" + w + "(rows: [{k: " + (200 + i) + ", ts: \"" + form
                    + "\", tz: \"" + form + "\"}]) { commit } }");
            assertThat(viaGraphql.has("errors")).as("GraphQL " + form + ": " + viaGraphql).isFalse();
        }
        // Each surface stored the same values.
        List<String> stored = new ArrayList<>();
        sqlRows("SELECT k, ts, tz FROM " + w + " ORDER BY k").forEach(r -> stored.add((r.get("k").asInt() % 100)
                + " " + r.get("ts").asString() + " " + r.get("tz").asString()));
        assertThat(stored.subList(forms.size(), 2 * forms.size())).isEqualTo(stored.subList(0, forms.size()));
        assertThat(stored.subList(2 * forms.size(), 3 * forms.size())).isEqualTo(stored.subList(0, forms.size()));
    }

    @Test
    void aWriteWithoutItsOrderingValueIsTheSameErrorEverywhere() {
        long before = sql.latestCommit();
        assertThat(sqlCode("UPSERT INTO " + t + " (k, name) VALUES (9, 'x')")).isEqualTo("MISSING_ORDERING_VALUE");
        assertThat(restCode("POST", "/v1/tables/" + t + "/rows", "{\"rows\": [{\"k\": 9, \"name\": \"x\"}]}"))
                .isEqualTo("MISSING_ORDERING_VALUE");
        assertThat(graphqlCode("mutation { upsert_" + t + "(rows: [{k: \"9\", name: \"x\"}]) { commit } }"))
                .isEqualTo("MISSING_ORDERING_VALUE");
        assertThat(sql.latestCommit()).isEqualTo(before);
    }

    @Test
    void aRowWithoutItsOrderingValueIsNamedOnEverySurface() {
        // Rows naming other columns than the rows before them start a statement of their own: a
        // refusal of the statement names its first row, not the whole body.
        JsonNode viaRest = SqlClient.JSON.readTree(given().port(port).contentType("application/json")
                .body("{\"rows\": [{\"k\": 8, \"ix\": 1}, {\"k\": 9}]}")
                .post("/v1/tables/" + t + "/rows").asString());
        assertThat(viaRest.path("code").asString()).as(viaRest.toString()).isEqualTo("MISSING_ORDERING_VALUE");
        assertThat(viaRest.path("pointer").asString()).isEqualTo("/rows/1");
        JsonNode viaGraphql = graphqlError("mutation { upsert_" + t + "(rows: [{k: \"8\", ix: \"1\"}, {k: \"9\"}]) "
                + "{ commit } }");
        assertThat(viaGraphql.path("extensions").path("code").asString()).as(viaGraphql.toString())
                .isEqualTo("MISSING_ORDERING_VALUE");
        assertThat(viaGraphql.path("extensions").path("argument").asString()).isEqualTo("rows[1]");
    }

    @Test
    void aValueItsColumnCannotHoldIsTheSameErrorEverywhere() {
        long before = sql.latestCommit();
        assertThat(sqlCode("UPSERT INTO " + t + " (k, qty, ix) VALUES (9, 99999999999, 1)")).isEqualTo("INVALID_VALUE");
        assertThat(restCode("POST", "/v1/tables/" + t + "/rows",
                "{\"rows\": [{\"k\": 9, \"qty\": 99999999999, \"ix\": 1}]}")).isEqualTo("INVALID_VALUE");
        assertThat(sql.latestCommit()).isEqualTo(before);
    }

    @Test
    void aDeleteWithoutItsTombstoneOrderingIsTheSameErrorEverywhere() {
        assertThat(sqlCode("DELETE FROM " + t + " WHERE k = 1")).isEqualTo("MISSING_ORDERING_VALUE");
        assertThat(restCode("POST", "/v1/tables/" + t + "/rows/delete", "{\"keys\": [{\"k\": 1}]}"))
                .isEqualTo("MISSING_ORDERING_VALUE");
        assertThat(graphqlCode("mutation { delete_" + t + "(keys: [{k: \"1\"}]) { commit } }"))
                .isEqualTo("MISSING_ORDERING_VALUE");
    }

    @Test
    void theSameReadGivesTheSameRowsInTheSameFormsEverywhere() {
        List<Map<String, JsonNode>> viaSql = sqlRows("SELECT k, name, qty, price, ix FROM " + t + " ORDER BY k");
        List<Map<String, JsonNode>> viaRest = objects(given().port(port)
                .get("/v1/tables/" + t + "/rows?order=k:asc").asString(), "rows");
        JsonNode page = graphql("{ " + t + "(orderBy: [{column: k, direction: ASC}]) { nodes { k name qty price ix } } }");
        List<Map<String, JsonNode>> viaGraphql = objects(page.path("data").path(t).path("nodes"));

        assertThat(viaSql).hasSize(3);
        assertThat(viaSql.get(0).get("k").isString()).as("BIGINT is a string").isTrue();
        assertThat(viaSql.get(0).get("qty").isNumber()).as("INTEGER is a number").isTrue();
        assertThat(viaRest).isEqualTo(viaSql);
        assertThat(viaGraphql).isEqualTo(viaSql);

        List<Map<String, JsonNode>> thenSql = sqlRows("SELECT k, name, qty, price, ix FROM " + t + " AS OF COMMIT "
                + first + " ORDER BY k");
        List<Map<String, JsonNode>> thenRest = objects(given().port(port)
                .get("/v1/tables/" + t + "/rows?order=k:asc&asOfCommit=" + first).asString(), "rows");
        assertThat(thenSql).hasSize(2);
        assertThat(thenRest).isEqualTo(thenSql);
    }

    @Test
    void aPageSizeOutOfRangeIsTheSameErrorEverywhere() {
        assertThat(sqlCode("SELECT * FROM " + t + " LIMIT -1")).isEqualTo("INVALID_LIMIT");
        assertThat(restCode("GET", "/v1/tables/" + t + "/rows?limit=0", null)).isEqualTo("INVALID_LIMIT");
        assertThat(restCode("GET", "/v1/tables/" + t + "/rows?limit=1001", null)).isEqualTo("INVALID_LIMIT");
        assertThat(graphqlCode("{ " + t + "(limit: 0) { nodes { k } } }")).isEqualTo("INVALID_LIMIT");
        assertThat(graphqlCode("{ " + t + "(limit: 1001) { nodes { k } } }")).isEqualTo("INVALID_LIMIT");
        assertThat(graphqlCode("{ " + t + "_history(k: \"1\", limit: 0) { name } }")).isEqualTo("INVALID_LIMIT");
        // The commit log and the change feed page by the same rule.
        assertThat(restCode("GET", "/v1/commits?limit=0", null)).isEqualTo("INVALID_LIMIT");
        assertThat(restCode("GET", "/v1/tables/" + t + "/changes?after=0&limit=0", null)).isEqualTo("INVALID_LIMIT");
    }

    @Test
    void aCursorNotHandedOutAndAColumnOrderedTwiceAreTheSameErrorsOnRestAndGraphql() {
        assertThat(restCode("GET", "/v1/tables/" + t + "/rows?cursor=garbage", null)).isEqualTo("INVALID_PARAMETER");
        assertThat(graphqlCode("{ " + t + "(after: \"garbage\") { nodes { k } } }")).isEqualTo("INVALID_PARAMETER");
        assertThat(restCode("GET", "/v1/tables/" + t + "/rows?order=qty&order=qty:desc", null))
                .isEqualTo("INVALID_PARAMETER");
        assertThat(graphqlCode("{ " + t + "(orderBy: [{column: qty}, {column: qty, direction: DESC}]) { nodes { k } } }"))
                .isEqualTo("INVALID_PARAMETER");
        // In the same words.
        assertThat(restDetail(given().port(port).get("/v1/tables/" + t + "/rows?order=qty&order=qty:desc"), 400,
                "INVALID_PARAMETER")).isEqualTo("column 'qty' is ordered by twice");
        assertThat(graphqlError("{ " + t + "(orderBy: [{column: qty}, {column: qty, direction: DESC}]) { nodes { k } } }")
                .path("message").asString()).isEqualTo("column 'qty' is ordered by twice");
    }

    /**
     * A table that does not exist reads word for word the same whichever surface, statement or stage
     * finds it missing. (GraphQL has no field for it: its document is refused while it is validated.)
     */
    @Test
    void anUnknownTableReadsTheSameEverywhere() {
        String missing = table("xnone");
        String words = "unknown table '" + missing + "'";
        for (String statement : List.of("SELECT * FROM " + missing, "SELECT * FROM " + t + " JOIN " + missing
                + " ON true", "UPSERT INTO " + missing + " VALUES (1)", "DELETE FROM " + missing + " WHERE k = 1",
                "DROP TABLE " + missing, "GRANT SELECT ON TABLE " + missing + " TO someone",
                "CREATE DERIVED TABLE " + table("xnd") + " AS SELECT * FROM " + missing)) {
            assertThat(sql.fails(404, "UNKNOWN_TABLE", statement).path("detail").asString()).as(statement)
                    .isEqualTo(words);
        }
        for (String path : List.of("/v1/tables/" + missing, "/v1/tables/" + missing + "/rows",
                "/v1/tables/" + missing + "/row?key=1", "/v1/tables/" + missing + "/changes?after=0")) {
            assertThat(restDetail(given().port(port).get(path), 404, "UNKNOWN_TABLE")).as(path).isEqualTo(words);
        }
        assertThat(restDetail(given().port(port).contentType("application/json").body("{\"rows\": [{\"k\": 1}]}")
                .post("/v1/tables/" + missing + "/rows"), 404, "UNKNOWN_TABLE")).isEqualTo(words);
    }

    /** A column a table does not have, named where the statement or request names that one table. */
    @Test
    void anUnknownColumnOfATableReadsTheSameEverywhere() {
        String words = "unknown column 'nope' in " + t;
        for (String statement : List.of("UPSERT INTO " + t + " (k, nope, ix) VALUES (9, 1, 1)",
                "UPDATE " + t + " SET nope = 1 WHERE k = 1", "DELETE FROM " + t + " WHERE k = 1 AT (nope = 1)",
                "ALTER TABLE " + t + " DROP COLUMN nope")) {
            assertThat(sql.fails(400, "UNKNOWN_COLUMN", statement).path("detail").asString()).as(statement)
                    .isEqualTo(words);
        }
        String created = table("xc");
        assertThat(sql.fails(400, "UNKNOWN_COLUMN", "CREATE TABLE " + created + " (k INT, PRIMARY KEY (nope))")
                .path("detail").asString()).isEqualTo("unknown column 'nope' in " + created);
        assertThat(restDetail(given().port(port).contentType("application/json")
                .body("{\"rows\": [{\"k\": 9, \"nope\": 1, \"ix\": 1}]}").post("/v1/tables/" + t + "/rows"), 400,
                "UNKNOWN_COLUMN")).isEqualTo(words);
        assertThat(restDetail(given().port(port).queryParam("filter", "nope:eq:1").get("/v1/tables/" + t + "/rows"),
                400, "UNKNOWN_COLUMN")).isEqualTo(words);
        assertThat(restDetail(given().port(port).contentType("application/json")
                .body("{\"keys\": [{\"k\": 1, \"nope\": 1}]}").post("/v1/tables/" + t + "/rows/delete"), 400,
                "UNKNOWN_COLUMN")).isEqualTo(words);
        // A read's columns are those of every relation in scope: it names none.
        assertThat(sql.fails(400, "UNKNOWN_COLUMN", "SELECT nope FROM " + t).path("detail").asString())
                .isEqualTo("unknown column 'nope'");
    }

    /**
     * A NOT NULL column a written row gives no value reads the same for every mode of table and on every
     * surface, each naming the row as it counts rows.
     */
    @Test
    void aNotNullColumnWithoutAValueReadsTheSameEverywhere() {
        String keyed = table("xn");
        String system = table("xns");
        sql.write("CREATE TABLE " + keyed + " (k INT PRIMARY KEY, v TEXT NOT NULL) UPSERT");
        sql.write("CREATE TABLE " + system + " (k INT PRIMARY KEY, v TEXT NOT NULL) WITH SYSTEM VERSIONING");
        for (String table : List.of(keyed, system)) {
            String verb = table.equals(keyed) ? "UPSERT" : "INSERT";
            assertThat(sql.fails(400, "NOT_NULL_VIOLATION", verb + " INTO " + table + " (k) VALUES (1)")
                    .path("detail").asString()).as(table)
                    .isEqualTo("column 'v' is NOT NULL and has no DEFAULT but row 1 gives it no value");
            assertThat(sql.fails(400, "NOT_NULL_VIOLATION", verb + " INTO " + table + " VALUES (1, NULL)")
                    .path("detail").asString()).as(table).isEqualTo("column 'v' is NOT NULL but row 1 gives it no value");
            assertThat(restDetail(given().port(port).contentType("application/json").body("{\"rows\": [{\"k\": 1}]}")
                    .post("/v1/tables/" + table + "/rows"), 400, "NOT_NULL_VIOLATION")).as(table)
                    .isEqualTo("column 'v' is NOT NULL and has no DEFAULT but row /rows/0 gives it no value");
        }
        JsonNode viaGraphql = graphqlError("mutation { upsert_" + keyed + "(rows: [{k: 1, v: null}]) { commit } }");
        assertThat(viaGraphql.path("message").asString()).as(viaGraphql.toString())
                .isEqualTo("column 'v' is NOT NULL but row rows[0] gives it no value");
    }

    private static String restDetail(io.restassured.response.Response response, int status, String code) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(status);
        JsonNode problem = SqlClient.JSON.readTree(response.asString());
        assertThat(problem.path("code").asString()).as(response.asString()).isEqualTo(code);
        return problem.path("detail").asString();
    }

    @Test
    void aCursorOfOneSurfaceIsRefusedByTheOtherNotMisread() {
        // REST pages by the last row's values in its order, GraphQL by rows served: the same format,
        // different positions. Each refuses the other's rather than serving another page.
        String rest = SqlClient.JSON.readTree(given().port(port).get("/v1/tables/" + t + "/rows?limit=2&order=k")
                .asString()).path("nextCursor").asString();
        String graphql = graphql("{ " + t + "(limit: 2, orderBy: [{column: k}]) { pageInfo { endCursor } } }")
                .path("data").path(t).path("pageInfo").path("endCursor").asString();
        JsonNode refused = graphqlError("{ " + t + "(limit: 2, orderBy: [{column: k}], after: \"" + rest + "\") "
                + "{ nodes { k } } }");
        assertThat(refused.path("extensions").path("code").asString()).as(refused.toString())
                .isEqualTo("INVALID_PARAMETER");
        assertThat(refused.path("extensions").path("argument").asString()).isEqualTo("after");
        assertThat(restCode("GET", "/v1/tables/" + t + "/rows?cursor=" + graphql, null)).isEqualTo("INVALID_PARAMETER");
    }

    @Test
    void oneCursorFormatPagesBothSurfacesAtTheFirstPagesCommit() {
        JsonNode rest = SqlClient.JSON.readTree(given().port(port).get("/v1/tables/" + t + "/rows?limit=2&order=k")
                .asString());
        JsonNode page = graphql("{ " + t + "(limit: 2, orderBy: [{column: k}]) { nodes { k } pageInfo { endCursor } } }")
                .path("data").path(t);
        sql.write("UPSERT INTO " + t + " VALUES (0, 'zero', 0, 0, 1)");
        JsonNode restNext = SqlClient.JSON.readTree(given().port(port).queryParam("cursor", rest.path("nextCursor").asString())
                .get("/v1/tables/" + t + "/rows").asString());
        JsonNode graphqlNext = graphql("{ " + t + "(limit: 2, orderBy: [{column: k}], after: \""
                + page.path("pageInfo").path("endCursor").asString() + "\") { nodes { k } } }").path("data").path(t);
        // Both read the commit of their first page: the key written since is on neither second page.
        assertThat(objects(restNext.path("rows"))).extracting(r -> r.get("k").asString()).containsExactly("3");
        assertThat(objects(graphqlNext.path("nodes"))).extracting(r -> r.get("k").asString()).containsExactly("3");
    }

    @Test
    void aKeysVersionsComeInOneOrderEverywhere() {
        String g = table("xg");
        sql.write("CREATE TABLE " + g + " (k INT PRIMARY KEY, a INT, ai INT, b INT, bi INT, "
                + "ATTRIBUTE GROUP ga (a, ai) VALID BY (ai), ATTRIBUTE GROUP gb (b, bi) VALID BY (bi)) VERSIONED");
        sql.write("UPSERT INTO " + g + " (k, b, bi) VALUES (1, 10, 1)");
        sql.write("UPSERT INTO " + g + " (k, a, ai) VALUES (1, 20, 1)");
        sql.write("UPSERT INTO " + g + " (k, a, ai, b, bi) VALUES (1, 21, 2, 11, 2)");
        List<String> viaSql = new ArrayList<>();
        sqlRows("SELECT _commit, _group FROM history(" + g + ") WHERE k = 1 ORDER BY _commit, _group")
                .forEach(r -> viaSql.add(r.get("_commit").asString() + "/" + r.get("_group").asString()));
        List<String> viaRest = new ArrayList<>();
        SqlClient.JSON.readTree(given().port(port).get("/v1/tables/" + g + "/history?key=1").asString())
                .path("versions").forEach(v -> viaRest.add(v.path("commit").asString() + "/" + v.path("group").asString()));
        List<String> viaGraphql = new ArrayList<>();
        graphql("{ " + g + "_history(k: 1) { _commit _group } }").path("data").path(g + "_history")
                .forEach(v -> viaGraphql.add(v.path("_commit").asString() + "/" + v.path("_group").asString()));
        assertThat(viaSql).hasSize(4);
        assertThat(viaRest).isEqualTo(viaSql);
        assertThat(viaGraphql).isEqualTo(viaSql);
    }

    @Test
    void aDerivedTableRefusesADeleteByKeysOnEverySurface() {
        String d = table("xd");
        sql.write("CREATE DERIVED TABLE " + d + " PRIMARY KEY (k) AS SELECT k, qty FROM " + t);
        long before = sql.latestCommit();
        assertThat(sqlCode("DELETE FROM " + d + " WHERE k = 1")).isEqualTo("DERIVED_TABLE_READ_ONLY");
        assertThat(restCode("POST", "/v1/tables/" + d + "/rows/delete", "{\"keys\": [{\"k\": 1}]}"))
                .isEqualTo("DERIVED_TABLE_READ_ONLY");
        // GraphQL offers no mutation of a derived table at all: the field is not in the schema.
        JsonNode graphql = graphql("mutation { delete_" + d + "(keys: [{k: \"1\"}]) { commit } }");
        assertThat(graphql.path("errors").get(0).path("message").asString()).as(graphql.toString())
                .contains("delete_" + d);
        assertThat(graphql.path("errors").get(0).path("extensions").path("classification").asString())
                .isEqualTo("ValidationError");
        assertThat(sql.latestCommit()).isEqualTo(before);
    }

    private List<Map<String, JsonNode>> sqlRows(String statement) {
        JsonNode result = sql.run(statement).path("results").get(0);
        List<String> columns = new ArrayList<>();
        result.path("columns").forEach(c -> columns.add(c.path("name").asString()));
        List<Map<String, JsonNode>> rows = new ArrayList<>();
        for (JsonNode row : result.path("rows")) {
            Map<String, JsonNode> map = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                map.put(columns.get(i), row.get(i));
            }
            rows.add(map);
        }
        return rows;
    }

    private static List<Map<String, JsonNode>> objects(String body, String field) {
        return objects(SqlClient.JSON.readTree(body).path(field));
    }

    private static List<Map<String, JsonNode>> objects(JsonNode array) {
        assertThat(array.isArray()).as(array.toString()).isTrue();
        List<Map<String, JsonNode>> rows = new ArrayList<>();
        for (JsonNode node : array) {
            Map<String, JsonNode> map = new LinkedHashMap<>();
            node.properties().forEach(e -> map.put(e.getKey(), e.getValue()));
            rows.add(map);
        }
        return rows;
    }
}
