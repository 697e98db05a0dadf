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
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * One principal namespace: a token is {@code jwt:<sub>}, an API key {@code key:<name>}, the admin key
 * {@code admin-api-key}, so no token can pass for a key (its idempotent answers, its commits) or for the
 * admin key; tokens without {@code sub} or {@code exp}, or living longer than the configured maximum, are
 * refused; every commit names its principal.
 */
class PrincipalNamespaceTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Autowired
    JdbcTemplate jdbc;

    private HttpResponse<String> sqlAs(String header, String value, String statement, String... more) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/sql"))
                .header("Content-Type", "application/json").header(header, value)
                .POST(HttpRequest.BodyPublishers.ofString(SqlClient.JSON.writeValueAsString(Map.of("sql", statement))));
        for (int i = 0; i < more.length; i += 2) {
            request.header(more[i], more[i + 1]);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String principalOf(HttpResponse<String> write) {
        assertThat(write.statusCode()).as(write.body()).isEqualTo(200);
        long commit = Long.parseLong(SqlClient.JSON.readTree(write.body()).get("commit").asString());
        return jdbc.queryForObject("SELECT principal FROM verso.commits WHERE seq = ?", String.class, commit);
    }

    private String createKey(String name, String role) throws Exception {
        HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                        + "/v1/admin/api-keys")).header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"" + name + "\", \"roles\": [\"" + role + "\"]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return SqlClient.JSON.readTree(created.body()).get("key").asString();
    }

    @Test
    void aTokenNamedLikeAKeyGetsNeitherItsIdempotentAnswerNorItsName() throws Exception {
        String t = table("ns");
        String role = table("writer");
        String name = table("ana");
        sql.run("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT) VERSIONED; CREATE ROLE " + role
                + "; GRANT ALL ON TABLE " + t + " TO " + role + "; UPSERT INTO " + t + " VALUES (1, 'secret')");
        String key = createKey(name, role);
        String idempotencyKey = UUID.randomUUID().toString();
        String read = "SELECT v FROM " + t;
        HttpResponse<String> first = sqlAs(TestSecurity.HEADER, key, read, "Idempotency-Key", idempotencyKey);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).contains("secret");

        // Before: a token with sub key:<name> was the key's principal, and got its stored answer back.
        String impostor = TestSecurity.jwt("key:" + name);
        HttpResponse<String> replay = sqlAs("Authorization", "Bearer " + impostor, read, "Idempotency-Key",
                idempotencyKey);
        assertThat(replay.headers().firstValue("Idempotency-Replayed")).isEmpty();
        assertThat(replay.body()).doesNotContain("secret");
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(404);
        assertThat(SqlClient.JSON.readTree(replay.body()).get("code").asString()).isEqualTo("UNKNOWN_TABLE");
        // The key's own retry still gets its answer.
        HttpResponse<String> retry = sqlAs(TestSecurity.HEADER, key, read, "Idempotency-Key", idempotencyKey);
        assertThat(retry.headers().firstValue("Idempotency-Replayed")).contains("true");

        // Commits name who made them, each in its own namespace.
        String upsert = "UPSERT INTO " + t + " VALUES (2, 'x')";
        assertThat(principalOf(sqlAs(TestSecurity.HEADER, key, upsert))).isEqualTo("key:" + name);
        assertThat(principalOf(sqlAs("Authorization", "Bearer " + TestSecurity.jwt("key:" + name, role), upsert)))
                .isEqualTo("jwt:key:" + name);
        assertThat(principalOf(sqlAs(TestSecurity.HEADER, TestSecurity.ADMIN_KEY, upsert))).isEqualTo("admin-api-key");
    }

    @Test
    void aTokenNamedLikeTheAdminKeyIsNoAdministrator() throws Exception {
        String t = table("ns_admin");
        sql.run("CREATE TABLE " + t + " (k INT PRIMARY KEY) VERSIONED");
        String token = TestSecurity.jwt("admin-api-key");
        HttpResponse<String> write = sqlAs("Authorization", "Bearer " + token, "UPSERT INTO " + t + " VALUES (1)");
        assertThat(write.statusCode()).as(write.body()).isEqualTo(404);
        HttpResponse<String> keys = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/v1/admin/api-keys")).header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(keys.statusCode()).isEqualTo(403);
        // With the admin role it may write, and the commit is its own, not the admin key's.
        String admin = TestSecurity.jwt("admin-api-key", "admin");
        assertThat(principalOf(sqlAs("Authorization", "Bearer " + admin, "UPSERT INTO " + t + " VALUES (1)")))
                .isEqualTo("jwt:admin-api-key");
    }

    @Test
    void tokensWithoutSubjectOrExpiryOrLivingTooLongAreRefused() throws Exception {
        Instant now = Instant.now();
        Date soon = Date.from(now.plusSeconds(600));
        Map<String, String> refused = Map.of(
                "'sub'", TestSecurity.signed(TestSecurity.claims(null, List.of("admin")).issueTime(Date.from(now))
                        .expirationTime(soon).build()),
                "'exp'", TestSecurity.signed(TestSecurity.claims("eve", List.of()).issueTime(Date.from(now)).build()),
                "max-lifetime", TestSecurity.signed(TestSecurity.claims("eve", List.of()).issueTime(Date.from(now))
                        .expirationTime(Date.from(now.plus(TestSecurity.MAX_LIFETIME).plusSeconds(60))).build()),
                "max-lifetime without iat", TestSecurity.signed(TestSecurity.claims("eve", List.of())
                        .expirationTime(Date.from(now.plus(TestSecurity.MAX_LIFETIME).plusSeconds(600))).build()));
        for (var token : refused.entrySet()) {
            HttpResponse<String> answer = sqlAs("Authorization", "Bearer " + token.getValue(), "SHOW TABLES");
            assertThat(answer.statusCode()).as(token.getKey() + ": " + answer.body()).isEqualTo(401);
            JsonNode body = SqlClient.JSON.readTree(answer.body());
            assertThat(body.get("code").asString()).isEqualTo("UNAUTHENTICATED");
            assertThat(body.get("detail").asString()).contains(token.getKey().replace(" without iat", ""));
        }
        // Within the lifetime, with both claims: accepted.
        String fine = TestSecurity.signed(TestSecurity.claims("eve", List.of()).issueTime(Date.from(now))
                .expirationTime(soon).build());
        assertThat(sqlAs("Authorization", "Bearer " + fine, "SHOW TABLES").statusCode()).isEqualTo(200);
    }
}
