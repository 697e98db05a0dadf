package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Every bad input the spec implies gets a 4xx with its stable code (and position where it has one),
 * and leaves everything as it was: no commit, no row, no table.
 */
class BadInputTests extends IntegrationTest {

    private String t;

    @BeforeEach
    void table() {
        t = table("bad");
        sql.write("CREATE TABLE " + t + " (k INT, v TEXT, ix BIGINT, rev INT, a INT, ax TIMESTAMP, PRIMARY KEY (k), "
                + "ATTRIBUTE GROUP ga (a, ax) VALID BY (ax)) VERSIONED VALID BY (ix) REVISION BY (rev)");
        sql.write("UPSERT INTO " + t + " (k, v, ix, rev) VALUES (1, 'one', 10, 1)");
    }

    /** Runs the statement, expects the failure, and checks nothing was committed or changed. */
    private JsonNode refused(int status, String code, String statement, Object... params) {
        long before = sql.latestCommit();
        List<List<String>> rows = sql.rows("SELECT * FROM " + t + " ORDER BY k");
        JsonNode problem = sql.fails(status, code, statement.replace("$t", t), params);
        assertThat(problem.path("detail").asString()).isNotBlank();
        assertThat(sql.latestCommit()).as("no commit was made").isEqualTo(before);
        assertThat(sql.rows("SELECT * FROM " + t + " ORDER BY k")).as("no row changed").isEqualTo(rows);
        return problem;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            ordering column not integer or timestamp | INVALID_ORDERING_COLUMN | CREATE TABLE x1 (k INT PRIMARY KEY, v TEXT) VERSIONED VALID BY (v)
            column in two groups                     | COLUMN_IN_TWO_GROUPS | CREATE TABLE x2 (k INT PRIMARY KEY, a INT, ATTRIBUTE GROUP g1 (a), ATTRIBUTE GROUP g2 (a)) VERSIONED
            ordering column outside its group        | ORDERING_COLUMN_OUTSIDE_GROUP | CREATE TABLE x3 (k INT PRIMARY KEY, a INT, b INT, ATTRIBUTE GROUP g1 (a) VALID BY (b)) VERSIONED
            table ordering column in a named group   | ORDERING_COLUMN_OUTSIDE_GROUP | CREATE TABLE x4 (k INT PRIMARY KEY, a INT, ATTRIBUTE GROUP g1 (a)) VERSIONED VALID BY (a)
            VALID BY on an APPEND table              | ORDERING_ON_APPEND_TABLE | CREATE TABLE x5 (a INT, b INT) APPEND VALID BY (b)
            ATTRIBUTE GROUP on an APPEND table       | ORDERING_ON_APPEND_TABLE | CREATE TABLE x6 (a INT, b INT, ATTRIBUTE GROUP g (b)) APPEND
            UPSERT without a key                     | PRIMARY_KEY_REQUIRED | CREATE TABLE x7 (a INT, b INT) UPSERT
            VERSIONED without a key                  | PRIMARY_KEY_REQUIRED | CREATE TABLE x8 (a INT) VERSIONED
            unknown type                             | UNKNOWN_TYPE | CREATE TABLE x9 (k INT PRIMARY KEY, v MONEY)
            duplicate column                         | DUPLICATE_NAME | CREATE TABLE x10 (k INT PRIMARY KEY, v INT, V TEXT)
            reserved column name                     | RESERVED_NAME | CREATE TABLE x11 (k INT PRIMARY KEY, _commit INT)
            reserved table name                      | RESERVED_NAME | CREATE TABLE pg_x (k INT PRIMARY KEY)
            reserved group name                      | RESERVED_NAME | CREATE TABLE x12 (k INT PRIMARY KEY, a INT, ATTRIBUTE GROUP "default" (a)) VERSIONED
            key column in a group                    | KEY_COLUMN_IN_GROUP | CREATE TABLE x13 (k INT PRIMARY KEY, a INT, ATTRIBUTE GROUP g (k, a)) VERSIONED
            unknown key column                       | UNKNOWN_COLUMN | CREATE TABLE x14 (k INT, PRIMARY KEY (z)) UPSERT
            default of the wrong type                | INVALID_DEFAULT | CREATE TABLE x15 (k INT PRIMARY KEY, v INT DEFAULT 'abc')
            """)
    void ddlMistakes(String what, String code, String statement) {
        refused(400, code, statement);
        assertThat(sql.rows("SHOW TABLES").stream().map(r -> r.get(0)).toList())
                .doesNotContain(statement.split("\\s+")[2].toLowerCase());
    }

    @Test
    void existingTableIsAConflict() {
        refused(409, "TABLE_EXISTS", "CREATE TABLE $t (k INT PRIMARY KEY)");
        assertThat(sql.run("CREATE TABLE IF NOT EXISTS " + t + " (k INT PRIMARY KEY)").at("/results/0/changed")
                .asBoolean()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            missing ordering value          | MISSING_ORDERING_VALUE | UPSERT INTO $t (k, v, ix) VALUES (2, 'x', 1)
            null ordering value             | MISSING_ORDERING_VALUE | UPSERT INTO $t (k, v, ix, rev) VALUES (2, 'x', NULL, 1)
            group ordering value missing    | MISSING_ORDERING_VALUE | UPSERT INTO $t (k, a) VALUES (2, 5) ATTRIBUTE GROUP ga
            missing key                     | MISSING_KEY_VALUE | UPSERT INTO $t (v, ix, rev) VALUES ('x', 1, 1)
            null key                        | MISSING_KEY_VALUE | UPSERT INTO $t (k, v, ix, rev) VALUES (NULL, 'x', 1, 1)
            unknown column                  | UNKNOWN_COLUMN | UPSERT INTO $t (k, nope, ix, rev) VALUES (2, 'x', 1, 1)
            column outside the named group  | COLUMN_NOT_IN_GROUP | UPSERT INTO $t (k, v, a, ax) VALUES (2, 'x', 1, '2026-01-01') ATTRIBUTE GROUP ga
            unknown group                   | UNKNOWN_GROUP | UPSERT INTO $t (k, a, ax) VALUES (2, 1, '2026-01-01') ATTRIBUTE GROUP nope
            value of the wrong type         | INVALID_VALUE | UPSERT INTO $t (k, v, ix, rev) VALUES ('two', 'x', 1, 1)
            integer out of range            | INVALID_VALUE | UPSERT INTO $t (k, v, ix, rev) VALUES (2, 'x', 1, 3000000000)
            bad timestamp                   | INVALID_VALUE | UPSERT INTO $t (k, a, ax) VALUES (2, 1, 'yesterday-ish') ATTRIBUTE GROUP ga
            wrong number of values          | COLUMN_COUNT_MISMATCH | UPSERT INTO $t (k, v, ix, rev) VALUES (2, 'x', 1)
            insert of a live key            | KEY_EXISTS | INSERT INTO $t (k, v, ix, rev) VALUES (1, 'again', 11, 1)
            delete without AT               | MISSING_ORDERING_VALUE | DELETE FROM $t WHERE k = 1
            AT on a non-ordering column     | INVALID_AT_CLAUSE | DELETE FROM $t WHERE k = 1 AT (v = 'x', ix = 1, rev = 1, ax = '2026-01-01')
            update without ordering value   | MISSING_ORDERING_VALUE | UPDATE $t SET v = 'changed' WHERE k = 1
            update of a key column          | INVALID_ASSIGNMENT | UPDATE $t SET k = 5, ix = 11, rev = 1
            second statement fails          | UNKNOWN_TABLE | UPSERT INTO $t (k, v, ix, rev) VALUES (3, 'x', 1, 1); UPSERT INTO nope (k) VALUES (1)
            """)
    void writeMistakes(String what, String code, String statement) {
        refused(code.equals("KEY_EXISTS") ? 409 : code.equals("UNKNOWN_TABLE") ? 404 : 400, code, statement);
    }

