package io.verso.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.security.Caller;
import io.verso.security.VersoPrincipal;
import io.verso.support.GraphqlSocket;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * What stays open after authentication answers to trust as it changes: a revoked API key, an expired
 * token, a dropped grant and a deleted role each end the SSE change streams and GraphQL subscriptions
 * opened with them within {@link #BOUND} (the service checks every {@code verso.feed.check-interval}, 1 s,
 * and before every delivery, so no commit made after the change reaches them), a revoked key or expired
 * token closes the GraphQL WebSocket (4401) and refuses any new operation on it, and the JSON feed pages
 * refuse them as every request does. Streams are bounded per caller (429 with Retry-After).
 */
class StreamTrustTests extends IntegrationTest {

    /** The stated bound (docs/security.md): the 1 s check interval, with room for a busy machine. */
    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Autowired
    FeedStreams streams;
    @Autowired
    ChangeFeed feed;
    @Autowired
    FeedProperties properties;

    private String[] keyOf(String role) throws Exception {
        String name = table("k");
        HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                        + "/v1/admin/api-keys")).header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"" + name + "\", \"roles\": [\"" + role + "\"]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode body = SqlClient.JSON.readTree(created.body());
        return new String[] {body.get("id").asString(), body.get("key").asString()};
    }

    private int page(String table, String header, String value) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/tables/" + table
                + "/changes?after=0")).header(header, value).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    /** A table readable by a new role, with one commit in it. */
    private String[] readableTable() {
        String t = table("trust");
        String role = table("watcher");
        sql.run("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT) VERSIONED; CREATE ROLE " + role
                + "; GRANT SELECT ON TABLE " + t + " TO " + role + "; UPSERT INTO " + t + " VALUES (1, 'a')");
        return new String[] {t, role};
    }

    /** An SSE stream and a subscription opened with the credentials, each having had the table's first commit. */
    private record Open(SseClient sse, GraphqlSocket socket) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            sse.close();
            socket.close();
        }
    }

    private Open open(String table, String header, String value) throws Exception {
        SseClient sse = new SseClient(port, table, "?after=0", null, header, value);
        assertThat(sse.status).isEqualTo(200);
        assertThat(sse.next(Duration.ofSeconds(20)).name()).isEqualTo("commit");
        GraphqlSocket socket = GraphqlSocket.open(port, Map.of(), Map.of(header, value));
        assertThat(socket.next().get("type").asString()).isEqualTo("connection_ack");
        socket.subscribe("1", table, 0);
        assertThat(socket.data("1", table).get("changes")).hasSize(1);
        return new Open(sse, socket);
    }

    /** The stream ends within the bound with an error event of {@code code}, and nothing of {@code after} arrived. */
    private static Duration sseEnds(SseClient sse, String code, long after, long since) throws Exception {
        List<SseClient.Event> events = new ArrayList<>();
        assertThat(sse.ended.await(BOUND.toSeconds() + 20, TimeUnit.SECONDS)).as("the stream ended").isTrue();
        for (SseClient.Event e = sse.next(Duration.ZERO); e != null; e = sse.next(Duration.ZERO)) {
            events.add(e);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - since);
        assertThat(events).as("events after the change").isNotEmpty();
        SseClient.Event last = events.get(events.size() - 1);
        assertThat(last.name()).isEqualTo("error");
        assertThat(last.data()).contains(code);
        assertThat(events).noneMatch(e -> "commit".equals(e.name()) && Long.parseLong(e.id()) >= after);
        assertThat(took).as("ended within the bound").isLessThan(BOUND);
        return took;
    }

    /** The socket is closed with 4401 within the bound, and no event of {@code after} came before. */
    private static void socketCloses(GraphqlSocket socket, long after) throws Exception {
        int status = socket.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(status).isEqualTo(4401);
        assertThat(socket.pending()).noneMatch(m -> m.toString().contains("\"commit\":\"" + after + "\""));
    }

    @Test
    void aRevokedKeyEndsItsStreamsClosesItsSocketsAndIsRefusedOnPages() throws Exception {
        String[] t = readableTable();
        String[] key = keyOf(t[1]);
        try (Open open = open(t[0], TestSecurity.HEADER, key[1])) {
            assertThat(page(t[0], TestSecurity.HEADER, key[1])).isEqualTo(200);
            long revokedAt = System.nanoTime();
            assertThat(HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/admin/api-keys/"
                    + key[0])).header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            long after = sql.write("UPSERT INTO " + t[0] + " VALUES (2, 'after the revocation')");
            sseEnds(open.sse(), "UNAUTHENTICATED", after, revokedAt);
            socketCloses(open.socket(), after);
            assertThat(page(t[0], TestSecurity.HEADER, key[1])).isEqualTo(401);
        }
    }

    @Test
    void aRevokedKeyCannotStartAnythingOnASocketItOpened() throws Exception {
        String[] t = readableTable();
        String[] key = keyOf(t[1]);
        try (GraphqlSocket socket = GraphqlSocket.open(port, Map.of(), Map.of(TestSecurity.HEADER, key[1]))) {
            assertThat(socket.next().get("type").asString()).isEqualTo("connection_ack");
            HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/admin/api-keys/" + key[0]))
                    .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString());
            // At once, before the periodic check: the query is not run, the socket closes.
            socket.send(Map.of("id", "q", "type", "subscribe", "payload",
                    Map.of("query", "{ " + t[0] + " { nodes { k v } } }")));
            assertThat(socket.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo(4401);
            assertThat(socket.pending()).noneMatch(m -> m.toString().contains("\"a\""));
        }
    }

    @Test
    void anExpiredTokenEndsItsStreamsAndClosesItsSockets() throws Exception {
        String[] t = readableTable();
        Instant expires = Instant.now().plusSeconds(6);
        String token = TestSecurity.signed(TestSecurity.claims(table("erin"), List.of(t[1]))
                .issueTime(new Date()).expirationTime(Date.from(expires)).build());
        try (Open open = open(t[0], "Authorization", "Bearer " + token)) {
            Thread.sleep(Math.max(0, Duration.between(Instant.now(), expires).toMillis()));
            long expiredAt = System.nanoTime();
            long after = sql.write("UPSERT INTO " + t[0] + " VALUES (2, 'after the expiry')");
            sseEnds(open.sse(), "UNAUTHENTICATED", after, expiredAt);
            socketCloses(open.socket(), after);
        }
        // A page refuses an expired token as every request does (past the issuers' 60 s clock skew).
        String expired = TestSecurity.jwt("erin", List.of(t[1]), TestSecurity.ISSUER, TestSecurity.AUDIENCE,
                Instant.now().minusSeconds(300));
        assertThat(page(t[0], "Authorization", "Bearer " + expired)).isEqualTo(401);
    }

    @Test
    void aDroppedGrantOrADeletedRoleEndsTheStreamsOnThatTable() throws Exception {
        for (String change : List.of("REVOKE SELECT ON TABLE %s FROM %s", "DROP ROLE %2$s")) {
            String[] t = readableTable();
            String[] key = keyOf(t[1]);
            try (Open open = open(t[0], TestSecurity.HEADER, key[1])) {
                long changedAt = System.nanoTime();
                sql.run(String.format(change, t[0], t[1]));
                long after = sql.write("UPSERT INTO " + t[0] + " VALUES (2, 'after the change')");
                sseEnds(open.sse(), "UNKNOWN_TABLE", after, changedAt);
                // The subscription ends with the same code; the key still holds, so the socket stays open.
                JsonNode error = open.socket().next();
                assertThat(error.get("type").asString()).as(error.toString()).isEqualTo("error");
                assertThat(error.toString()).contains("UNKNOWN_TABLE").doesNotContain("after the change");
                open.socket().send(Map.of("id", "2", "type", "subscribe", "payload", Map.of("query", "{ __typename }")));
                assertThat(open.socket().next().get("type").asString()).isEqualTo("next");
                assertThat(page(t[0], TestSecurity.HEADER, key[1])).as(change).isEqualTo(404);
            }
        }
    }

    /** A round of checks looks the table up once for all its streams: a grant dropped for one caller ends only its. */
    @Test
    void aDroppedGrantEndsOnlyTheStreamsOfTheCallerThatLostIt() throws Exception {
        String[] t = readableTable();
        String other = table("watcher");
        sql.run("CREATE ROLE " + other + "; GRANT SELECT ON TABLE " + t[0] + " TO " + other);
        String[] losing = keyOf(t[1]);
        String[] keeping = keyOf(other);
        try (SseClient lost = new SseClient(port, t[0], "?after=0", null, TestSecurity.HEADER, losing[1]);
                SseClient kept = new SseClient(port, t[0], "?after=0", null, TestSecurity.HEADER, keeping[1])) {
            assertThat(lost.next(Duration.ofSeconds(20)).name()).isEqualTo("commit");
            assertThat(kept.next(Duration.ofSeconds(20)).name()).isEqualTo("commit");
            long changedAt = System.nanoTime();
            sql.run("REVOKE SELECT ON TABLE " + t[0] + " FROM " + t[1]);
            long after = sql.write("UPSERT INTO " + t[0] + " VALUES (2, 'after the change')");
            sseEnds(lost, "UNKNOWN_TABLE", after, changedAt);
            SseClient.Event event = kept.next(Duration.ofSeconds(20));
            while (event != null && !"commit".equals(event.name())) {
                event = kept.next(Duration.ofSeconds(20));
            }
            assertThat(event).as("the other caller's stream has the commit").isNotNull();
            assertThat(event.id()).isEqualTo(Long.toString(after));
            assertThat(kept.ended.getCount()).as("the other caller's stream is open").isEqualTo(1);
        }
    }

    @Test
    void aCallerAtItsStreamLimitIsRefusedWith429AndRetryAfter() throws Exception {
        String[] t = readableTable();
        String subject = table("many");
        VersoPrincipal principal = new VersoPrincipal("jwt:" + subject, Set.of(t[1]), false);
        ChangeFeed.Page first = Caller.as(principal, () -> feed.page(t[0], 0, ChangeFeed.DEFAULT_LIMIT));
        for (int i = 0; i < properties.maxStreamsPerCaller(); i++) {
            Caller.as(principal, () -> {
                streams.follow(t[0], first, new Quiet());
                return null;
            });
        }
        String token = TestSecurity.jwt(subject, t[1]);
        try (SseClient refused = new SseClient(port, t[0], "?after=0", null, "Authorization", "Bearer " + token);
             GraphqlSocket socket = GraphqlSocket.open(port, Map.of(), Map.of("Authorization", "Bearer " + token))) {
            assertThat(refused.status).isEqualTo(429);
            assertThat(refused.headers.firstValue("Retry-After")).isPresent();
            assertThat(socket.next().get("type").asString()).isEqualTo("connection_ack");
            socket.subscribe("1", t[0], 0);
            JsonNode error = socket.next();
            assertThat(error.get("type").asString()).as(error.toString()).isEqualTo("error");
            assertThat(error.toString()).contains("RATE_LIMITED").contains("max-streams-per-caller");
        } finally {
            // Dropping the role ends the streams held above within the bound.
            sql.run("DROP ROLE " + t[1]);
        }
    }

    /** A sink that takes whatever comes. */
    private static final class Quiet implements FeedStreams.Sink {
        @Override
        public void commit(FeedStreams.CommitChanges changes) throws IOException {
        }

        @Override
        public void heartbeat() throws IOException {
        }

        @Override
        public void failed(RuntimeException error) {
        }

        @Override
        public void end() {
        }
    }
}
