package io.verso.ops;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Health groups, the migrations component, Prometheus meters of the engine, request ids. */
class ObservabilityTests extends IntegrationTest {

    @Test
    void healthShowsDatabaseAndAppliedSchemaVersion() throws IOException {
        JsonNode health = get("/actuator/health", 200);
        assertThat(health.path("status").asString()).isEqualTo("UP");
        assertThat(health.at("/components/db/status").asString()).isEqualTo("UP");
        JsonNode migrations = health.at("/components/migrations");
        assertThat(migrations.path("status").asString()).isEqualTo("UP");
        assertThat(migrations.at("/details/version").asString()).isEqualTo(latestMigrationFile());
        assertThat(migrations.at("/details/schema").asString()).isEqualTo("verso");
        assertThat(migrations.at("/details/pending").asInt()).isZero();
        assertThat(migrations.at("/details/future").asInt()).isZero();
    }

    @Test
    void probeGroupsAreUpAndReadinessIncludesTheDatabase() {
        assertThat(get("/actuator/health/liveness", 200).path("status").asString()).isEqualTo("UP");
        JsonNode readiness = get("/actuator/health/readiness", 200);
        assertThat(readiness.path("status").asString()).isEqualTo("UP");
        assertThat(readiness.path("components").has("db")).isTrue();
        assertThat(readiness.path("components").has("readinessState")).isTrue();
    }

    @Test
    void prometheusCountsCommitsReadsAndErrorsByCode() {
        String t = table("metrics");
        double commitsBefore = metric("verso_commits_seconds_count", "");
        double rowsBefore = metric("verso_commit_rows_sum", "");
        double asOfBefore = metric("verso_reads_seconds_count", "as_of=\"true\"");
        double currentBefore = metric("verso_reads_seconds_count", "as_of=\"false\"");
        double errorsBefore = metric("verso_statement_errors_total", "code=\"UNKNOWN_TABLE\"");

        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        long commit = sql.write("UPSERT INTO " + t + " (k, v) VALUES (1, 1), (2, 2), (3, 3)");
        sql.rows("SELECT * FROM " + t + " AS OF COMMIT " + commit);
        sql.rows("SELECT * FROM " + t);
        sql.fails(404, "UNKNOWN_TABLE", "SELECT * FROM no_such_" + t);

        // Other tests may run requests meanwhile: at least ours were counted.
        assertThat(metric("verso_commits_seconds_count", "")).isGreaterThanOrEqualTo(commitsBefore + 2);
        assertThat(metric("verso_commit_rows_sum", "")).isGreaterThanOrEqualTo(rowsBefore + 3);
        assertThat(metric("verso_reads_seconds_count", "as_of=\"true\"")).isGreaterThanOrEqualTo(asOfBefore + 1);
        assertThat(metric("verso_reads_seconds_count", "as_of=\"false\"")).isGreaterThanOrEqualTo(currentBefore + 1);
        assertThat(metric("verso_statement_errors_total", "code=\"UNKNOWN_TABLE\"")).isGreaterThanOrEqualTo(errorsBefore + 1);

        String scrape = prometheus();
        assertThat(scrape).contains("verso_commits_seconds_bucket", "hikaricp_connections_active",
                "http_server_requests_seconds_count");
    }

    @Test
    void problemsCarryTheRequestIdOfTheirHeader() {
        Response response = given().port(port).contentType("application/json")
                .body("{\"sql\": \"SELECT * FROM nowhere_at_all\"}").post("/v1/sql");
        String id = response.header(RequestIdFilter.HEADER);
        assertThat(id).matches("[0-9a-f-]{36}");
        assertThat(SqlClient.JSON.readTree(response.asString()).path("requestId").asString()).isEqualTo(id);
    }

    @Test
    void incomingRequestIdIsKeptAndImplausibleOnesReplaced() {
        Response kept = given().port(port).header(RequestIdFilter.HEADER, "edge-7f3a.42")
                .contentType("application/json").body("{\"sql\": \"SELEC 1\"}").post("/v1/sql");
        assertThat(kept.statusCode()).isEqualTo(400);
        assertThat(kept.header(RequestIdFilter.HEADER)).isEqualTo("edge-7f3a.42");
        assertThat(SqlClient.JSON.readTree(kept.asString()).path("requestId").asString()).isEqualTo("edge-7f3a.42");

        Response replaced = given().port(port).header(RequestIdFilter.HEADER, "x\" y".repeat(3))
                .get("/actuator/health/liveness");
        assertThat(replaced.header(RequestIdFilter.HEADER)).matches("[0-9a-f-]{36}");
    }

    @Test
    void frameworkAndSizeProblemsCarryTheRequestIdToo() {
        Response notFound = given().port(port).header(RequestIdFilter.HEADER, "nf-1").get("/v1/nothing-here");
        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(SqlClient.JSON.readTree(notFound.asString()).path("requestId").asString()).isEqualTo("nf-1");

        Response tooLarge = given().port(port).header(RequestIdFilter.HEADER, "big-1").contentType("application/json")
                .body("{\"sql\": \"" + "x".repeat(16 * 1024 * 1024) + "\"}").post("/v1/sql");
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(tooLarge.header(RequestIdFilter.HEADER)).isEqualTo("big-1");
        assertThat(SqlClient.JSON.readTree(tooLarge.asString()).path("requestId").asString()).isEqualTo("big-1");
    }

    // ---------------------------------------------------------------- helpers

    private JsonNode get(String path, int status) {
        Response response = given().port(port).get(path);
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(status);
        return SqlClient.JSON.readTree(response.asString());
    }

    private String prometheus() {
        Response response = given().port(port).get("/actuator/prometheus");
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        return response.asString();
    }

    /** The value of one sample; {@code labels} is a label the sample must carry, or "" for any. 0 when absent. */
    private double metric(String name, String labels) {
        Matcher m = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? (\\S+)$").matcher(prometheus());
        double sum = 0;
        while (m.find()) {
            if (labels.isEmpty() || (m.group(1) != null && m.group(1).contains(labels))) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    /** The highest version among the service's migration files, e.g. "3" for V3__catalog_version.sql. */
    private static String latestMigrationFile() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("basedir", ".")).resolve("db/migration"))) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .map(n -> n.substring(1, n.indexOf("__"))).max((a, b) -> Integer.compare(
                            Integer.parseInt(a), Integer.parseInt(b))).orElseThrow();
        }
    }
}
