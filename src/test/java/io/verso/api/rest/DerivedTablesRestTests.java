package io.verso.api.rest;

import static io.verso.support.RestClient.expect;
import static io.verso.support.RestClient.problem;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.support.IntegrationTest;
import io.verso.support.RestClient;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * POST /v1/derived-tables and its build resource, over HTTP against the contract: a build within
 * the wait answers 201 with the table; a longer one (here: {@code Prefer: respond-async}, or a build
 * held up behind another writer) answers 202 with a Location to follow until the outcome, a
 * failure included, which leaves no table behind.
 */
class DerivedTablesRestTests extends IntegrationTest {

    /** The commit lock (db/migration/V18): held here, it keeps a build from starting. */
    private static final long COMMIT_LOCK = 8531350909232349185L;

    @Autowired
    DataSource dataSource;

    private RestClient rest;

    @BeforeEach
    void rest() {
        rest = new RestClient(port);
    }

    /** A ledger with three commits: alice 10, bob 5, then alice 10 + 7. */
    private List<Long> ledger(String name) {
        sql.write("CREATE TABLE " + name + " (entry INT PRIMARY KEY, account TEXT, amount INT) VERSIONED");
        return List.of(sql.write("UPSERT INTO " + name + " VALUES (1, 'alice', 10)"),
                sql.write("UPSERT INTO " + name + " VALUES (2, 'bob', 5)"),
                sql.write("UPSERT INTO " + name + " VALUES (3, 'alice', 7)"));
    }

    private static Map<String, Object> totals(String name, String ledger) {
        return Map.of("name", name, "primaryKey", List.of("account"),
                "query", "SELECT account, sum(amount) AS total FROM " + ledger + " GROUP BY account;");
    }

    /** POST /v1/derived-tables, waiting as long as the build takes (up to a minute): its outcome, never a 202. */
    private Response create(Object definition) {
        return rest.json(definition).header("Prefer", "wait=60").post("/v1/derived-tables");
    }

