package io.verso.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.VersoApplication;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * PostgreSQL goes away under a running service and comes back: every surface answers 503
 * DATABASE_UNAVAILABLE (GraphQL: the same code in its errors) with Retry-After within a few seconds,
 * never a 500 or the pool's 30 s wait; readiness and health go DOWN (503); writes work again by themselves once
 * PostgreSQL is back. Runs against a private embedded PostgreSQL, never the shared one.
 */
class DatabaseOutageTests {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void everySurfaceAnswers503FastWhileTheDatabaseIsAwayAndRecovers() throws Exception {
        TestSecurity.ensure();
        Path data = Files.createTempDirectory("verso-outage-pg");
        int pgPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            pgPort = socket.getLocalPort();
        }
        EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false)
                .setPort(pgPort).start();
        ConfigurableApplicationContext app = null;
        try {
            app = new SpringApplicationBuilder(VersoApplication.class).run(
                    "--server.port=0", "--spring.main.register-shutdown-hook=false",
                    "--spring.datasource.url=" + pg.getJdbcUrl("postgres", "postgres"),
                    "--spring.datasource.username=postgres", "--spring.datasource.password=",
                    "--verso.retention.check-interval=365d",
                    // Its own database: the suite's read replica (CI) is a standby of another one.
                    "--verso.read-replicas=");
            String base = "http://localhost:" + ((WebServerApplicationContext) app).getWebServer().getPort();
            send(base, "POST", "/v1/sql", sql("CREATE TABLE items (id INT PRIMARY KEY, v TEXT) VERSIONED; "
                    + "UPSERT INTO items VALUES (1, 'a')"), 200);
            send(base, "POST", "/graphql", gql("{ items { nodes { id } } }"), 200);

            pg.close();
            Map<String, String[]> probes = new LinkedHashMap<>();
            probes.put("sql read", new String[] {"POST", "/v1/sql", sql("SELECT * FROM items")});
            probes.put("sql write", new String[] {"POST", "/v1/sql", sql("UPSERT INTO items VALUES (2, 'b')")});
            probes.put("latest commit", new String[] {"GET", "/v1/commits/latest", null});
            probes.put("rows", new String[] {"GET", "/v1/tables/items/rows", null});
            probes.put("row", new String[] {"GET", "/v1/tables/items/row?key=1", null});
            probes.put("rest write", new String[] {"POST", "/v1/tables/items/rows", "{\"rows\": [{\"id\": 3, \"v\": \"c\"}]}"});
            probes.put("tables", new String[] {"GET", "/v1/tables", null});
            for (var probe : probes.entrySet()) {
                long started = System.nanoTime();
                HttpResponse<String> r = send(base, probe.getValue()[0], probe.getValue()[1], probe.getValue()[2], -1);
                long ms = (System.nanoTime() - started) / 1_000_000;
                System.out.println("database away: " + probe.getKey() + " -> " + r.statusCode() + " in " + ms + " ms");
                assertThat(r.statusCode()).as(probe.getKey() + ": " + r.body()).isEqualTo(503);
                assertThat(SqlClient.JSON.readTree(r.body()).path("code").asString())
                        .as(probe.getKey()).isEqualTo("DATABASE_UNAVAILABLE");
                assertThat(r.headers().firstValue("Retry-After")).as(probe.getKey()).isPresent();
                assertThat(ms).as(probe.getKey()).isLessThan(5_000);
            }
            long started = System.nanoTime();
            HttpResponse<String> graphql = send(base, "POST", "/graphql", gql("{ items { nodes { id } } }"), -1);
            System.out.println("database away: graphql -> " + graphql.statusCode() + " in "
                    + (System.nanoTime() - started) / 1_000_000 + " ms: " + graphql.body());
            assertThat(graphql.statusCode()).isIn(200, 503);
            assertThat(graphql.body()).contains("DATABASE_UNAVAILABLE");
            assertThat(send(base, "GET", "/actuator/health/readiness", null, -1).statusCode()).isEqualTo(503);
            // The whole health too: DOWN with 503 (the migrations component cannot ask the database either).
            HttpResponse<String> health = send(base, "GET", "/actuator/health", null, -1);
            assertThat(health.statusCode()).as(health.body()).isEqualTo(503);
            assertThat(SqlClient.JSON.readTree(health.body()).path("status").asString()).isEqualTo("DOWN");

            pg = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).setPort(pgPort).start();
            long back = System.nanoTime();
            int status = 0;
            while (System.nanoTime() - back < 30_000_000_000L) {
                status = send(base, "POST", "/v1/sql", sql("UPSERT INTO items VALUES (4, 'd')"), -1).statusCode();
                if (status == 200) {
                    break;
                }
                Thread.sleep(200);
            }
            System.out.println("database back: writes again after " + (System.nanoTime() - back) / 1_000_000 + " ms");
            assertThat(status).isEqualTo(200);
            JsonNode rows = SqlClient.JSON.readTree(send(base, "POST", "/v1/sql", sql("SELECT id FROM items ORDER BY id"),
                    200).body());
            assertThat(rows.path("results").get(0).path("rows").toString()).isEqualTo("[[1],[4]]");
            assertThat(send(base, "GET", "/actuator/health/readiness", null, -1).statusCode()).isEqualTo(200);
            assertThat(send(base, "GET", "/actuator/health", null, -1).statusCode()).isEqualTo(200);
        } finally {
            if (app != null) {
                app.close();
            }
            pg.close();
        }
    }

    private static String sql(String text) {
        return SqlClient.JSON.writeValueAsString(Map.of("sql", text, "params", List.of()));
    }

    private static String gql(String query) {
        return SqlClient.JSON.writeValueAsString(Map.of("query", query));
    }

    private static HttpResponse<String> send(String base, String method, String path, String body, int expect)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (expect > 0) {
            assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(expect);
        }
        return response;
    }
}
