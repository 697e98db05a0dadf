package io.verso.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.VersoApplication;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;

/** The change feed as a consumer meets it: JSON pages, a live stream that resumes, and two instances. */
class ChangeFeedTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Autowired
    Environment environment;

    @Test
    void replayFromZeroRebuildsTheCurrentRowsAndEveryCommit() throws Exception {
        String t = table("feed");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, a INT, ai INT, b TEXT, bi INT,"
                + " ATTRIBUTE GROUP ga (a, ai) VALID BY (ai), ATTRIBUTE GROUP gb (b, bi) VALID BY (bi)) VERSIONED");
        Random random = new Random(13);
        List<Long> commits = new ArrayList<>();
        for (int c = 0; c < 30; c++) {
            StringBuilder request = new StringBuilder();
            for (int w = 0; w < 1 + random.nextInt(4); w++) {
                int k = random.nextInt(6);
                int ix = random.nextInt(20); // out of order: later writes often lose on arrival
                switch (random.nextInt(4)) {
                    case 0 -> request.append("UPSERT INTO ").append(t).append(" (k, a, ai) VALUES (").append(k)
                            .append(", ").append(random.nextInt(100)).append(", ").append(ix).append(") ATTRIBUTE GROUP ga;");
                    case 1 -> request.append("UPSERT INTO ").append(t).append(" (k, b, bi) VALUES (").append(k)
                            .append(", 'v").append(random.nextInt(100)).append("', ").append(ix).append(") ATTRIBUTE GROUP gb;");
                    case 2 -> request.append("UPSERT INTO ").append(t).append(" VALUES (").append(k).append(", ")
                            .append(random.nextInt(100)).append(", ").append(ix).append(", 'w', ").append(ix).append(");");
                    default -> request.append("DELETE FROM ").append(t).append(" WHERE k = ").append(k)
                            .append(" AT (ai = ").append(ix).append(", bi = ").append(ix).append(");");
                }
            }
            commits.add(sql.write(request.toString()));
        }
        // Replay in small pages: apply each change to a map, compare after every commit of the test.
        Map<String, JsonNode> state = new TreeMap<>();
        Map<Long, Map<String, JsonNode>> states = new HashMap<>();
        long after = 0;
        boolean more = true;
        while (more) {
            JsonNode page = get("/v1/tables/" + t + "/changes?limit=3&after=" + after);
            for (JsonNode change : page.get("changes")) {
                String key = change.get("key").get("k").asString();
                if (change.get("op").asString().equals("delete")) {
                    assertThat(state).containsKey(key);
                    state.remove(key);
                } else {
                    state.put(key, change.get("row"));
                }
                states.put(Long.parseLong(change.get("commit").asString()), new TreeMap<>(state));
            }
            after = Long.parseLong(page.get("next").asString());
            more = page.get("more").asBoolean();
        }
        Map<String, JsonNode> expected = new TreeMap<>();
        for (long commit : commits) {
            Map<String, JsonNode> at = states.get(commit);
            if (at != null) {
                expected = at;
            }
            assertThat(rendered(expected)).as("state at commit " + commit)
                    .isEqualTo(sql.rows("SELECT k, a, ai, b, bi FROM " + t + " AS OF COMMIT ? ORDER BY k", commit));
        }
        assertThat(rendered(state)).isEqualTo(sql.rows("SELECT k, a, ai, b, bi FROM " + t + " ORDER BY k"));
    }

    private static List<List<String>> rendered(Map<String, JsonNode> state) {
        List<List<String>> rows = new ArrayList<>();
        state.values().stream().sorted((x, y) -> Integer.compare(x.get("k").asInt(), y.get("k").asInt()))
                .forEach(row -> {
                    List<String> values = new ArrayList<>();
                    for (String c : List.of("k", "a", "ai", "b", "bi")) {
                        values.add(row.get(c).isNull() ? null : row.get(c).asString());
                    }
                    rows.add(values);
                });
        return rows;
    }

    @Test
    void aStreamResumedAfterADroppedConnectionLosesAndRepeatsNothing() throws Exception {
        String t = table("stream");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        long first = sql.write("UPSERT INTO " + t + " VALUES (1, 1), (2, 2)");
        List<String> seen = new ArrayList<>();
        String lastId;
        try (SseClient stream = new SseClient(port, t, null)) {
            assertThat(stream.status).isEqualTo(200);
            SseClient.Event event = stream.next(Duration.ofSeconds(10));
            assertThat(event.id()).isEqualTo(Long.toString(first));
            assertThat(event.name()).isEqualTo("commit");
            collect(event, seen);
            long second = sql.write("UPSERT INTO " + t + " VALUES (1, 10)");
            event = stream.next(Duration.ofSeconds(10));
            assertThat(event.id()).isEqualTo(Long.toString(second));
            collect(event, seen);
            lastId = event.id();
        }
        // Written while nobody listens.
        sql.write("UPSERT INTO " + t + " VALUES (3, 3)");
        sql.write("DELETE FROM " + t + " WHERE k = 2");
        long last = sql.write("UPSERT INTO " + t + " VALUES (2, 20), (1, 11)");
        try (SseClient stream = new SseClient(port, t, lastId)) {
            while (true) {
                SseClient.Event event = stream.next(Duration.ofSeconds(10));
                assertThat(event).as("events up to commit " + last).isNotNull();
                collect(event, seen);
                if (event.id().equals(Long.toString(last))) {
                    break;
                }
            }
        }
        List<String> all = new ArrayList<>();
        for (JsonNode change : get("/v1/tables/" + t + "/changes").get("changes")) {
            all.add(change.get("commit").asString() + " " + change.get("op").asString() + " " + change.get("key"));
        }
        assertThat(seen).isEqualTo(all).hasSize(7);
    }

    /**
     * A browser's EventSource reconnects to the URL it was opened with, {@code ?after=} included,
     * adding the id of the last event it received: the stream resumes after that id, not from
     * {@code after} again.
     */
    @Test
    void aStreamReopenedWithItsUrlAndLastEventIdResumesAfterTheLastEvent() throws Exception {
        String t = table("reopened");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        long first = sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        long second = sql.write("UPSERT INTO " + t + " VALUES (1, 2)");
        long third = sql.write("UPSERT INTO " + t + " VALUES (2, 3)");
        try (SseClient stream = new SseClient(port, t, "?after=0", Long.toString(second))) {
            assertThat(stream.status).isEqualTo(200);
            SseClient.Event event = stream.next(Duration.ofSeconds(10));
            assertThat(event.id()).as("first event after Last-Event-ID " + second + ", not after=0 (" + first + ")")
                    .isEqualTo(Long.toString(third));
        }
        // A JSON page asked with both: the same cursor.
        HttpResponse<String> both = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                        + "/v1/tables/" + t + "/changes?after=0"))
                .header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY)
                .header("Last-Event-ID", Long.toString(second)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(both.statusCode()).as(both.body()).isEqualTo(200);
        JsonNode page = SqlClient.JSON.readTree(both.body());
        assertThat(page.get("changes").findValuesAsString("commit")).containsExactly(Long.toString(third));
    }

    private static void collect(SseClient.Event event, List<String> seen) {
        JsonNode data = SqlClient.JSON.readTree(event.data());
        assertThat(data.get("commit").asString()).isEqualTo(event.id());
        for (JsonNode change : data.get("changes")) {
            seen.add(change.get("commit").asString() + " " + change.get("op").asString() + " " + change.get("key"));
        }
    }

    @Test
    void aFeedBeforeTheHistoryHorizonIsRefused() throws Exception {
        String t = table("horizon");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        long second = sql.write("UPSERT INTO " + t + " VALUES (1, 2)");
        sql.write("DELETE HISTORY FROM " + t + " BEFORE COMMIT " + second);
        HttpResponse<String> refused = send("/v1/tables/" + t + "/changes?after=0", "application/json");
        assertThat(refused.statusCode()).isEqualTo(410);
        assertThat(SqlClient.JSON.readTree(refused.body()).get("code").asString()).isEqualTo("FEED_BEFORE_HORIZON");
        assertThat(get("/v1/tables/" + t + "/changes?after=" + second).get("changes")).isEmpty();
        HttpResponse<String> unknown = send("/v1/tables/nope_" + t + "/changes", "application/json");
        assertThat(unknown.statusCode()).isEqualTo(404);
    }

    @Test
    void aCursorBeyondTheLatestCommitIsRefusedNotAnsweredWithAnEmptyPage() throws Exception {
        String t = table("beyond");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        long latest = sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        // The feed never hands out such a cursor (one of another install, or of a database restored
        // from an older backup): an empty page would let the consumer skip the commits up to it.
        long beyond = latest + 1000;
        for (String accept : List.of("application/json", "text/event-stream")) {
            HttpResponse<String> refused = send("/v1/tables/" + t + "/changes?after=" + beyond, accept);
            assertThat(refused.statusCode()).as(accept + ": " + refused.body()).isEqualTo(400);
            JsonNode problem = SqlClient.JSON.readTree(refused.body());
            assertThat(problem.get("code").asString()).isEqualTo("FEED_BEYOND_LATEST");
            assertThat(problem.get("pointer").asString()).isEqualTo("after");
            assertThat(problem.get("detail").asString()).contains(Long.toString(beyond));
        }
        // The latest commit itself is a cursor the feed hands out: caught up, an empty page.
        JsonNode caughtUp = get("/v1/tables/" + t + "/changes?after=" + sql.latestCommit());
        assertThat(caughtUp.get("changes")).isEmpty();
    }

    @Test
    void aCommitThroughOneInstanceReachesAStreamOnTheOther() throws Exception {
        String t = table("two");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        try (ConfigurableApplicationContext instanceB = new SpringApplicationBuilder(VersoApplication.class).run(
                "--server.port=0",
                "--spring.datasource.url=" + environment.getRequiredProperty("spring.datasource.url"),
                "--spring.datasource.username=" + environment.getProperty("spring.datasource.username", ""),
                "--spring.datasource.password=" + environment.getProperty("spring.datasource.password", ""),
                "--spring.main.register-shutdown-hook=false", "--verso.retention.check-interval=365d")) {
            int portB = instanceB.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
            try (SseClient stream = new SseClient(portB, t, null)) {
                Thread.sleep(300); // let B's stream catch up and wait
                for (int i = 1; i <= 5; i++) {
                    long commit = sql.write("UPSERT INTO " + t + " VALUES (?, ?)", i, i);
                    SseClient.Event event = stream.next(Duration.ofSeconds(5));
                    assertThat(event).as("event of commit " + commit + " on instance B").isNotNull();
                    assertThat(event.id()).isEqualTo(Long.toString(commit));
                }
            }
        }
    }

    /**
     * An APPEND table's rows have no key: its feed tells an UPDATE as the old row's delete (the row in
     * {@code before}) and the new row's insert, in the UPDATE's commit, and a DELETE as the row's delete.
     */
    @Test
    void anAppendTablesFeedTellsItsUpdatesAndDeletes() throws Exception {
        String t = table("fa");
        sql.write("CREATE TABLE " + t + " (x INT, y TEXT) APPEND");
        long inserted = sql.write("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b')");
        long updated = sql.write("UPDATE " + t + " SET y = 'c' WHERE x = 1");
        long deleted = sql.write("DELETE FROM " + t + " WHERE x = 2");
        List<String> all = new ArrayList<>();
        for (JsonNode change : get("/v1/tables/" + t + "/changes").get("changes")) {
            all.add(change.get("commit").asString() + " " + change.get("op").asString() + " "
                    + (change.get("op").asString().equals("delete") ? change.get("before") : change.get("row")));
        }
        assertThat(all).containsExactly(inserted + " insert {\"x\":1,\"y\":\"a\"}",
                inserted + " insert {\"x\":2,\"y\":\"b\"}", updated + " insert {\"x\":1,\"y\":\"c\"}",
                updated + " delete {\"x\":1,\"y\":\"a\"}", deleted + " delete {\"x\":2,\"y\":\"b\"}");
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = send(path, "application/json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return SqlClient.JSON.readTree(response.body());
    }

    private HttpResponse<String> send(String path, String accept) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY).header("Accept", accept)
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