        /** Follows a 202's Location until the build has ended. */
    private JsonNode finished(Response accepted) throws InterruptedException {
        String location = accepted.header("Location");
        assertThat(location).startsWith("/v1/derived-builds/");
        for (int i = 0; i < 200; i++) {
            JsonNode build = expect(rest.request().get(location), 200);
            if (!List.of("QUEUED", "RUNNING").contains(build.get("state").asString())) {
                return build;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the build at " + location + " did not end");
    }

    @Test
    void aBuildWithinTheWaitAnswersCreatedWithItsCountsAndEveryEarlierCommitExact() {
        String ledger = table("rest_ledger");
        String totals = table("rest_totals");
        List<Long> commits = ledger(ledger);

        // The client waits as long as it takes (up to a minute), so a loaded machine still answers 201.
        Response created = rest.json(totals(totals, ledger)).header("Prefer", "wait=60").post("/v1/derived-tables");
        JsonNode build = expect(created, 201);
        assertThat(created.header("Location")).isEqualTo("/v1/tables/" + totals);
        assertThat(build.get("state").asString()).isEqualTo("SUCCEEDED");
        assertThat(build.get("table").asString()).isEqualTo(totals);
        assertThat(build.get("commitsTotal").asLong()).isEqualTo(3);
        assertThat(build.get("commitsApplied").asLong()).isEqualTo(3);
        assertThat(build.get("rowsWritten").asLong()).isEqualTo(3); // alice, bob, alice again
        assertThat(build.get("error").isNull()).isTrue();
        long commit = Long.parseLong(build.get("commit").asString());
        assertThat(commit).isGreaterThan(commits.get(2));

        assertThat(sql.rows("SELECT account, total FROM " + totals + " AS OF COMMIT " + commits.get(0)))
                .containsExactly(List.of("alice", "10"));
        assertThat(sql.rows("SELECT account, total FROM " + totals + " ORDER BY account"))
                .containsExactly(List.of("alice", "17"), List.of("bob", "5"));
        // Stored as CREATE DERIVED TABLE stores it: the query, without the closing semicolon.
        assertThat(sql.rows("SHOW DERIVED TABLES").stream().filter(r -> r.get(0).equals(totals)).toList())
                .singleElement().satisfies(r -> assertThat(r.get(2)).endsWith("GROUP BY account"));
        // The build stays readable by its id.
        assertThat(expect(rest.request().get("/v1/derived-builds/{id}", build.get("id").asString()), 200)
                .get("commit").asString()).isEqualTo(Long.toString(commit));
    }

    @Test
    void respondAsyncAnswersAcceptedWithABuildToFollowUntilItSucceeds() throws Exception {
        String ledger = table("async_ledger");
        String totals = table("async_totals");
        ledger(ledger);

        Response accepted = rest.json(totals(totals, ledger)).header("Prefer", "respond-async")
                .post("/v1/derived-tables");
        JsonNode running = expect(accepted, 202);
        assertThat(accepted.header("Preference-Applied")).isEqualTo("respond-async");
        assertThat(accepted.header("Retry-After")).isEqualTo("1");
        assertThat(accepted.header("Location")).isEqualTo("/v1/derived-builds/" + running.get("id").asString());
        assertThat(running.get("table").asString()).isEqualTo(totals);

        JsonNode build = finished(accepted);
        assertThat(build.get("state").asString()).as(build.toString()).isEqualTo("SUCCEEDED");
        assertThat(build.get("commitsApplied").asLong()).isEqualTo(build.get("commitsTotal").asLong()).isEqualTo(3);
        assertThat(build.get("finishedAt").isNull()).isFalse();
        assertThat(expect(rest.request().get("/v1/tables/{t}", totals), 200).get("key").toString())
                .isEqualTo("[\"account\"]");
    }

    @Test
    void aBuildWaitingForAThreadIsReportedQueuedThenRunsAndSucceeds() throws Exception {
        String ledger = table("queued_ledger");
        ledger(ledger);
        List<Response> asked = new ArrayList<>();
        try (Connection writer = dataSource.getConnection(); Statement lock = writer.createStatement()) {
            writer.setAutoCommit(false);
            lock.execute("SELECT pg_advisory_xact_lock(" + COMMIT_LOCK + ")");
            // Two builds take the two build threads and wait for the commit lock; the third waits for a thread.
            for (int i = 0; i < 3; i++) {
                asked.add(rest.json(totals(table("queued_totals"), ledger)).header("Prefer", "respond-async")
                        .post("/v1/derived-tables"));
                expect(asked.get(i), 202);
            }
            for (int i = 0; i < 2; i++) {
                String location = asked.get(i).header("Location");
                for (int tries = 0; tries < 100
                        && !expect(rest.request().get(location), 200).get("state").asString().equals("RUNNING"); tries++) {
                    Thread.sleep(50);
                }
                assertThat(expect(rest.request().get(location), 200).get("state").asString()).isEqualTo("RUNNING");
            }
            JsonNode queued = expect(rest.request().get(asked.get(2).header("Location")), 200);
            assertThat(queued.get("state").asString()).as(queued.toString()).isEqualTo("QUEUED");
            assertThat(queued.get("finishedAt").isNull()).isTrue();
            writer.rollback();
        }
        for (Response accepted : asked) {
            JsonNode build = finished(accepted);
            assertThat(build.get("state").asString()).as(build.toString()).isEqualTo("SUCCEEDED");
        }
    }

    @Test
    void aBuildHeldUpBeyondTheWaitIsReportedRunningThenDone() throws Exception {
        String ledger = table("held_ledger");
        String totals = table("held_totals");
        ledger(ledger);
        Response accepted;
        try (Connection writer = dataSource.getConnection(); Statement lock = writer.createStatement()) {
            writer.setAutoCommit(false);
            lock.execute("SELECT pg_advisory_xact_lock(" + COMMIT_LOCK + ")");
            // The default wait (2 s) passes while another writer holds the commit lock.
            accepted = rest.json(totals(totals, ledger)).post("/v1/derived-tables");
            JsonNode running = expect(accepted, 202);
            assertThat(accepted.header("Preference-Applied")).isNull();
            JsonNode asked = expect(rest.request().get(accepted.header("Location")), 200);
            assertThat(asked.get("state").asString()).isEqualTo("RUNNING");
            assertThat(asked.get("commitsTotal").isNull()).as("not counted yet: " + asked).isTrue();
            assertThat(asked.get("commit").isNull()).isTrue();
            assertThat(running.get("id").asString()).isEqualTo(asked.get("id").asString());
            writer.rollback();
        }
        JsonNode build = finished(accepted);
        assertThat(build.get("state").asString()).as(build.toString()).isEqualTo("SUCCEEDED");
        assertThat(sql.rows("SELECT total FROM " + totals + " WHERE account = 'alice'")).containsExactly(List.of("17"));
    }

    @Test
    void aBuildThatFailsAfterAcceptedReportsTheProblemAndLeavesNoTable() throws Exception {
        String ledger = table("clash_ledger");
        String byAccount = table("clash_rows");
        ledger(ledger);
        // Two rows for alice: the key does not identify a row, from the first commit with both on.
        Response accepted = rest.json(Map.of("name", byAccount, "primaryKey", List.of("account"),
                "query", "SELECT account, amount FROM " + ledger)).header("Prefer", "respond-async")
                .post("/v1/derived-tables");
        expect(accepted, 202);
        JsonNode build = finished(accepted);
        assertThat(build.get("state").asString()).isEqualTo("FAILED");
        assertThat(build.get("commit").isNull()).isTrue();
        assertThat(build.get("error").get("code").asString()).isEqualTo("DERIVED_KEY_CONFLICT");
        assertThat(build.get("error").get("status").asInt()).isEqualTo(409);
        assertThat(build.get("error").get("detail").asString()).contains(byAccount, "(account=alice)");
        problem(rest.request().get("/v1/tables/{t}", byAccount), 404, "UNKNOWN_TABLE", "table");

        // Within the wait, the same failure is the request's own problem.
        problem(rest.json(Map.of("name", byAccount, "primaryKey", List.of("account"),
                "query", "SELECT account, amount FROM " + ledger)).header("Prefer", "wait=60")
                .post("/v1/derived-tables"), 409,
                "DERIVED_KEY_CONFLICT", null);
    }

    @Test
    void badDefinitionsAreRefusedNamingTheInput() {
        String ledger = table("bad_ledger");
        String name = table("bad_totals");
        ledger(ledger);
        problem(create(Map.of("name", name)), 400, "INVALID_REQUEST", "/query");
        problem(create(Map.of("query", "SELECT 1")), 400, "INVALID_REQUEST", "/name");
        problem(create(Map.of("name", name, "primaryKey", List.of(1), "query", "SELECT entry FROM " + ledger)), 400,
                "INVALID_REQUEST", "/primaryKey/0");
        JsonNode syntax = problem(create(Map.of("name", name, "query", "SELECT account,\nFROM " + ledger)), 400,
                "SYNTAX_ERROR", null);
        assertThat(syntax.get("line").asInt()).isEqualTo(2);
        problem(create(Map.of("name", name, "query", "SELECT 1; SELECT 2")), 400, "INVALID_REQUEST", "/query");
        problem(create(Map.of("name", name, "query", "DELETE FROM " + ledger)), 400, "INVALID_REQUEST", "/query");
        problem(create(Map.of("name", name, "primaryKey", List.of("nope"),
                "query", "SELECT entry FROM " + ledger)), 400, "UNKNOWN_COLUMN", "/primaryKey");
        problem(create(Map.of("name", name, "query", "SELECT * FROM no_such_" + ledger)), 404, "UNKNOWN_TABLE",
                null);
        problem(create(Map.of("name", ledger, "primaryKey", List.of("entry"), "query", "SELECT entry FROM " + ledger)),
                409, "TABLE_EXISTS", "/name");
        problem(rest.request().get("/v1/derived-builds/{id}", "00000000-0000-0000-0000-000000000000"), 404,
                "UNKNOWN_BUILD", "id");
        problem(rest.request().get("/v1/derived-builds/{id}", "not-an-id"), 404, "UNKNOWN_BUILD", "id");
        // Nothing was created by any of them.
        assertThat(sql.rows("SHOW DERIVED TABLES").stream().map(r -> r.get(0))).doesNotContain(name);
    }
}
