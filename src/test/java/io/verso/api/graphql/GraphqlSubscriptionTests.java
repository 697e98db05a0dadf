package io.verso.api.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.GraphqlSocket;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The change feed as a GraphQL subscription over a real WebSocket (graphql-transport-ws), with
 * security on: credentials on the handshake or in connection_init, the caller's readable tables
 * only, the same changes as the REST feed, resuming after a commit.
 */
class GraphqlSubscriptionTests extends GraphqlSupport {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aSubscriptionReplaysTheRestFeedThenFollowsNewCommitsAndResumesAfterACommit() throws Exception {
        String t = table("subs");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT, n NUMERIC(10,2), ix INT) VERSIONED VALID BY (ix)");
        sql.write("UPSERT INTO " + t + " VALUES (1, 'a', 1.50, 1), (2, 'b', 2.00, 1)");
        long second = sql.write("UPSERT INTO " + t + " VALUES (1, 'a2', 1.75, 2)");
        sql.write("UPSERT INTO " + t + " VALUES (2, 'late', 0, 0)"); // loses on arrival: no change
        sql.write("DELETE FROM " + t + " WHERE k = 2 AT (ix = 5)");

        List<JsonNode> events = new ArrayList<>();
        try (GraphqlSocket socket = GraphqlSocket.open(port, Map.of(TestSecurity.HEADER, TestSecurity.ADMIN_KEY), Map.of())) {
            assertThat(socket.next().get("type").asString()).isEqualTo("connection_ack");
            socket.subscribe("1", t, 0);
            for (int i = 0; i < 3; i++) {
                events.add(socket.data("1", t));
            }
            // Live: a commit made now arrives as the next event.
            long live = sql.write("UPSERT INTO " + t + " VALUES (3, 'c', 3.00, 1)");
            JsonNode event = socket.data("1", t);
            assertThat(event.get("commit").asString()).isEqualTo(Long.toString(live));
            events.add(event);
        }
        // Exactly the REST feed's changes, commit by commit.
        JsonNode rest = SqlClient.JSON.readTree(get("/v1/tables/" + t + "/changes?after=0"));
        List<String> fromRest = new ArrayList<>();
        rest.get("changes").forEach(c -> fromRest.add(c.toString()));
        List<String> fromSubscription = new ArrayList<>();
        events.forEach(e -> e.get("changes").forEach(c -> fromSubscription.add(c.toString())));
        assertThat(fromSubscription).isEqualTo(fromRest);
        assertThat(fromRest).hasSize(5);
        assertThat(events.get(2).get("changes").get(0).get("op").asString()).isEqualTo("delete");

