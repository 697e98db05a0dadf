package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.GraphqlSocket;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Access control around derived tables and feeds. A change feed tells a caller who may not read
 * the table nothing about it: not that its history was deleted (FEED_BEFORE_HORIZON, 410), only
 * what a table that does not exist gets (or, when the caller holds another privilege on it, the
 * missing SELECT) — on the JSON feed, the event stream, the GraphQL subscription and
 * {@code changes(t)} in statements. Keeping derived tables is the engine's work: a writer of a
 * source needs no privilege on the derived tables that read it, nor learns their names (SHOW
 * DERIVED TABLES lists only those the caller holds a privilege on).
 */
class DerivedFeedAccessTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private record Answer(int status, String code, String detail, String raw) {
    }

    private Answer get(String path, String accept, String token, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Authorization", "Bearer " + token).header("Accept", accept);
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return answer(response);
    }

    private static Answer answer(HttpResponse<String> response) {
        JsonNode body;
        try {
            body = SqlClient.JSON.readTree(response.body());
        } catch (RuntimeException notJson) {
            body = SqlClient.JSON.createObjectNode();
        }
        return new Answer(response.statusCode(), body.path("code").asString(), body.path("detail").asString(),
                response.body());
    }

    private Answer post(String path, Object body, String token, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(SqlClient.JSON.writeValueAsString(body)));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return answer(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()));
    }

    private Answer statement(String sql, String token) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                        + "/v1/sql")).header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(SqlClient.JSON.writeValueAsString(Map.of("sql", sql,
                        "params", List.of())))).build(), HttpResponse.BodyHandlers.ofString());
        return answer(response);
    }

    @Test
    void aFeedOfATableTheCallerMayNotReadSaysNothingOfItsHistory() throws Exception {
        String secret = table("feed_secret");
        String open = table("feed_open");
        String outsider = table("feed_outsider");
        String writer = table("feed_writer");
        sql.write("CREATE TABLE " + secret + " (k INT PRIMARY KEY, v INT) VERSIONED; CREATE TABLE " + open
                + " (k INT PRIMARY KEY) VERSIONED");
        long first = sql.write("UPSERT INTO " + secret + " VALUES (1, 1)");
        long second = sql.write("UPSERT INTO " + secret + " VALUES (1, 2)");
        sql.write("DELETE HISTORY FROM " + secret + " BEFORE COMMIT " + second);
        sql.run("CREATE ROLE " + outsider + "; GRANT SELECT ON TABLE " + open + " TO " + outsider + "; CREATE ROLE "
                + writer + "; GRANT WRITE ON TABLE " + secret + " TO " + writer);
        String outsiderToken = TestSecurity.jwt("olga", outsider);
        String writerToken = TestSecurity.jwt("walt", writer);
        String missing = "nope_" + secret;

        // The admin is told the history is gone.
        Answer gone = get("/v1/tables/" + secret + "/changes?after=0", "application/json",
                TestSecurity.jwt("root", "admin"));
        assertThat(gone.status()).as(gone.raw()).isEqualTo(410);
        assertThat(gone.code()).isEqualTo("FEED_BEFORE_HORIZON");

        // No privilege at all: exactly what a table that does not exist gets, JSON and event stream alike.
        for (String accept : List.of("application/json", "text/event-stream")) {
            Answer hidden = get("/v1/tables/" + secret + "/changes?after=0", accept, outsiderToken);
            Answer absent = get("/v1/tables/" + missing + "/changes?after=0", accept, outsiderToken);
            assertThat(hidden.status()).as(accept + ": " + hidden.raw()).isEqualTo(404);
            assertThat(hidden.code()).isEqualTo("UNKNOWN_TABLE");
            assertThat(hidden.detail()).isEqualTo("unknown table '" + secret + "'");
            assertThat(absent.status()).isEqualTo(404);
            assertThat(absent.code()).isEqualTo(hidden.code());
            assertThat(absent.detail().replace(missing, secret)).isEqualTo(hidden.detail());
            // Resuming an event stream from before the horizon (Last-Event-ID): the same.
            Answer resumed = get("/v1/tables/" + secret + "/changes", accept, outsiderToken, "Last-Event-ID",
                    Long.toString(first));
            assertThat(resumed.status()).as(resumed.raw()).isEqualTo(404);
            assertThat(resumed.code()).isEqualTo("UNKNOWN_TABLE");
        }
        // WRITE but not SELECT: the missing privilege is named, still nothing of the history.
        Answer forbidden = get("/v1/tables/" + secret + "/changes?after=0", "application/json", writerToken);
        assertThat(forbidden.status()).as(forbidden.raw()).isEqualTo(403);
        assertThat(forbidden.code()).isEqualTo("FORBIDDEN");
        assertThat(forbidden.detail()).contains("SELECT").doesNotContain("history");

        // changes(t) in a statement: unknown before its AS OF is looked at.
        Answer statement = statement("SELECT * FROM changes(" + secret + ") AS OF COMMIT " + first, outsiderToken);
        assertThat(statement.status()).as(statement.raw()).isEqualTo(404);
        assertThat(statement.code()).isEqualTo("UNKNOWN_TABLE");
        Answer asWriter = statement("SELECT * FROM changes(" + secret + ") AS OF COMMIT " + first, writerToken);
        assertThat(asWriter.status()).as(asWriter.raw()).isEqualTo(403);
        assertThat(asWriter.code()).isEqualTo("FORBIDDEN");

        // The GraphQL subscription: no field for the table in this caller's schema, nothing of its history.
        try (GraphqlSocket socket = GraphqlSocket.open(port, Map.of(),
                Map.of("Authorization", "Bearer " + outsiderToken))) {
            assertThat(socket.next().get("type").asString()).isEqualTo("connection_ack");
            socket.subscribe("s", secret, 0);
            JsonNode refused = socket.next();
            assertThat(refused.get("id").asString()).isEqualTo("s");
            assertThat(refused.toString()).contains("'" + secret + "_changes'", "undefined")
                    .doesNotContain("FEED_BEFORE_HORIZON");
        }
        try (GraphqlSocket socket = GraphqlSocket.open(port, Map.of(),
                Map.of("Authorization", "Bearer " + writerToken))) {
            assertThat(socket.next().get("type").asString()).isEqualTo("connection_ack");
            socket.subscribe("w", secret, 0);
            JsonNode refused = socket.next();
            assertThat(refused.get("id").asString()).isEqualTo("w");
            assertThat(refused.toString()).doesNotContain("FEED_BEFORE_HORIZON");
        }
    }

    /** A ledger of entries per account, and accounts with their region: account 'a' in the north. */
    private void ledgerAndAccounts(String ledger, String accounts) {
        sql.write("CREATE TABLE " + ledger + " (entry INT PRIMARY KEY, account TEXT, amount INT) VERSIONED; "
                + "CREATE TABLE " + accounts + " (account TEXT PRIMARY KEY, region TEXT) VERSIONED");
        sql.write("UPSERT INTO " + accounts + " VALUES ('a', 'north')");
    }

    @Test
    void aWriterOfASourceNeedsNoPrivilegeOnTheDerivedTablesThatReadIt() throws Exception {
        String ledger = table("upkeep_ledger");
        String accounts = table("upkeep_accounts");
        String totals = table("upkeep_totals");
        String clerk = table("upkeep_clerk");
        ledgerAndAccounts(ledger, accounts);
        sql.write("CREATE DERIVED TABLE " + totals + " PRIMARY KEY (region) AS SELECT a.region, sum(l.amount) AS total "
                + "FROM " + ledger + " l JOIN " + accounts + " a ON a.account = l.account GROUP BY a.region");
        sql.run("CREATE ROLE " + clerk + "; GRANT WRITE ON TABLE " + ledger + " TO " + clerk);
        Answer written = statement("UPSERT INTO " + ledger + " VALUES (1, 'a', 5)", TestSecurity.jwt("cleo", clerk));
        assertThat(written.status()).as(written.raw()).isEqualTo(200);
        assertThat(sql.rows("SELECT region, total FROM " + totals)).containsExactly(List.of("north", "5"));
        // Nor does SHOW DERIVED TABLES name a derived table the caller holds nothing on, as SHOW TABLES.
        Answer shown = statement("SHOW DERIVED TABLES", TestSecurity.jwt("cleo", clerk));
        assertThat(shown.status()).as(shown.raw()).isEqualTo(200);
        assertThat(shown.raw()).doesNotContain(totals);
        sql.run("GRANT SELECT ON TABLE " + totals + " TO " + clerk);
        assertThat(statement("SHOW DERIVED TABLES", TestSecurity.jwt("cleo", clerk)).raw()).contains(totals);
    }

    /**
     * CREATE DERIVED TABLE makes a table, as CREATE TABLE does (ADMIN on ALL TABLES, which makes the
     * creator its administrator), out of rows it reads (SELECT on every source, joins and subqueries
     * included): ADMIN on a source is not enough, nor is ADMIN on ALL TABLES without SELECT on what
     * the query reads. The same on /v1/sql and REST.
     */
    @Test
    void creatingADerivedTableNeedsTheRightToCreateTablesAndSelectOnEverySource() throws Exception {
        String ledger = table("priv_ledger");
        String accounts = table("priv_accounts");
        String sourceAdmin = table("priv_source_admin");
        String creator = table("priv_creator");
        ledgerAndAccounts(ledger, accounts);
        sql.write("UPSERT INTO " + ledger + " VALUES (1, 'a', 5)");
        sql.run("CREATE ROLE " + sourceAdmin + "; GRANT ALL ON TABLE " + ledger + " TO " + sourceAdmin
                + "; CREATE ROLE " + creator + "; GRANT ADMIN ON ALL TABLES TO " + creator
                + "; GRANT SELECT ON TABLE " + ledger + " TO " + creator);
        String sourceAdminToken = TestSecurity.jwt("sam", sourceAdmin);
        String creatorToken = TestSecurity.jwt("cora", creator);
        String overLedger = " PRIMARY KEY (account) AS SELECT account, sum(amount) AS total FROM " + ledger
                + " GROUP BY account";

        // Every privilege on the source, but no right to create tables.
        Answer refused = statement("CREATE DERIVED TABLE " + table("priv_d") + overLedger, sourceAdminToken);
        assertThat(refused.status()).as(refused.raw()).isEqualTo(403);
        assertThat(refused.code()).isEqualTo("FORBIDDEN");
        assertThat(refused.detail()).contains("ADMIN on ALL TABLES", "CREATE DERIVED TABLE");
        Answer refusedRest = post("/v1/derived-tables", Map.of("name", table("priv_d"), "primaryKey",
                List.of("account"), "query", "SELECT account, sum(amount) AS total FROM " + ledger
                        + " GROUP BY account"), sourceAdminToken);
        assertThat(refusedRest.status()).as(refusedRest.raw()).isEqualTo(403);
        assertThat(refusedRest.detail()).contains("ADMIN on ALL TABLES");

        // The right to create tables, but not to read what the query joins, looks up or reads through a view.
        String regions = table("priv_regions");
        String accountView = table("priv_account_view");
        sql.write("CREATE VIEW " + accountView + " AS SELECT account, region FROM " + accounts);
        for (String query : List.of(
                "SELECT region, count(*) AS total FROM " + accountView + " GROUP BY region",
                "SELECT a.region, sum(l.amount) AS total FROM " + ledger + " l JOIN " + accounts
                        + " a ON a.account = l.account GROUP BY a.region",
                "SELECT account AS region, sum(amount) AS total FROM " + ledger + " WHERE account IN (SELECT account "
                        + "FROM " + accounts + ") GROUP BY account")) {
            Answer unread = statement("CREATE DERIVED TABLE " + regions + " PRIMARY KEY (region) AS " + query,
                    creatorToken);
            assertThat(unread.status()).as(unread.raw()).isEqualTo(403);
            assertThat(unread.code()).isEqualTo("FORBIDDEN");
            assertThat(unread.detail()).contains("SELECT", accounts);
        }
        assertThat(sql.rows("SHOW DERIVED TABLES").stream().map(r -> r.get(0))).doesNotContain(regions);

        // Both: created (its build is the engine's work, which reads the new table the creator may not
        // read yet), and the creator administers it: it grants itself SELECT and reads it.
        String totals = table("priv_totals");
        Answer created = statement("CREATE DERIVED TABLE " + totals + overLedger, creatorToken);
        assertThat(created.status()).as(created.raw()).isEqualTo(200);
        assertThat(statement("GRANT SELECT ON TABLE " + totals + " TO " + creator, creatorToken).status())
                .isEqualTo(200);
        Answer read = statement("SELECT account, total FROM " + totals, creatorToken);
        assertThat(read.raw()).contains("\"a\"", "\"5\"");
        Answer overRest = post("/v1/derived-tables", Map.of("name", table("priv_rest"), "primaryKey",
                List.of("account"), "query", "SELECT account, count(*) AS n FROM " + ledger + " GROUP BY account"),
                creatorToken, "Prefer", "wait=60");
        assertThat(overRest.status()).as(overRest.raw()).isEqualTo(201);
    }

    /** A build resource tells only the caller who started it, and administrators, anything. */
    @Test
    void aDerivedTableBuildIsReadableOnlyByItsCallerAndAdministrators() throws Exception {
        String ledger = table("own_ledger");
        String builders = table("own_builders");
        sql.write("CREATE TABLE " + ledger + " (entry INT PRIMARY KEY, amount INT) VERSIONED");
        sql.write("UPSERT INTO " + ledger + " VALUES (1, 5)");
        sql.run("CREATE ROLE " + builders + "; GRANT ADMIN ON ALL TABLES TO " + builders + "; GRANT SELECT ON TABLE "
                + ledger + " TO " + builders);
        String owner = TestSecurity.jwt("bea", builders);
        String colleague = TestSecurity.jwt("ben", builders);
        Answer accepted = post("/v1/derived-tables", Map.of("name", table("own_d"), "primaryKey", List.of("entry"),
                "query", "SELECT entry, amount FROM " + ledger), owner, "Prefer", "respond-async");
        assertThat(accepted.status()).as(accepted.raw()).isEqualTo(202);
        String build = "/v1/derived-builds/" + SqlClient.JSON.readTree(accepted.raw()).get("id").asString();

        Answer mine = get(build, "application/json", owner);
        assertThat(mine.status()).as(mine.raw()).isEqualTo(200);
        // Same roles, another caller: as if the build did not exist.
        Answer theirs = get(build, "application/json", colleague);
        Answer none = get("/v1/derived-builds/00000000-0000-0000-0000-000000000000", "application/json", colleague);
        assertThat(theirs.status()).as(theirs.raw()).isEqualTo(404);
        assertThat(theirs.code()).isEqualTo("UNKNOWN_BUILD");
        assertThat(theirs.detail().replace(build.substring(build.lastIndexOf('/') + 1), "x"))
                .isEqualTo(none.detail().replace("00000000-0000-0000-0000-000000000000", "x"));
        HttpResponse<String> admin = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + build))
                .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(admin.statusCode()).as(admin.body()).isEqualTo(200);
        HttpResponse<String> anonymous = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + build)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(401);
    }
}
