package io.verso.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.VersoApplication;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * A service that dies in the middle of a live stream and of derived-table upkeep, then comes back:
 * a second instance of the service, on the suite's database, takes writes to a source of two derived
 * tables (one kept by changed keys, one recomputed) and serves a stream of one of them; while writes
 * run, its database sessions are killed (the transactions in flight, derived upkeep included, die
 * half done, as in a crash) and it is stopped. Started again, the consumer resumes from its last
 * event id. Afterwards every commit's derived state is exact, and the consumer saw every change of
 * the feed once, in order.
 */
class RestartMidStreamTests extends IntegrationTest {

    private static final String APPLICATION_NAME = "verso-restart-test";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Autowired
    Environment environment;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aServiceStoppedMidStreamAndMidUpkeepLosesAndRepeatsNothing() throws Exception {
        String s = table("rs_src");
        String totals = table("rs_totals");
        String parity = table("rs_parity");
        sql.write("CREATE TABLE " + s + " (k INT PRIMARY KEY, g INT, v INT, ix INT) VERSIONED VALID BY (ix)");
        String totalsQuery = "SELECT g, sum(v) AS total, count(*) AS n, max(v) AS top FROM " + s + " GROUP BY g";
        String parityQuery = "SELECT p, sum(v) AS total FROM (SELECT g % 2 AS p, v FROM " + s + ") AS x GROUP BY p";
        sql.write("CREATE DERIVED TABLE " + totals + " PRIMARY KEY (g) AS " + totalsQuery);
        sql.write("CREATE DERIVED TABLE " + parity + " PRIMARY KEY (p) AS " + parityQuery);
        long first = sql.latestCommit();
        Random random = new Random(99);
        List<JsonNode> received = new ArrayList<>();
        String lastId;

        ConfigurableApplicationContext instance = start();
        try (SseClient stream = new SseClient(port(instance), totals, null)) {
            SqlClient viaInstance = new SqlClient(port(instance));
            AtomicInteger acknowledged = new AtomicInteger();
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 80; i++) {
                    try {
                        Response r = viaInstance.post(write(s, random));
                        if (r.statusCode() == 200) {
                            acknowledged.incrementAndGet();
                        }
                    } catch (RuntimeException connectionGone) {
                        return;
                    }
                }
            }, "restart-test-writer");
            writer.start();
            while (acknowledged.get() < 15) {
                Thread.sleep(20);
            }
            // The crash: every session of that instance ends now, in whatever transaction it is.
            int killed = jdbc.queryForObject("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    + " WHERE application_name = ?", Integer.class, APPLICATION_NAME);
            assertThat(killed).isPositive();
            instance.close();
            writer.join(30_000);
            assertThat(acknowledged.get()).isGreaterThanOrEqualTo(15);
            for (SseClient.Event e = stream.next(Duration.ofSeconds(2)); e != null; e = stream.next(Duration.ofSeconds(2))) {
                if ("commit".equals(e.name())) {
                    received.add(SqlClient.JSON.readTree(e.data()));
                }
            }
        } finally {
            instance.close();
        }
        assertThat(received).isNotEmpty();
        lastId = received.get(received.size() - 1).get("commit").asString();

        // Back up: the consumer resumes after the last event it got, while writes go on.
        instance = start();
        try (SseClient stream = new SseClient(port(instance), totals, lastId)) {
            SqlClient viaInstance = new SqlClient(port(instance));
            for (int i = 0; i < 8; i++) {
                viaInstance.write(write(s, random));
            }
            JsonNode truth = SqlClient.JSON.readTree(get("/v1/tables/" + totals + "/changes?after=0&limit=10000"));
            String lastChange = truth.get("changes").get(truth.get("changes").size() - 1).get("commit").asString();
            while (!received.get(received.size() - 1).get("commit").asString().equals(lastChange)) {
                SseClient.Event e = stream.next(Duration.ofSeconds(20));
                assertThat(e).as("an event up to commit " + lastChange).isNotNull();
                if ("commit".equals(e.name())) {
                    received.add(SqlClient.JSON.readTree(e.data()));
                }
            }
            List<String> expected = new ArrayList<>();
            truth.get("changes").forEach(c -> expected.add(c.toString()));
            List<String> got = new ArrayList<>();
            Set<String> ids = new HashSet<>();
            for (JsonNode event : received) {
                assertThat(ids.add(event.get("commit").asString())).as("commit " + event.get("commit") + " once").isTrue();
                event.get("changes").forEach(c -> got.add(c.toString()));
            }
            assertThat(got).isEqualTo(expected);
        } finally {
            instance.close();
        }

        // Every commit since the derived tables exist: their state is their query's, exactly.
        long latest = sql.latestCommit();
        for (long n = first; n <= latest; n++) {
            assertThat(sorted(sql.rows("SELECT * FROM " + totals + " AS OF COMMIT ?", n)))
                    .as(totals + " as of " + n).isEqualTo(sorted(sql.rows(totalsQuery + " AS OF COMMIT " + n)));
            assertThat(sorted(sql.rows("SELECT * FROM " + parity + " AS OF COMMIT ?", n)))
                    .as(parity + " as of " + n).isEqualTo(sorted(sql.rows(parityQuery + " AS OF COMMIT " + n)));
        }
    }

    private static String write(String s, Random random) {
        StringBuilder request = new StringBuilder();
        for (int w = 0; w < 1 + random.nextInt(3); w++) {
            int k = random.nextInt(30);
            if (random.nextInt(6) == 0) {
                request.append("DELETE FROM ").append(s).append(" WHERE k = ").append(k).append(" AT (ix = ")
                        .append(random.nextInt(50)).append(");");
            } else {
                request.append("UPSERT INTO ").append(s).append(" VALUES (").append(k).append(", ")
                        .append(random.nextInt(5)).append(", ").append(random.nextInt(100)).append(", ")
                        .append(random.nextInt(50)).append(");");
            }
        }
        return request.toString();
    }

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(VersoApplication.class).run(
                "--server.port=0",
                "--spring.datasource.url=" + environment.getRequiredProperty("spring.datasource.url"),
                "--spring.datasource.username=" + environment.getProperty("spring.datasource.username", ""),
                "--spring.datasource.password=" + environment.getProperty("spring.datasource.password", ""),
                "--spring.datasource.hikari.data-source-properties.ApplicationName=" + APPLICATION_NAME,
                "--spring.main.register-shutdown-hook=false", "--verso.retention.check-interval=365d",
                "--verso.read-replicas=");
    }

    private static int port(ConfigurableApplicationContext instance) {
        return instance.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    private String get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static List<String> sorted(List<List<String>> rows) {
        return rows.stream().map(r -> String.join("|", r.stream().map(String::valueOf).toList())).sorted().toList();
    }
}