        // Resuming after a commit gets everything after it and nothing twice.
        try (GraphqlSocket socket = GraphqlSocket.open(port, Map.of(TestSecurity.HEADER, TestSecurity.ADMIN_KEY), Map.of())) {
            socket.next();
            socket.subscribe("r", t, second);
            JsonNode first = socket.data("r", t);
            assertThat(Long.parseLong(first.get("commit").asString())).isGreaterThan(second);
            assertThat(first.toString()).isEqualTo(events.get(2).toString());
            assertThat(socket.data("r", t).toString()).isEqualTo(events.get(3).toString());
            // Cancelled by the client: the server completes nothing more, and later commits are not sent.
            socket.send(Map.of("id", "r", "type", "complete"));
        }
    }

    @Test
    void connectionInitCredentialsSeeOnlyTheCallersReadableTables() throws Exception {
        String readable = table("subs_ok");
        String hidden = table("subs_hidden");
        String role = "subs_reader_" + readable.substring(readable.indexOf('_', 5) + 1);
        sql.write("CREATE TABLE " + readable + " (k INT PRIMARY KEY, v INT) VERSIONED");
        sql.write("CREATE TABLE " + hidden + " (k INT PRIMARY KEY, v INT) VERSIONED");
        sql.write("CREATE ROLE " + role + "; GRANT SELECT ON TABLE " + readable + " TO " + role);
        long commit = sql.write("UPSERT INTO " + readable + " VALUES (1, 10); UPSERT INTO " + hidden + " VALUES (1, 20)");
        String token = TestSecurity.jwt("subscriber", role);

        // No handshake header: the token comes in connection_init, as a browser sends it.
        try (GraphqlSocket socket = GraphqlSocket.open(port, Map.of(), Map.of("Authorization", "Bearer " + token))) {
            assertThat(socket.next().get("type").asString()).isEqualTo("connection_ack");
            socket.subscribe("ok", readable, 0);
            JsonNode event = socket.data("ok", readable);
            assertThat(event.get("commit").asString()).isEqualTo(Long.toString(commit));
            assertThat(event.get("changes").get(0).get("row").get("v").asInt()).isEqualTo(10);

            // The other table is not in this caller's schema: unknown, never confirmed to exist.
            socket.subscribe("no", hidden, 0);
            JsonNode refused = socket.next();
            assertThat(refused.get("id").asString()).isEqualTo("no");
            assertThat(refused.get("payload").get("data")).as(refused.toString()).isNull();
            assertThat(refused.get("payload").get("errors").get(0).get("message").asString())
                    .contains("'" + hidden + "_changes'", "undefined");
            assertThat(refused.toString()).doesNotContain("\"v\":20");

            // A cursor that is no commit is refused with the feed's own code, before any event.
            socket.subscribe("bad", readable, -1);
            JsonNode bad = socket.next();
            while (bad.get("id").asString().equals("no")) {
                bad = socket.next(); // the refused subscription's "complete"
            }
            assertThat(bad.get("id").asString()).isEqualTo("bad");
            assertThat(bad.toString()).as(bad.toString()).contains("INVALID_PARAMETER", "after must be");

            // A cursor after the latest commit was never handed out: refused, not followed silently.
            socket.subscribe("beyond", readable, commit + 1000);
            JsonNode beyond = socket.next();
            while (!beyond.get("id").asString().equals("beyond")) {
                beyond = socket.next(); // the refused subscriptions' "complete"
            }
            assertThat(beyond.toString()).as(beyond.toString()).contains("FEED_BEYOND_LATEST");
        }
    }

    @Test
    void aSessionWithoutValidCredentialsIsClosedBeforeAnyOperation() throws Exception {
        try (GraphqlSocket socket = GraphqlSocket.open(port, Map.of(), Map.of())) {
            assertThat(socket.closed().get(10, TimeUnit.SECONDS)).isEqualTo(4401);
        }
        try (GraphqlSocket socket = GraphqlSocket.open(port, Map.of(), Map.of("X-API-Key", "vk_not_a_key"))) {
            assertThat(socket.closed().get(10, TimeUnit.SECONDS)).isEqualTo(4401);
        }
        // A bad key on the handshake itself is refused by the HTTP filters: no WebSocket at all.
        CompletableFuture<WebSocket> refused = HTTP.newWebSocketBuilder().header(TestSecurity.HEADER, "vk_wrong")
                .subprotocols("graphql-transport-ws")
                .buildAsync(URI.create("ws://localhost:" + port + "/graphql-ws"), new WebSocket.Listener() {
                });
        assertThat(refused).failsWithin(Duration.ofSeconds(10));
    }

    @Test
    void derivedTablesHaveASubscriptionButNoMutations() throws Exception {
        String source = table("subs_src");
        String derived = table("subs_der");
        sql.write("CREATE TABLE " + source + " (k INT PRIMARY KEY, g TEXT, v INT) VERSIONED");
        sql.write("CREATE DERIVED TABLE " + derived + " PRIMARY KEY (g) AS SELECT g, sum(v) AS total FROM " + source
                + " GROUP BY g");
        long commit = sql.write("UPSERT INTO " + source + " VALUES (1, 'x', 5), (2, 'x', 7)");
        String schema = post("{\"query\":\"{ __type(name: \\\"Mutation\\\") { fields { name } } }\"}")
                + post("{\"query\":\"{ __type(name: \\\"Subscription\\\") { fields { name } } }\"}");
        assertThat(schema).contains("\"upsert_" + source + "\"", "\"" + derived + "_changes\"",
                "\"" + source + "_changes\"");
        assertThat(schema).doesNotContain("upsert_" + derived, "insert_" + derived, "delete_" + derived);

        try (GraphqlSocket socket = GraphqlSocket.open(port, Map.of(), Map.of(TestSecurity.HEADER, TestSecurity.ADMIN_KEY))) {
            socket.next();
            socket.subscribe("d", derived, 0);
            JsonNode event = socket.data("d", derived);
            assertThat(event.get("commit").asString()).isEqualTo(Long.toString(commit));
            assertThat(event.get("changes").get(0).get("row").get("total").asString()).isEqualTo("12");
        }
    }

    private String get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private String post(String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/graphql"))
                .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
