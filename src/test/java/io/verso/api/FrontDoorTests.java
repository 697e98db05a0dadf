package io.verso.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The front door answers a hot read as the filter chain and MVC do, for every caller, or leaves it to them. Each
 * request goes twice: as is, which the front door may answer, and with its table name percent-encoded, which it
 * never takes (the chain's security, admission and headers, then MVC's controller). The two answers must agree in
 * status, in every header a client or browser acts on, and in body (but for the request id and the path echoed as
 * a problem's instance); and the front door must have answered exactly the requests a caller of the chain would
 * have been let through with. Callers are API keys of roles granted reading, granted only writing and granted
 * nothing, a revoked key, an unknown one, none, bearer JWTs valid, expired and of another audience, a cross-origin
 * browser.
 */
class FrontDoorTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<String> HEADERS = List.of("Content-Type", "Verso-Commit", "ETag", "Cache-Control",
            "WWW-Authenticate", "Retry-After", "X-Content-Type-Options", "X-XSS-Protection", "X-Frame-Options",
            "Strict-Transport-Security", "Access-Control-Allow-Origin", "Access-Control-Allow-Credentials",
            "Access-Control-Expose-Headers", "Vary");

    @Autowired
    FrontDoor frontDoor;

    private record Case(String table, String query, Map<String, String> headers, boolean front) {
    }

    @Test
    void everyCallerGetsTheChainsAnswerWhicheverWayItTakes() throws Exception {
        String t = table("door");
        String secret = table("door_secret");
        String reader = table("door_reader");
        String writer = table("door_writer");
        String nobody = table("door_nobody");
        sql.run("CREATE TABLE " + t + " (id BIGINT, region TEXT, name TEXT, PRIMARY KEY (id, region)) VERSIONED; "
                + "CREATE TABLE " + secret + " (id BIGINT PRIMARY KEY, v TEXT); CREATE ROLE " + reader
                + "; CREATE ROLE " + writer + "; CREATE ROLE " + nobody + "; GRANT SELECT ON TABLE " + t + " TO "
                + reader + "; GRANT WRITE ON TABLE " + t + " TO " + writer);
        String first = sql.run("UPSERT INTO " + t + " VALUES (1, 'eu', 'a'), (2, 'us', 'b')").path("commit").asString();
        String second = sql.run("UPSERT INTO " + t + " VALUES (1, 'eu', 'c')").path("commit").asString();
        sql.run("UPSERT INTO " + secret + " VALUES (1, 's')");
        Map<String, String> admin = Map.of(TestSecurity.HEADER, TestSecurity.ADMIN_KEY);
        Map<String, String> readerKey = Map.of(TestSecurity.HEADER, key(reader)[1]);
        Map<String, String> readerBearer = Map.of("Authorization", "Bearer " + key(reader)[1]);
        Map<String, String> writerKey = Map.of(TestSecurity.HEADER, key(writer)[1]);
        Map<String, String> nobodyKey = Map.of(TestSecurity.HEADER, key(nobody)[1]);
        String[] revoked = key(reader);
        send("DELETE", "/v1/admin/api-keys/" + revoked[0], admin);
        Map<String, String> revokedKey = Map.of(TestSecurity.HEADER, revoked[1]);
        Map<String, String> unknownKey = Map.of(TestSecurity.HEADER, "vk_" + UUID.randomUUID());
        Map<String, String> jwt = Map.of("Authorization", "Bearer " + TestSecurity.jwt("rita", reader));
        String etag = send("GET", "/v1/tables/" + t + "/row?key=1&key=eu", admin).headers().firstValue("ETag")
                .orElseThrow();

        String key = "key=1&key=eu";
        double routedBefore = routed();
        List<Case> cases = new ArrayList<>();
        for (String query : List.of(key, key + "&asOfCommit=" + first, key + "&atLeastCommit=" + second,
                key + "&asOfTime=2000-01-01T00:00:00Z", "key=3&key=eu", "key=1", "key=x&key=eu",
                key + "&asOfCommit=later", key + "&asOfCommit=1&asOfTime=2000-01-01T00:00:00Z")) {
            cases.add(new Case(t, query, admin, true));
            cases.add(new Case(t, query, readerKey, true));
        }
        cases.add(new Case(table("door_none"), "key=1", admin, true));
        cases.add(new Case(t, "key=2&key=us", readerBearer, true));
        cases.add(new Case(secret, "key=1", readerKey, true));
        cases.add(new Case(t, key, writerKey, true));
        cases.add(new Case(t, key, nobodyKey, true));
        cases.add(new Case(t, key, with(admin, "If-None-Match", etag), true));
        cases.add(new Case(t, key, with(readerKey, "If-None-Match", "\"other\""), true));
        cases.add(new Case(t, key, with(admin, "Verso-Min-Commit", second), true));
        cases.add(new Case(t, key, with(admin, "X-Request-Id", "caller-chosen-id"), true));
        cases.add(new Case(t, key, with(admin, "Accept", "*/*"), true));
        // Left to the chain: it refuses them, or decides them by machinery of its own.
        cases.add(new Case(t, key, with(admin, "Verso-Min-Commit", "soon"), false));
        cases.add(new Case(t, key, revokedKey, false));
        cases.add(new Case(t, key, unknownKey, false));
        cases.add(new Case(t, key, Map.of(TestSecurity.HEADER, ""), false));
        cases.add(new Case(t, key, Map.of(), false));
        cases.add(new Case(t, key, jwt, true));
        cases.add(new Case(secret, "key=1", jwt, true));
        cases.add(new Case(t, key, jwt, true)); // trusted from the cache this time
        cases.add(new Case(t, key, Map.of("Authorization", "Bearer " + TestSecurity.jwt("rita", List.of(reader),
                TestSecurity.ISSUER, TestSecurity.AUDIENCE, Instant.now().minusSeconds(10))), true)); // within the skew
        cases.add(new Case(t, key, Map.of("Authorization", "Bearer " + TestSecurity.jwt("rita", List.of(reader),
                TestSecurity.ISSUER, TestSecurity.AUDIENCE, Instant.now().minusSeconds(600))), false));
        cases.add(new Case(t, key, Map.of("Authorization", "Bearer " + TestSecurity.jwt("rita", List.of(reader),
                TestSecurity.ISSUER, "another-audience", Instant.now().plusSeconds(600))), false));
        cases.add(new Case(t, key, Map.of("Authorization", "Bearer not.a.token"), false));
        cases.add(new Case(t, key, Map.of("Authorization", "Bearer two words"), false));
        cases.add(new Case(t, key, with(readerKey, "Origin", TestSecurity.ALLOWED_ORIGIN), false));
        cases.add(new Case(t, key, with(readerKey, "Origin", "https://elsewhere.test"), false));
        cases.add(new Case(t, "key=1&key=%00", admin, false));
        cases.add(new Case(t, "key=1&key=%ED%A0%80", admin, false));
        cases.add(new Case(t, "key=1&key=e%01u", admin, false));

        for (Case c : cases) {
            long before = frontDoor.answered();
            HttpResponse<String> door = send("GET", "/v1/tables/" + c.table() + "/row?" + c.query(), c.headers());
            long answered = frontDoor.answered() - before;
            HttpResponse<String> chain = send("GET", "/v1/tables/%" + Integer.toHexString(c.table().charAt(0))
                    + c.table().substring(1) + "/row?" + c.query(), c.headers());
            String what = c.table() + "?" + c.query() + " " + c.headers().keySet() + ": " + door.body();
            assertThat(answered).as("answered by the front door: " + what).isEqualTo(c.front() ? 1 : 0);
            assertThat(door.statusCode()).as(what).isEqualTo(chain.statusCode());
            for (String header : HEADERS) {
                assertThat(door.headers().allValues(header)).as(what + " " + header)
                        .isEqualTo(chain.headers().allValues(header));
            }
            assertThat(door.headers().firstValue("X-Request-Id")).as(what).isPresent();
            if (c.headers().containsKey("X-Request-Id")) {
                assertThat(door.headers().firstValue("X-Request-Id")).contains(c.headers().get("X-Request-Id"));
            }
            assertThat(comparable(door.body(), door.headers().firstValue("X-Request-Id").orElseThrow())).as(what)
                    .isEqualTo(comparable(chain.body(), chain.headers().firstValue("X-Request-Id").orElseThrow()));
        }
        // Every answer the front door gave is counted under the route by http.server.requests, as the chain's are.
        assertThat(routed()).as("requests of the route in http.server.requests")
                .isGreaterThanOrEqualTo(routedBefore + cases.stream().filter(Case::front).count());
    }

    /** Requests of the one-key route counted by http.server.requests (Prometheus). */
    private double routed() throws Exception {
        String scrape = send("GET", "/actuator/prometheus", Map.of(TestSecurity.HEADER, TestSecurity.ADMIN_KEY)).body();
        Matcher m = Pattern.compile("(?m)^http_server_requests_seconds_count\\{(.*)} (\\S+)$").matcher(scrape);
        double sum = 0;
        while (m.find()) {
            if (m.group(1).contains("uri=\"/v1/tables/{table}/row\"")) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    /**
     * A GraphQL read is answered at the front door, and by the chain when it comes from a browser of an allowed origin
     * (which the front door leaves to the chain's CORS): the two answers must be the same but for the CORS headers,
     * for an API key and a bearer JWT of a role.
     */
    @Test
    void graphqlReadsByKeyAnswerAsTheChainDoes() throws Exception {
        String t = table("door_gql");
        String secret = table("door_gql_secret");
        String reader = table("door_gql_reader");
        sql.run("CREATE TABLE " + t + " (id BIGINT, region TEXT, name TEXT, PRIMARY KEY (id, region)) VERSIONED; "
                + "CREATE TABLE " + secret + " (id BIGINT PRIMARY KEY, v TEXT); CREATE ROLE " + reader
                + "; GRANT SELECT ON TABLE " + t + " TO " + reader);
        sql.run("UPSERT INTO " + t + " VALUES (1, 'eu', 'a'), (2, 'us', 'b'); UPSERT INTO " + secret + " VALUES (1, 's')");
        Map<String, String> keyed = Map.of(TestSecurity.HEADER, key(reader)[1]);
        Map<String, String> jwt = Map.of("Authorization", "Bearer " + TestSecurity.jwt("rita", reader));
        String byKey = "{ " + t + "_by_key(id: 1, region: \"eu\") { id region name } }";
        graphql(byKey, keyed); // the first request after DDL learns of the table
        record Query(String document, Map<String, String> headers, Boolean front) {
        }
        List<Query> queries = List.of(
                new Query(byKey, Map.of(), true),
                new Query("{ " + t + "_by_key(id: 3, region: \"eu\") { name } }", Map.of(), true),
                new Query("{ " + t + "_by_key(id: 2, region: \"us\") { name } }", Map.of("Accept",
                        "application/graphql-response+json"), true),
                new Query("{ " + secret + "_by_key(id: 1) { v } }", Map.of(), null),
                new Query("{ " + t + "_by_key(id: 1) { name } }", Map.of(), null),
                new Query("{ " + t + " { nodes { id name } } }", Map.of(), false),
                new Query(byKey, Map.of("Idempotency-Key", "door-" + UUID.randomUUID()), false),
                new Query("{ " + t + "_by_key(id: 1, region: \"e\0u\") { name } }", Map.of(), false));
        for (Map<String, String> caller : List.of(keyed, jwt)) {
            for (Query q : queries) {
                Map<String, String> headers = new LinkedHashMap<>(caller);
                headers.putAll(q.headers());
                long before = frontDoor.answered();
                HttpResponse<String> door = graphql(q.document(), headers);
                long answered = frontDoor.answered() - before;
                Map<String, String> browser = with(headers, "Origin", TestSecurity.ALLOWED_ORIGIN);
                browser.computeIfPresent("Idempotency-Key", (name, value) -> "door-" + UUID.randomUUID()); // not a retry
                HttpResponse<String> chain = graphql(q.document(), browser);
                String what = q.document() + " " + headers.keySet() + ": " + door.body();
                if (q.front() != null) {
                    assertThat(answered).as("answered by the front door: " + what).isEqualTo(q.front() ? 1 : 0);
                }
                assertThat(chain.headers().firstValue("Access-Control-Allow-Origin")).as("through CORS: " + what)
                        .contains(TestSecurity.ALLOWED_ORIGIN);
                assertThat(door.statusCode()).as(what).isEqualTo(chain.statusCode());
                for (String header : HEADERS) {
                    if (!header.startsWith("Access-Control-")) {
                        assertThat(door.headers().allValues(header)).as(what + " " + header)
                                .isEqualTo(chain.headers().allValues(header));
                    }
                }
                assertThat(comparable(door.body(), door.headers().firstValue("X-Request-Id").orElseThrow())).as(what)
                        .isEqualTo(comparable(chain.body(), chain.headers().firstValue("X-Request-Id").orElseThrow()));
            }
        }
    }

    private HttpResponse<String> graphql(String document, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/graphql"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(SqlClient.JSON.writeValueAsString(Map.of("query", document))));
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void pathsTheFirewallRefusesAreLeftToIt() throws Exception {
        for (String path : List.of("/v1/tables/../row", "/v1/tables/./row", "/v1/tables/a\\b/row")) {
            long before = frontDoor.answered();
            HttpResponse<String> answer = send("GET", path.replace("\\", "%5C") + "?key=1",
                    Map.of(TestSecurity.HEADER, TestSecurity.ADMIN_KEY));
            assertThat(frontDoor.answered()).as(path).isEqualTo(before);
            assertThat(answer.statusCode()).as(path + ": " + answer.body()).isBetween(400, 404);
        }
    }

    private static Map<String, String> with(Map<String, String> headers, String name, String value) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put(name, value);
        return all;
    }

    /** A new API key of {@code role}: its id and the key. */
    private String[] key(String role) throws Exception {
        HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/v1/admin/api-keys")).header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"" + table("key") + "\", \"roles\": [\""
                        + role + "\"]}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode body = SqlClient.JSON.readTree(created.body());
        return new String[] {body.get("id").asString(), body.get("key").asString()};
    }

    private HttpResponse<String> send(String method, String pathAndQuery, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .method(method, HttpRequest.BodyPublishers.noBody());
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The body without what differs between the two requests: the request id and the path echoed. */
    private static String comparable(String body, String requestId) {
        if (!body.startsWith("{")) {
            return body.replace(requestId, "<id>");
        }
        ObjectNode json = (ObjectNode) SqlClient.JSON.readTree(body);
        assertThat(json.path("requestId").isMissingNode() || json.path("requestId").asString().equals(requestId))
                .as("the problem's requestId is the response's X-Request-Id: " + body).isTrue();
        json.remove("requestId");
        json.remove("instance");
        return json.toString();
    }
}
