package io.verso.faults;

import static io.verso.support.ServiceHttp.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.ServiceHttp;
import io.verso.support.ServiceProcess;
import io.verso.support.SqlClient;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * INSERT ... SELECT and UPSERT ... SELECT of 300,000 rows on a service with a 128 MiB heap, as its own JVM on a
 * private PostgreSQL cluster this test starts: both are answered 200 with every row written, and the service is
 * still up. The rows of such a query were read into the heap before any was written, and the service ended with
 * an OutOfMemoryError (a million rows at 512 MiB did the same); they are now written a chunk at a time as they
 * are read.
 */
class LargeQueriedWriteTests {

    private static final ServiceHttp HTTP = new ServiceHttp(Duration.ofSeconds(5), Duration.ofSeconds(120));
    private static final int ROWS = 300_000;

    @Test
    void aQueryOfManyRowsIsWrittenWithinASmallHeap() throws Exception {
        EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(Files.createTempDirectory("verso-large-pg"))
                .setPort(ServiceHttp.freePort()).start();
        int port = ServiceHttp.freePort();
        Process service = null;
        try {
            service = ServiceProcess.start(new File("target/faults/large-write.log"), port,
                    pg.getJdbcUrl("postgres", "postgres"), "128m");
            String base = "http://localhost:" + port;
            ok(base, "CREATE TABLE big (k BIGINT PRIMARY KEY, v TEXT) VERSIONED");
            JsonNode inserted = ok(base, "INSERT INTO big (k, v) WITH RECURSIVE n (x) AS (SELECT 0 UNION ALL "
                    + "SELECT x + 1 FROM n WHERE x < " + (ROWS - 1) + ") SELECT x, 'a value of some length ' || x FROM n");
            assertThat(inserted.path("results").get(0).path("rows").asLong()).isEqualTo(ROWS);
            JsonNode replaced = ok(base, "UPSERT INTO big (k, v) SELECT k, v || '!' FROM big");
            assertThat(replaced.path("results").get(0).path("current").asLong()).isEqualTo(ROWS);
            JsonNode counted = ok(base, "SELECT count(*), sum(CASE WHEN v LIKE '%!' THEN 1 ELSE 0 END) FROM big");
            assertThat(counted.path("results").get(0).path("rows").get(0).toString())
                    .isEqualTo("[\"" + ROWS + "\",\"" + ROWS + "\"]");
            assertThat(service.isAlive()).isTrue();
        } finally {
            if (service != null) {
                service.destroy();
                service.waitFor(30, TimeUnit.SECONDS);
            }
            pg.close();
        }
    }

    private static JsonNode ok(String base, String statement) throws Exception {
        HttpResponse<String> response = HTTP.send(base, "POST", "/v1/sql", sql(statement));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return SqlClient.JSON.readTree(response.body());
    }
}