    @Test
    void asOfMistakesSayWhich() {
        long latest = sql.latestCommit();
        refused(400, "AS_OF_NOT_POSITIVE", "SELECT * FROM $t AS OF COMMIT 0");
        refused(400, "AS_OF_NOT_POSITIVE", "SELECT * FROM $t AS OF COMMIT -3");
        refused(400, "AS_OF_NOT_INTEGER", "SELECT * FROM $t AS OF COMMIT 1.5");
        refused(400, "AS_OF_NOT_INTEGER", "SELECT * FROM $t AS OF COMMIT 'x'");
        refused(400, "AS_OF_NOT_INTEGER", "SELECT * FROM $t AS OF COMMIT ?", "abc");
        refused(400, "AS_OF_NOT_POSITIVE", "SELECT * FROM $t AS OF COMMIT ?", 0);
        JsonNode beyond = refused(400, "AS_OF_BEYOND_LATEST", "SELECT * FROM $t AS OF COMMIT " + (latest + 1000));
        assertThat(beyond.path("detail").asString()).contains(String.valueOf(latest + 1000));
        refused(400, "AS_OF_DUPLICATE", "SELECT * FROM $t ORDER BY k AS OF COMMIT 1 AS OF COMMIT 1");
        String upsert = table("plain");
        sql.write("CREATE TABLE " + upsert + " (k INT PRIMARY KEY, v INT)");
        sql.fails(400, "AS_OF_NOT_SUPPORTED", "SELECT * FROM " + upsert + " AS OF COMMIT 1");
        sql.fails(400, "NO_HISTORY", "SELECT * FROM history(" + upsert + ")");
    }

    @Test
    void syntaxErrorsCarryLineAndColumnOverTheWholeRequest() {
        JsonNode problem = refused(400, "SYNTAX_ERROR", "SELECT * FROM $t;\nSELECT k\n  FROM $t WHERE k = = 1");
        assertThat(problem.path("line").asInt()).isEqualTo(3);
        assertThat(problem.path("column").asInt()).isEqualTo("  FROM ".length() + t.length() + " WHERE k = ".length() + 1);
        refused(400, "EMPTY_STATEMENT", "  ;  -- nothing here");
    }

