package io.verso.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * After a DDL's receipt every read, on every connection of the pool, answers under the new schema: the
 * statements a connection prepared before (pgjdbc prepares server-side from the first use) never answer
 * PostgreSQL's "cached plan must not change result type", even when a column is dropped and added again with
 * another type under the same name.
 */
class ReadsAfterDdlTests extends IntegrationTest {

    private static final int THREADS = 8;
    private static ExecutorService pool;

    @BeforeAll
    static void threads() {
        pool = Executors.newFixedThreadPool(THREADS);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"VERSIONED", "APPEND", "WITH SYSTEM VERSIONING", "UPSERT"})
    void aColumnDroppedAndAddedWithAnotherTypeReadsAtOnceOnEveryConnection(String mode) throws Exception {
        String r = table("redo");
        long created = sql.write("CREATE TABLE " + r + " (id INT" + (mode.equals("VERSIONED") || mode.equals("UPSERT")
                ? " PRIMARY KEY" : "") + ", a INT, b TEXT) " + mode);
        long written = sql.write("INSERT INTO " + r + " VALUES (1, 1, 'x'), (2, 2, 'y')");
        List<String> reads = new ArrayList<>(List.of("SELECT id, a, b FROM " + r + " ORDER BY id",
                "SELECT id, a, b FROM " + r + " WHERE id = 1", "SELECT * FROM " + r + " ORDER BY id"));
        if (!mode.equals("UPSERT")) {
            reads.add("SELECT id, a, b FROM " + r + " AS OF COMMIT " + written + " ORDER BY id");
        }
        // Every connection of the pool prepares every read under the old schema.
        everyThread(reads, 6, "TEXT");

        sql.write("ALTER TABLE " + r + " DROP COLUMN b; ALTER TABLE " + r + " ADD COLUMN b DATE");
        everyThread(reads, 6, "DATE");

        // Twice in a row, and inside the request that makes the change.
        sql.write("ALTER TABLE " + r + " DROP COLUMN b");
        sql.write("ALTER TABLE " + r + " ADD COLUMN b BIGINT");
        everyThread(reads, 3, "BIGINT");
        JsonNode same = sql.run("ALTER TABLE " + r + " DROP COLUMN b; ALTER TABLE " + r + " ADD COLUMN b BOOLEAN; "
                + reads.get(0));
        assertThat(same.at("/results/2/columns/2/type").asString()).isEqualTo("BOOLEAN");
        everyThread(reads, 3, "BOOLEAN");
        assertThat(created).isPositive();
    }

    /** Each read {@code times} times from every thread at once: all answer 200 with {@code b} of {@code type}. */
    private void everyThread(List<String> reads, int times, String type) throws Exception {
        List<Future<List<String>>> futures = new ArrayList<>();
        for (int thread = 0; thread < THREADS; thread++) {
            Callable<List<String>> reader = () -> {
                List<String> failures = new ArrayList<>();
                for (int i = 0; i < times; i++) {
                    for (String read : reads) {
                        Response response = sql.post(read);
                        String body = response.asString();
                        if (response.statusCode() != 200 || !body.contains("{\"name\":\"b\",\"type\":\"" + type + "\"}")) {
                            failures.add(read + " -> " + response.statusCode() + " " + body);
                        }
                    }
                }
                return failures;
            };
            futures.add(pool.submit(reader));
        }
        List<String> failures = new ArrayList<>();
        for (Future<List<String>> future : futures) {
            failures.addAll(future.get());
        }
        assertThat(failures).as("reads after the DDL's receipt").isEmpty();
    }
}
