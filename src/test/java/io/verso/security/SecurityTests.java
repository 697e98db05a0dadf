package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Who may call and what they may touch, on every surface, as a client meets it: bearer JWTs signed by
 * the test key (expired, foreign issuer, foreign audience refused), API keys (revoked mid-session),
 * tables hidden from a role on /v1/sql (direct, join, history), REST and GraphQL (schema and queries),
 * privileges named in 403s, and the principal recorded with each commit.
 */
class SecurityTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Autowired
    JdbcTemplate jdbc;

    record Answer(int status, JsonNode body, String raw) {
        String code() {
            return body == null ? null : body.path("code").asString();
        }
    }

    private Answer call(String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = null;
        try {
            json = SqlClient.JSON.readTree(response.body());
        } catch (RuntimeException notJson) {
            // left null
        }
        return new Answer(response.statusCode(), json, response.body());
    }

    private Answer sqlAs(String token, String sql) throws Exception {
        return call("POST", "/v1/sql", SqlClient.JSON.writeValueAsString(Map.of("sql", sql, "params", List.of())),
                "Authorization", "Bearer " + token);
    }

    private static String graphql(String query) {
        return SqlClient.JSON.writeValueAsString(Map.of("query", query));
    }

    @Test
    void noCredentialsIsUnauthenticatedOnEverySurface() throws Exception {
        for (Answer answer : List.of(
                call("POST", "/v1/sql", "{\"sql\": \"SHOW TABLES\"}"),
                call("GET", "/v1/tables", null),
                call("GET", "/v1/commits/latest", null),
                call("POST", "/graphql", graphql("{ __typename }")),
                call("GET", "/actuator/metrics", null))) {
            assertThat(answer.status()).as(answer.raw()).isEqualTo(401);
            assertThat(answer.code()).isEqualTo("UNAUTHENTICATED");
        }
        // Probes stay open, without details.
        Answer health = call("GET", "/actuator/health", null);
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body().has("components")).isFalse();
        assertThat(call("GET", "/actuator/health/readiness", null).status()).isEqualTo(200);
    }

    @Test
    void tokensMustBeSignedCurrentAndForUs() throws Exception {
        Instant later = Instant.now().plusSeconds(600);
        assertThat(sqlAs(TestSecurity.jwt("ana"), "SHOW TABLES").status()).isEqualTo(200);
        Map<String, String> refused = Map.of(
                "expired", TestSecurity.jwt("ana", List.of(), TestSecurity.ISSUER, TestSecurity.AUDIENCE,
                        Instant.now().minusSeconds(300)),
                "iss", TestSecurity.jwt("ana", List.of(), "https://elsewhere.test", TestSecurity.AUDIENCE, later),
                "aud", TestSecurity.jwt("ana", List.of(), TestSecurity.ISSUER, "another-service", later),
                "signature", TestSecurity.jwt("ana").replaceAll(".{8}$", "AAAAAAAA"),
                "garbage", "not.a.jwt");
        for (var token : refused.entrySet()) {
            Answer answer = sqlAs(token.getValue(), "SHOW TABLES");
            assertThat(answer.status()).as(token.getKey() + ": " + answer.raw()).isEqualTo(401);
            assertThat(answer.code()).isEqualTo("UNAUTHENTICATED");
        }
        assertThat(sqlAs(refused.get("expired"), "SHOW TABLES").body().path("detail").asString()).contains("expired");
        // An admin's token (the admin role in the roles claim) may do everything.
        String table = table("by_admin_jwt");
        assertThat(sqlAs(TestSecurity.jwt("root", "admin"), "CREATE TABLE " + table + " (k INT PRIMARY KEY)")
                .status()).isEqualTo(200);
    }

    /**
     * Whether security is on is this service's setting: a second application context in the same JVM (a test of mode
     * none starts one) sets {@link Caller}'s per-JVM flag, and the one-key reads answered ahead of the filter chain
     * once took every caller for the system then.
     */
    @Test
    void anotherContextWithoutSecurityOpensNothingHere() throws Exception {
        String secret = table("secret");
        String role = table("reader");
        sql.run("CREATE TABLE " + secret + " (k INT PRIMARY KEY, v TEXT) VERSIONED; UPSERT INTO " + secret
                + " VALUES (1, 's'); CREATE ROLE " + role);
        String path = "/v1/tables/" + secret + "/row?key=1";
        Caller.securityOn(false);
        try {
            assertThat(call("GET", path, null, "Authorization", "Bearer " + TestSecurity.jwt("rita", role)).status())
                    .isEqualTo(404);
            assertThat(call("GET", path, null).status()).isEqualTo(401);
            assertThat(call("POST", "/graphql", graphql("{ " + secret + "_by_key(k: 1) { v } }"), "Authorization",
                    "Bearer " + TestSecurity.jwt("rita", role)).raw()).doesNotContain("\"s\"");
        } finally {
            Caller.securityOn(true);
        }
    }

    @Test
    void aTableWithoutGrantsIsUnknownOnEverySurface() throws Exception {
        String secret = table("secret");
        String open = table("open");
        String role = table("reader");
        sql.run("CREATE TABLE " + secret + " (k INT PRIMARY KEY, v TEXT) VERSIONED; CREATE TABLE " + open
                + " (k INT PRIMARY KEY, v TEXT) VERSIONED; UPSERT INTO " + secret + " VALUES (1, 's'); UPSERT INTO "
                + open + " VALUES (1, 'o'); CREATE ROLE " + role + "; GRANT SELECT ON TABLE " + open + " TO " + role);
        String reader = TestSecurity.jwt("rita", role);

        assertThat(sqlAs(reader, "SELECT v FROM " + open).status()).isEqualTo(200);
        for (String statement : List.of("SELECT v FROM " + secret,
                "SELECT o.v FROM " + open + " o JOIN " + secret + " s ON s.k = o.k",
                "SELECT * FROM history(" + secret + ")",
                "DESCRIBE " + secret,
                "UPSERT INTO " + secret + " VALUES (2, 'x')",
                "DROP TABLE " + secret)) {
            Answer answer = sqlAs(reader, statement);
            assertThat(answer.status()).as(statement + ": " + answer.raw()).isEqualTo(404);
            assertThat(answer.code()).isEqualTo("UNKNOWN_TABLE");
            assertThat(answer.body().path("detail").asString()).isEqualTo("unknown table '" + secret + "'");
        }
        // IF EXISTS answers as for a table that does not exist: nothing changed, nothing confirmed.
        Answer dropIfExists = sqlAs(reader, "DROP TABLE IF EXISTS " + secret);
        assertThat(dropIfExists.status()).as(dropIfExists.raw()).isEqualTo(200);
        assertThat(dropIfExists.raw()).contains("\"changed\":false");
        assertThat(sql.rows("SELECT v FROM " + secret)).containsExactly(List.of("s"));
        JsonNode tables = sqlAs(reader, "SHOW TABLES").body().path("results").get(0).path("rows");
        assertThat(tables.toString()).contains(open).doesNotContain(secret);

        // REST: the same answer as for a table that does not exist.
        String auth = "Bearer " + reader;
        for (String path : List.of("/v1/tables/" + secret, "/v1/tables/" + secret + "/rows",
                "/v1/tables/" + secret + "/row?key=1")) {
            Answer answer = call("GET", path, null, "Authorization", auth);
            assertThat(answer.status()).as(path + ": " + answer.raw()).isEqualTo(404);
            assertThat(answer.code()).isEqualTo("UNKNOWN_TABLE");
        }
        assertThat(call("GET", "/v1/tables/" + open + "/rows", null, "Authorization", auth).status()).isEqualTo(200);
        assertThat(call("GET", "/v1/tables", null, "Authorization", auth).raw()).contains(open).doesNotContain(secret);

        // GraphQL: the schema of this caller does not name the table; a query for it fails to validate.
        Answer schema = call("POST", "/graphql", graphql("{ __schema { queryType { fields { name } } } }"),
                "Authorization", auth);
        assertThat(schema.status()).isEqualTo(200);
        assertThat(schema.raw()).contains(open).doesNotContain(secret);
        Answer query = call("POST", "/graphql", graphql("{ " + secret + " { nodes { k } } }"), "Authorization", auth);
        assertThat(query.raw()).contains("errors").doesNotContain("\"s\"");
        Answer allowed = call("POST", "/graphql", graphql("{ " + open + " { nodes { k v } } }"), "Authorization", auth);
        assertThat(allowed.raw()).as(allowed.raw()).contains("\"o\"");
    }

    @Test
    void missingPrivilegesAreNamedAndCommitsRecordTheirPrincipal() throws Exception {
        String t = table("ledger");
        String role = table("clerk");
        sql.run("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT) VERSIONED; CREATE ROLE " + role
                + "; GRANT SELECT ON TABLE " + t + " TO " + role);
        String clerk = TestSecurity.jwt("carl", role);

        Answer write = sqlAs(clerk, "UPSERT INTO " + t + " VALUES (1, 'a')");
        assertThat(write.status()).as(write.raw()).isEqualTo(403);
        assertThat(write.code()).isEqualTo("FORBIDDEN");
        assertThat(write.body().path("detail").asString()).contains("WRITE").contains(t);
        Answer drop = sqlAs(clerk, "DROP TABLE " + t);
        assertThat(drop.status()).isEqualTo(403);
        assertThat(drop.body().path("detail").asString()).contains("ADMIN");
        assertThat(sqlAs(clerk, "CREATE TABLE " + t + "_x (k INT)").status()).isEqualTo(403);
        assertThat(sqlAs(clerk, "GRANT ALL ON TABLE " + t + " TO " + role).status()).isEqualTo(403);
        assertThat(call("GET", "/v1/commits/latest", null, "Authorization", "Bearer " + clerk).status()).isEqualTo(403);
        assertThat(call("GET", "/v1/admin/api-keys", null, "Authorization", "Bearer " + clerk).status()).isEqualTo(403);

        sql.run("GRANT WRITE ON TABLE " + t + " TO " + role);
        // The actor header is not who made the commit: the token's subject is.
        Answer written = call("POST", "/v1/sql", "{\"sql\": \"UPSERT INTO " + t + " VALUES (1, 'a')\"}",
                "Authorization", "Bearer " + clerk, "Verso-Actor", "somebody-else");
        assertThat(written.status()).as(written.raw()).isEqualTo(200);
        long commit = Long.parseLong(written.body().path("commit").asString());
        assertThat(jdbc.queryForObject("SELECT principal FROM verso.commits WHERE seq = ?", String.class, commit))
                .isEqualTo("jwt:carl");

        JsonNode grants = sql.run("SHOW GRANTS FOR " + role).path("results").get(0).path("rows");
        assertThat(grants.toString()).contains("\"TABLE " + t + "\",\"SELECT\"").contains("\"TABLE " + t + "\",\"WRITE\"");
        sql.run("REVOKE ALL ON TABLE " + t + " FROM " + role);
        // Grants reach the checks within a few seconds at most (at once on this instance).
        assertThat(sqlAs(clerk, "SELECT * FROM " + t).code()).isEqualTo("UNKNOWN_TABLE");
        assertThat(sqlAs(TestSecurity.jwt("carl"), "SHOW GRANTS").status()).isEqualTo(403);
        sql.fails(404, "UNKNOWN_ROLE", "GRANT SELECT ON ALL TABLES TO nobody_such_role");
    }

    @Test
    void apiKeysAreShownOnceAndRevokedAtOnce() throws Exception {
        String t = table("keyed");
        String role = table("ingest");
        sql.run("CREATE TABLE " + t + " (k INT PRIMARY KEY) VERSIONED; CREATE ROLE " + role
                + "; GRANT SELECT ON TABLE " + t + " TO " + role + "; GRANT WRITE ON TABLE " + t + " TO " + role);
        String admin = TestSecurity.ADMIN_KEY;
        Answer created = call("POST", "/v1/admin/api-keys", "{\"name\": \"" + role + "\", \"roles\": [\"" + role + "\"]}",
                "X-API-Key", admin);
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String key = created.body().path("key").asString();
        String id = created.body().path("id").asString();
        assertThat(key).startsWith("vk_");
        Answer listed = call("GET", "/v1/admin/api-keys", null, "X-API-Key", admin);
        assertThat(listed.raw()).contains(role).doesNotContain(key);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM verso.api_keys WHERE key_hash = ?", Long.class, key))
                .isZero();

        String upsert = "{\"sql\": \"UPSERT INTO " + t + " VALUES (1)\"}";
        assertThat(call("POST", "/v1/sql", upsert, "X-API-Key", key).status()).isEqualTo(200);
        assertThat(call("POST", "/v1/sql", upsert, "Authorization", "Bearer " + key).status()).isEqualTo(200);
        assertThat(call("POST", "/v1/sql", "{\"sql\": \"DROP TABLE " + t + "\"}", "X-API-Key", key).status())
                .isEqualTo(403);

        assertThat(call("DELETE", "/v1/admin/api-keys/" + id, null, "X-API-Key", admin).status()).isEqualTo(200);
        Answer revoked = call("POST", "/v1/sql", upsert, "X-API-Key", key);
        assertThat(revoked.status()).as(revoked.raw()).isEqualTo(401);
        assertThat(revoked.code()).isEqualTo("UNAUTHENTICATED");
        assertThat(call("POST", "/v1/sql", upsert, "X-API-Key", "vk_made_up").status()).isEqualTo(401);
    }
}
