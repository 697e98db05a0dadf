package io.verso.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * The benchmark keeps working: every scenario at a tiny size against the test service, the
 * PostgreSQL baseline in a schema of its own in the test database, MariaDB left out.
 */
class BenchSmokeTests extends IntegrationTest {

    @Autowired
    Environment environment;

    @Test
    void everyScenarioRunsAndTheReportHasItsFigures(@TempDir Path out) throws Exception {
        // Connections of its own, as in a real run: the service's pool stays the service's.
        String url = environment.getRequiredProperty("spring.datasource.url");
        String user = environment.getProperty("spring.datasource.username", "");
        String password = environment.getProperty("spring.datasource.password", "");
        String versoDb = url + (url.contains("?") ? "&" : "?") + "user=" + URLEncoder.encode(user, StandardCharsets.UTF_8)
                + "&password=" + URLEncoder.encode(password, StandardCharsets.UTF_8);
        BenchConfig config = BenchConfig.parse("--keys=60", "--versions=3", "--batch=20", "--url=http://127.0.0.1:" + port,
                "--pgSchema=" + table("bench_baseline"), "--mariadb=", "--keyReads=10", "--tableReads=2",
                "--diffReads=2", "--diffSpan=2", "--clients=1,2", "--concurrentBatches=3", "--concurrentReads=10",
                "--scaleDivisor=3", "--out=" + out, "--versoDb=" + versoDb);
        Path report = new Bench(config, () -> {
            try {
                return DriverManager.getConnection(url, user, password);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, null).run();

        String md = Files.readString(report);
        assertThat(md).contains("ingest through REST", "one key AS OF a random commit", "whole table AS OF",
                "diff between commits", "2 client(s)", "Scale", "every group: whole table AS OF", "### Targets",
                "every attribute group written", "### Bytes on disk");
        String json = Files.readString(out.resolve("results.json"));
        assertThat(json).contains("\"currentRowMismatches\" : 0", "\"everyGroupRowMismatches\" : 0",
                "\"failures\" : { }", "versoOverPostgres", "\"verso bytes per version\"",
                "\"postgres bytes per version\"");
    }

}
