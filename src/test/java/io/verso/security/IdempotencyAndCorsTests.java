package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.JsonNode;

/**
 * Idempotency-Key: a retry of a write gets the first answer and makes no second commit, on /v1/sql,
 * REST and GraphQL; reuse with another body is 422; concurrent retries of one key make exactly one
 * commit. CORS: the configured origin gets its preflight answered, others are refused.
 */
class IdempotencyAndCorsTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json").header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String sqlBody(String sql) {
        return SqlClient.JSON.writeValueAsString(Map.of("sql", sql, "params", List.of()));
    }

    private long count(String table) {
        return Long.parseLong(sql.rows("SELECT count(*) FROM " + table).get(0).get(0));
    }

    @org.springframework.beans.factory.annotation.Autowired
    private org.springframework.jdbc.core.JdbcTemplate jdbc;

    @Test
    void aRetryAfterTheAnswerWasLostIsToldItsCommitAndDoesNotCommitAgain() throws Exception {
        String t = table("idem_lost");
        sql.run("CREATE TABLE " + t + " (at INT, note TEXT) APPEND");
        String key = UUID.randomUUID().toString();
        String body = sqlBody("INSERT INTO " + t + " VALUES (1, 'once')");
        HttpResponse<String> first = post("/v1/sql", body, "Idempotency-Key", key);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        String commit = SqlClient.JSON.readTree(first.body()).path("commit").asString();
        // The commit's transaction marked the key with the commit.
        assertThat(jdbc.queryForObject("SELECT commit_seq FROM verso.idempotency_keys WHERE key = ?", Long.class, key))
                .isEqualTo(Long.parseLong(commit));
        // As if the service had died between its commit and storing the answer, long enough ago to take it over.
        jdbc.update("UPDATE verso.idempotency_keys SET status = NULL, content_type = NULL, body = NULL, "
                + "created_at = now() - interval '1 hour' WHERE key = ?", key);
        long latest = sql.latestCommit();
        HttpResponse<String> retry = post("/v1/sql", body, "Idempotency-Key", key);
        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(409);
        JsonNode problem = SqlClient.JSON.readTree(retry.body());
        assertThat(problem.path("code").asString()).isEqualTo("IDEMPOTENT_REQUEST_COMMITTED");
        assertThat(problem.path("detail").asString()).contains("commit " + commit);
        assertThat(count(t)).isEqualTo(1);
        assertThat(sql.latestCommit()).isEqualTo(latest);
        // A request that failed made no commit: its key is released and a retry runs.
        String failing = UUID.randomUUID().toString();
        assertThat(post("/v1/sql", sqlBody("INSERT INTO " + t + " VALUES (1 / 0, 'x')"), "Idempotency-Key", failing)
                .statusCode()).isEqualTo(400);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM verso.idempotency_keys WHERE key = ? AND commit_seq IS NOT NULL",
                Long.class, failing)).isZero();
    }

    @Autowired
    private javax.sql.DataSource dataSource;

    @Autowired
    private io.verso.engine.StatementEngine engine;

    /**
     * A claim lives with the database session that made it: while that session lives the first request may
     * still run (409 IN_FLIGHT); once it is gone, as when its service or PostgreSQL died, the next retry runs
     * at once rather than after verso.security.idempotency.in-flight (2 min).
     */
    @Test
    void aClaimWhoseSessionIsGoneIsTakenOverByTheNextRetry() throws Exception {
        String t = table("idem_gone");
        sql.run("CREATE TABLE " + t + " (at INT, note TEXT) APPEND");
        String key = UUID.randomUUID().toString();
        String body = sqlBody("INSERT INTO " + t + " VALUES (1, 'run')");
        assertThat(post("/v1/sql", body, "Idempotency-Key", key).statusCode()).isEqualTo(200);
        // As a request whose service died before it committed leaves its claim: unanswered, no commit, and
        // owned by the session that claimed it, here one of the test's own, outside the service's pool.
        var hikari = dataSource.unwrap(com.zaxxer.hikari.HikariDataSource.class);
        int owner;
        try (java.sql.Connection session = java.sql.DriverManager.getConnection(hikari.getJdbcUrl(),
                hikari.getUsername(), hikari.getPassword());
             var claim = session.prepareStatement("UPDATE verso.idempotency_keys SET status = NULL, content_type = NULL, "
                     + "body = NULL, commit_seq = NULL, owner_pid = a.pid, owner_started = a.backend_start "
                     + "FROM pg_stat_get_activity(pg_backend_pid()) a WHERE key = ? RETURNING a.pid")) {
            claim.setString(1, key);
            try (var rs = claim.executeQuery()) {
                assertThat(rs.next()).isTrue();
                owner = rs.getInt(1);
            }
            HttpResponse<String> running = post("/v1/sql", body, "Idempotency-Key", key);
            assertThat(running.statusCode()).as(running.body()).isEqualTo(409);
            assertThat(SqlClient.JSON.readTree(running.body()).path("code").asString())
                    .isEqualTo("IDEMPOTENCY_KEY_IN_FLIGHT");

            // The owner's session is killed, and PostgreSQL has let go of it.
            assertThat(jdbc.queryForObject("SELECT pg_terminate_backend(?, 5000)", Boolean.class, owner)).isTrue();
        }
        long started = System.nanoTime();
        HttpResponse<String> retry = post("/v1/sql", body, "Idempotency-Key", key);
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(200);
        assertThat(retry.headers().firstValue("Idempotency-Replayed")).as("it ran").isEmpty();
        assertThat(count(t)).isEqualTo(2);
        assertThat(ms).isLessThan(5_000);
        // Its answer is stored as any first answer: the next retry is a replay.
        HttpResponse<String> replay = post("/v1/sql", body, "Idempotency-Key", key);
        assertThat(replay.headers().firstValue("Idempotency-Replayed")).hasValue("true");
        assertThat(replay.body()).isEqualTo(retry.body());
        assertThat(count(t)).isEqualTo(2);
    }

    /**
     * A request whose claim a retry took over (its own session counted as gone) commits nothing beside the
     * retry: its commit finds the claim is no longer its own and is refused.
     */
    @Test
    void aRequestWhoseClaimWasTakenOverCommitsNothing() throws Exception {
        String t = table("idem_taken");
        sql.run("CREATE TABLE " + t + " (at INT, note TEXT) APPEND");
        // The claim as the request made it, and as the retry that took it over left it: another owner.
        Idempotency.Claim stale = new Idempotency.Claim("someone", UUID.randomUUID().toString(), 1,
                "2026-01-01 00:00:00+00");
        jdbc.update("INSERT INTO verso.idempotency_keys (principal, key, request_hash, owner_pid, owner_started) "
                + "VALUES (?, ?, 'h', 2, now())", stale.principal(), stale.key());
        long latest = sql.latestCommit();
        Idempotency.set(stale);
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Caller.asSystem(() -> engine.execute(
                            io.verso.sql.SqlParser.parse("INSERT INTO " + t + " VALUES (1, 'late')"), List.of(), "test")))
                    .isInstanceOf(io.verso.error.VersoException.class)
                    .hasMessageContaining("took the key over");
        } finally {
            Idempotency.set(null);
        }
        assertThat(count(t)).isZero();
        assertThat(sql.latestCommit()).isEqualTo(latest);
    }

    @Test
    void aRetryReplaysTheFirstAnswerWithoutASecondCommit() throws Exception {
        String t = table("idem_log");
        sql.run("CREATE TABLE " + t + " (at INT, note TEXT) APPEND");
        String key = UUID.randomUUID().toString();
        String body = sqlBody("INSERT INTO " + t + " VALUES (1, 'once')");
        HttpResponse<String> first = post("/v1/sql", body, "Idempotency-Key", key);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        long latest = sql.latestCommit();
        HttpResponse<String> retry = post("/v1/sql", body, "Idempotency-Key", key);
        assertThat(retry.statusCode()).isEqualTo(200);
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(retry.headers().firstValue("Idempotency-Replayed")).hasValue("true");
        assertThat(count(t)).isEqualTo(1);
        assertThat(sql.latestCommit()).isEqualTo(latest);

        HttpResponse<String> other = post("/v1/sql", sqlBody("INSERT INTO " + t + " VALUES (2, 'other')"),
                "Idempotency-Key", key);
        assertThat(other.statusCode()).as(other.body()).isEqualTo(422);
        assertThat(SqlClient.JSON.readTree(other.body()).path("code").asString()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(count(t)).isEqualTo(1);
        assertThat(post("/v1/sql", body, "Idempotency-Key", "bad key with spaces").statusCode()).isEqualTo(400);

        // REST and GraphQL writes take the header too.
        String k = table("idem_rows");
        sql.run("CREATE TABLE " + k + " (id INT PRIMARY KEY, v TEXT) VERSIONED");
        String rows = "{\"rows\": [{\"id\": 1, \"v\": \"a\"}]}";
        String restKey = UUID.randomUUID().toString();
        HttpResponse<String> rest = post("/v1/tables/" + k + "/rows", rows, "Idempotency-Key", restKey);
        assertThat(rest.statusCode()).as(rest.body()).isEqualTo(200);
        assertThat(post("/v1/tables/" + k + "/rows", rows, "Idempotency-Key", restKey).body()).isEqualTo(rest.body());
        String mutation = SqlClient.JSON.writeValueAsString(Map.of("query",
                "mutation { upsert_" + k + "(rows: [{id: 2, v: \"b\"}]) { commit } }"));
        String gqlKey = UUID.randomUUID().toString();
        HttpResponse<String> gql = post("/graphql", mutation, "Idempotency-Key", gqlKey);
        assertThat(post("/graphql", mutation, "Idempotency-Key", gqlKey).body()).isEqualTo(gql.body());
        JsonNode versions = sql.run("SELECT count(*) FROM history(" + k + ")").path("results").get(0).path("rows");
        assertThat(versions.get(0).get(0).asString()).as(gql.body()).isIn("1", "2");
    }

    @Test
    void concurrentRetriesOfOneKeyMakeExactlyOneCommit() throws Exception {
        String t = table("idem_race");
        sql.run("CREATE TABLE " + t + " (at INT) APPEND");
        String key = UUID.randomUUID().toString();
        String body = sqlBody("INSERT INTO " + t + " VALUES (1)");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                calls.add(() -> post("/v1/sql", body, "Idempotency-Key", key));
            }
            Set<String> commits = new HashSet<>();
            int inFlight = 0;
            for (Future<HttpResponse<String>> f : pool.invokeAll(calls)) {
                HttpResponse<String> r = f.get();
                if (r.statusCode() == 409) {
                    // Still running, or committed but its response not stored yet: either way not run again.
                    assertThat(SqlClient.JSON.readTree(r.body()).path("code").asString())
                            .isIn("IDEMPOTENCY_KEY_IN_FLIGHT", "IDEMPOTENT_REQUEST_COMMITTED");
                    inFlight++;
                } else {
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                    commits.add(SqlClient.JSON.readTree(r.body()).path("commit").asString());
                }
            }
            System.out.println("idempotency race: 16 requests, " + inFlight + " answered 409 in flight, commits "
                    + commits);
            assertThat(commits).hasSizeLessThanOrEqualTo(1);
            // Once the first has answered, every retry gets its answer.
            HttpResponse<String> after = post("/v1/sql", body, "Idempotency-Key", key);
            assertThat(after.statusCode()).isEqualTo(200);
            commits.add(SqlClient.JSON.readTree(after.body()).path("commit").asString());
            assertThat(commits).hasSize(1);
            assertThat(count(t)).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentRetriesOfOneGraphqlMutationMakeExactlyOneCommit() throws Exception {
        String t = table("idem_gql");
        sql.run("CREATE TABLE " + t + " (id INT PRIMARY KEY, v TEXT) VERSIONED");
        String mutation = SqlClient.JSON.writeValueAsString(Map.of("query", "mutation { upsert_" + t
                + "(rows: [{id: 1, v: \"a\"}, {id: 2, v: \"b\"}]) { commit } }"));
        String key = UUID.randomUUID().toString();
        long before = sql.latestCommit();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                calls.add(() -> post("/graphql", mutation, "Idempotency-Key", key));
            }
            Set<String> commits = new HashSet<>();
            int refused = 0;
            for (Future<HttpResponse<String>> f : pool.invokeAll(calls)) {
                HttpResponse<String> r = f.get();
                if (r.statusCode() == 409) {
                    assertThat(SqlClient.JSON.readTree(r.body()).path("code").asString())
                            .isIn("IDEMPOTENCY_KEY_IN_FLIGHT", "IDEMPOTENT_REQUEST_COMMITTED");
                    refused++;
                } else {
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                    JsonNode answer = SqlClient.JSON.readTree(r.body());
                    assertThat(answer.path("errors").isMissingNode()).as(r.body()).isTrue();
                    commits.add(answer.path("data").path("upsert_" + t).path("commit").asString());
                }
            }
            HttpResponse<String> after = post("/graphql", mutation, "Idempotency-Key", key);
            assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
            assertThat(after.headers().firstValue("Idempotency-Replayed")).hasValue("true");
            commits.add(SqlClient.JSON.readTree(after.body()).path("data").path("upsert_" + t).path("commit").asString());
            System.out.println("idempotency race (GraphQL): 16 requests, " + refused + " answered 409, commits " + commits);
            assertThat(commits).hasSize(1);
            String commit = commits.iterator().next();
            // The mutation's commit marked the key in its own transaction, on whichever thread it ran.
            assertThat(jdbc.queryForObject("SELECT commit_seq FROM verso.idempotency_keys WHERE key = ?", Long.class,
                    key)).isEqualTo(Long.parseLong(commit));
            assertThat(sql.rows("SELECT count(*) FROM history(" + t + ")")).containsExactly(List.of("2"));
            assertThat(sql.latestCommit()).isEqualTo(Long.parseLong(commit));
            assertThat(Long.parseLong(commit)).isGreaterThan(before);
        } finally {
            pool.shutdownNow();
        }
    }

    @Autowired
    private IdempotencyFilter idempotency;

    /**
     * A request answered asynchronously (as Spring GraphQL answers when execution completes on another thread):
     * nothing is stored at the end of the first dispatch, the claim travels with the request, and the answer
     * the async dispatch writes is what is stored and replayed.
     */
    @Test
    void anAsynchronousAnswerIsStoredWhenItIsCompleteNotWhenTheFirstDispatchEnds() throws Exception {
        String key = UUID.randomUUID().toString();
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/graphql");
        request.addHeader("Idempotency-Key", key);
        request.setContent("{\"query\": \"mutation { x }\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        request.setAsyncSupported(true);
        MockHttpServletResponse response = new MockHttpServletResponse();
        Idempotency.Claim[] seen = new Idempotency.Claim[2];
        idempotency.doFilter(request, response, (rq, rs) -> {
            seen[0] = Idempotency.current().orElse(null);
            rq.startAsync(rq, rs);
        });
        assertThat(seen[0]).isNotNull();
        assertThat(seen[0].key()).isEqualTo(key);
        assertThat(Idempotency.current()).as("not left on the thread").isEmpty();
        assertThat(jdbc.queryForObject("SELECT status FROM verso.idempotency_keys WHERE key = ?", Integer.class, key))
                .as("claimed, not answered yet").isNull();

        // The async dispatch: the same request, the response the async context holds.
        jakarta.servlet.ServletResponse wrapped = request.getAsyncContext().getResponse();
        request.setAsyncStarted(false);
        request.setDispatcherType(jakarta.servlet.DispatcherType.ASYNC);
        idempotency.doFilter(request, wrapped, (rq, rs) -> {
            seen[1] = Idempotency.current().orElse(null);
            ((jakarta.servlet.http.HttpServletResponse) rs).setStatus(200);
            rs.setContentType("application/json");
            rs.getOutputStream().write("{\"data\": {\"x\": 1}}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        });
        assertThat(seen[1]).isEqualTo(seen[0]);
        assertThat(response.getContentAsString()).isEqualTo("{\"data\": {\"x\": 1}}");
        assertThat(jdbc.queryForObject("SELECT convert_from(body, 'UTF8') FROM verso.idempotency_keys WHERE key = ? "
                + "AND status = 200", String.class, key)).isEqualTo("{\"data\": {\"x\": 1}}");

        // A GraphQL answer carrying a server error made no commit: the key is released for a retry.
        String failing = UUID.randomUUID().toString();
        MockHttpServletRequest second = new MockHttpServletRequest("POST", "/graphql");
        second.addHeader("Idempotency-Key", failing);
        second.setContent("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        idempotency.doFilter(second, new MockHttpServletResponse(), (rq, rs) -> {
            ((jakarta.servlet.http.HttpServletResponse) rs).setStatus(200);
            rs.getOutputStream().write(("{\"errors\": [{\"message\": \"the database is unavailable\", "
                    + "\"extensions\": {\"code\": \"DATABASE_UNAVAILABLE\", \"status\": 503}}], \"data\": null}")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        });
        assertThat(jdbc.queryForObject("SELECT count(*) FROM verso.idempotency_keys WHERE key = ?", Long.class, failing))
                .isZero();
    }

    /** Spring GraphQL carries thread-locals to the thread that runs a batch loader through context snapshots. */
    @Test
    void theClaimTravelsInAContextSnapshotToAnotherThread() throws Exception {
        Idempotency.Claim claim = new Idempotency.Claim("someone", UUID.randomUUID().toString(), 1,
                "2026-01-01 00:00:00+00");
        io.micrometer.context.ContextSnapshot snapshot;
        Idempotency.set(claim);
        try {
            snapshot = io.micrometer.context.ContextSnapshotFactory.builder().build().captureAll();
        } finally {
            Idempotency.set(null);
        }
        java.util.concurrent.CompletableFuture<java.util.Optional<Idempotency.Claim>> elsewhere =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try (io.micrometer.context.ContextSnapshot.Scope scope = snapshot.setThreadLocals()) {
                        return Idempotency.current();
                    }
                });
        assertThat(elsewhere.get()).hasValue(claim);
    }

    @Test
    void corsAnswersTheConfiguredOriginOnly() throws Exception {
        HttpResponse<String> preflight = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/sql"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", TestSecurity.ALLOWED_ORIGIN)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization, content-type, idempotency-key").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(preflight.statusCode()).isEqualTo(200);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).hasValue(TestSecurity.ALLOWED_ORIGIN);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods").orElse("")).contains("POST");
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers").orElse("").toLowerCase())
                .contains("authorization").contains("idempotency-key");

        HttpResponse<String> foreign = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/sql"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "https://evil.example")
                .header("Access-Control-Request-Method", "POST").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(foreign.statusCode()).isEqualTo(403);
        assertThat(foreign.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();

        HttpResponse<String> actual = post("/v1/sql", sqlBody("SHOW TABLES"), "Origin", TestSecurity.ALLOWED_ORIGIN);
        assertThat(actual.statusCode()).isEqualTo(200);
        assertThat(actual.headers().firstValue("Access-Control-Allow-Origin")).hasValue(TestSecurity.ALLOWED_ORIGIN);
        assertThat(actual.headers().firstValue("Access-Control-Expose-Headers").orElse("")).contains("X-Request-Id");
    }
}
