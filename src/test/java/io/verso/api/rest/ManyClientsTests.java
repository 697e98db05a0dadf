package io.verso.api.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * More concurrent clients than pooled connections: every request holds at most one connection at
 * a time, so none waits forever for a second one (which once exhausted the pool at 16 clients).
 */
class ManyClientsTests extends IntegrationTest {

    @Test
    void threeTimesThePoolOfConcurrentReadsAndWritesAllComplete() throws Exception {
        String t = table("many");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT, ix INT) VERSIONED VALID BY (ix)");
        ExecutorService pool = Executors.newFixedThreadPool(30);
        List<Future<Integer>> calls = new ArrayList<>();
        for (int c = 0; c < 30; c++) {
            int client = c;
            calls.add(pool.submit(() -> {
                int ok = 0;
                for (int i = 0; i < 5; i++) {
                    int status = 0;
                    // A request the service admits no connection for in time is refused at once with 503 OVERLOADED
                    // and Retry-After (never a 30 s wait); a client retries it, as this one does.
                    for (int attempt = 0; attempt < 30; attempt++) {
                        var response = client % 2 == 0
                                ? given().port(port).contentType("application/json")
                                        .body("{\"rows\": [{\"k\": " + client + ", \"v\": " + i + ", \"ix\": " + i + "}]}")
                                        .post("/v1/tables/" + t + "/rows")
                                : given().port(port).get("/v1/tables/" + t + "/rows?limit=10");
                        status = response.statusCode();
                        if (status != 503 || !response.asString().contains("OVERLOADED")) {
                            break;
                        }
                        Thread.sleep(200);
                    }
                    ok += status == 200 ? 1 : 0;
                }
                return ok;
            }));
        }
        int ok = 0;
        for (Future<Integer> call : calls) {
            ok += call.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(ok).isEqualTo(150);
        assertThat(sql.rows("SELECT count(*) FROM " + t)).containsExactly(List.of("15"));
    }
}