    @Test
    void nothingOutsideTheCatalogIsReachable() {
        // pg_catalog and information_schema hold only the relations Verso makes from its own catalog.
        refused(404, "UNKNOWN_TABLE", "SELECT * FROM pg_catalog.pg_class");
        refused(404, "UNKNOWN_TABLE", "SELECT * FROM information_schema.role_table_grants");
        refused(400, "SCHEMA_QUALIFIED_NAME", "SELECT * FROM verso.user_tables");
        refused(400, "SCHEMA_QUALIFIED_NAME", "SELECT * FROM public.user_tables");
        refused(404, "UNKNOWN_TABLE", "SELECT * FROM pg_class");
        refused(404, "UNKNOWN_TABLE", "SELECT * FROM user_tables");
        refused(400, "UNKNOWN_FUNCTION", "SELECT pg_sleep(1) FROM $t");
        // current_setting reads the few settings Verso reports to clients, never the storage database's own.
        refused(400, "INVALID_EXPRESSION", "SELECT current_setting('data_directory') FROM $t");
        refused(400, "INVALID_EXPRESSION", "SELECT current_setting(v) FROM $t");
        assertThat(sql.rows("SELECT current_setting('is_superuser')")).isEqualTo(List.of(List.of("off")));
        refused(400, "SYNTAX_ERROR", "SELECT * FROM $t; DROP SCHEMA verso CASCADE --");
        // x::type is the dialect's cast, over the dialect's types only.
        refused(400, "UNKNOWN_TYPE", "SELECT v::regclass FROM $t");
        // A value is a bind, never SQL: this finds no row instead of running anything.
        assertThat(sql.rows("SELECT k FROM " + t + " WHERE v = ?", "x'; DROP TABLE verso.commits; --")).isEmpty();
        assertThat(sql.rows("SELECT \"v\" FROM " + t + " WHERE v = 'one'' OR ''1''=''1'")).isEmpty();
    }

    @Test
    void requestShapeMistakes() {
        assertThat(sql.postRaw("{not json").statusCode()).isEqualTo(400);
        assertThat(sql.postRaw("{\"sql\": 5}").statusCode()).isEqualTo(400);
        assertThat(sql.postRaw("[1]").statusCode()).isEqualTo(400);
        sql.fails(400, "PARAMETER_COUNT_MISMATCH", "SELECT * FROM " + t + " WHERE k = ?");
    }

    @Test
    void oversizedRequestsGetA413WhetherSizedOrChunked() throws Exception {
        byte[] huge = ("{\"sql\": \"SELECT 1 FROM " + t + " WHERE v IN (" + "'x',".repeat(4_300_000) + "'y')\"}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpClient client = HttpClient.newHttpClient();
        URI uri = URI.create("http://localhost:" + port + "/v1/sql");
        for (HttpRequest.BodyPublisher body : List.of(HttpRequest.BodyPublishers.ofByteArray(huge),
                HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(huge)))) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri)
                    .header("Content-Type", "application/json")
                    .header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY).POST(body).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(413);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    v -> assertThat(v).startsWith("application/problem+json"));
            assertThat(response.body()).contains("PAYLOAD_TOO_LARGE");
        }
    }

    @Test
    void pathologicalInputIsRefusedNotCrashedOn() {
        refused(400, "NESTING_TOO_DEEP", "SELECT k FROM $t WHERE " + "(".repeat(20_000) + "k = 1" + ")".repeat(20_000));
        refused(400, "INVALID_VALUE", "UPSERT INTO $t (k, v, ix, rev) VALUES (2, 'x', 1e1000000000, 1)");
        refused(400, "INVALID_VALUE", "UPSERT INTO $t (k, v, ix, rev) VALUES (2, 'x', ?, 1)", new java.math.BigDecimal("1e1000000000"));
        // A NUL anywhere in the body is refused before parsing, naming the field that holds it.
        refused(400, "INVALID_VALUE", "SELECT \"a\u0000b\" FROM $t");
        refused(400, "INVALID_VALUE", "UPSERT INTO $t (k, v, ix, rev) VALUES (2, 'nul\u0000byte', 1, 1)");
    }

    @Test
    void typeErrorsFoundByPostgresqlAreStill4xx() {
        refused(400, "TYPE_MISMATCH", "SELECT k FROM $t WHERE v > 5");
        refused(400, "DIVISION_BY_ZERO", "SELECT k / 0 FROM $t");
        refused(400, "COLUMN_NOT_GROUPED", "SELECT k, count(*) FROM $t");
        refused(400, "UNKNOWN_COLUMN", "SELECT nope FROM $t");
        refused(400, "AMBIGUOUS_COLUMN", "SELECT k FROM $t a JOIN $t b ON a.k = b.k");
    }
}
