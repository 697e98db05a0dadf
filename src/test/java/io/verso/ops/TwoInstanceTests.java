package io.verso.ops;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.VersoApplication;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;

/**
 * Two replicas on one PostgreSQL keep every guarantee of one: the shared test context is instance
 * A, a second application on its own port is instance B. Writers alternate between them and read
 * through the other one; readers alternate too. Asserted: receipts are unique, a receipt from one
 * instance is visible to the next read through the other, every snapshot through either instance
 * holds exactly the commits up to its read commit (so sequences increase in visibility order), and
 * AS OF a fixed commit returns the same rows through both throughout.
 */
class TwoInstanceTests extends IntegrationTest {

    private static final int WRITERS = 4;
    private static final int WRITES_EACH = 12;
    private static final int READERS = 2;

    @Autowired
    Environment environment;

    /** A snapshot's read commit and how many of this test's commits it held. */
    private record Seen(long readCommit, long logRows) {
    }

    @Test
    void twoInstancesKeepOrderReadYourWritesAndRepeatableAsOf() throws Exception {
        try (ConfigurableApplicationContext instanceB = startInstanceB()) {
            SqlClient a = sql;
            int portB = instanceB.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
            SqlClient b = new SqlClient(portB);
            SqlClient[] instances = {a, b};
            String t = table("replicas");
            String log = table("replicas_log");

            // DDL through A is usable through B at once: the catalog lives in the database.
            a.write("CREATE TABLE " + t + " (w INT PRIMARY KEY, v INT) VERSIONED; CREATE TABLE " + log
                    + " (w INT, i INT) APPEND");
            long pinned = b.write("UPSERT INTO " + t + " (w, v) VALUES (0, 0); INSERT INTO " + log + " VALUES (0, 0)");
            String asOf = "SELECT * FROM " + t + " AS OF COMMIT " + pinned + " ORDER BY w";
            List<List<String>> pinnedRows = a.rows(asOf);
            assertThat(pinnedRows).containsExactly(List.of("0", "0"));
            assertThat(b.rows(asOf)).isEqualTo(pinnedRows);

            ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
            AtomicBoolean writing = new AtomicBoolean(true);
            ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
            List<Future<List<Long>>> writers = new ArrayList<>();
            for (int w = 1; w <= WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    List<Long> receipts = new ArrayList<>();
                    for (int i = 1; i <= WRITES_EACH; i++) {
                        SqlClient through = instances[(writer + i) % 2];
                        SqlClient other = instances[(writer + i + 1) % 2];
                        long commit = through.write("UPSERT INTO " + t + " (w, v) VALUES (?, ?); INSERT INTO " + log
                                + " VALUES (?, ?)", writer, i, writer, i);
                        receipts.add(commit);
                        JsonNode read = other.run("SELECT v FROM " + t + " WHERE w = ?", writer);
                        long readCommit = Long.parseLong(read.get("readCommit").asString());
                        if (readCommit < commit) {
                            violations.add("receipt " + commit + " not visible through the other instance, which "
                                    + "read at " + readCommit);
                        }
                        if (read.at("/results/0/rows/0/0").asInt() != i) {
                            violations.add("writer " + writer + " read " + read.at("/results/0/rows") + " through the"
                                    + " other instance after its write " + i);
                        }
                    }
                    return receipts;
                }));
            }
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                int reader = r;
                readers.add(pool.submit(() -> {
                    long lastSeen = 0;
                    for (int n = 0; writing.get(); n++) {
                        SqlClient through = instances[(reader + n) % 2];
                        if (!through.rows(asOf).equals(pinnedRows)) {
                            violations.add("AS OF " + pinned + " changed through instance " + "AB".charAt((reader + n) % 2));
                        }
                        JsonNode read = through.run("SELECT count(*) FROM " + log);
                        long readCommit = Long.parseLong(read.get("readCommit").asString());
                        if (readCommit < lastSeen) {
                            violations.add("reads went back from commit " + lastSeen + " to " + readCommit
                                    + " on switching instance");
                        }
                        lastSeen = readCommit;
                        seen.add(new Seen(readCommit, Long.parseLong(read.at("/results/0/rows/0/0").asString())));
                    }
                    return null;
                }));
            }
            List<Long> receipts = new ArrayList<>(List.of(pinned));
            for (Future<List<Long>> writer : writers) {
                receipts.addAll(writer.get(3, TimeUnit.MINUTES));
            }
            writing.set(false);
            for (Future<?> reader : readers) {
                reader.get(1, TimeUnit.MINUTES);
            }
            pool.shutdown();

            assertThat(violations).isEmpty();
            Set<Long> unique = new HashSet<>(receipts);
            assertThat(unique).as("commit sequences from both instances").hasSize(1 + WRITERS * WRITES_EACH);
            // Visibility order: a snapshot at read commit c holds exactly this test's commits <= c, never a later
            // one without an earlier one, whichever instance drew the sequence or served the read.
            assertThat(seen).isNotEmpty();
            for (Seen s : seen) {
                long expected = receipts.stream().filter(c -> c <= s.readCommit()).count();
                assertThat(s.logRows()).as("commits held by the snapshot at " + s.readCommit()).isEqualTo(expected);
            }
            for (int w = 1; w <= WRITERS; w++) {
                assertThat(a.rows("SELECT v FROM " + t + " WHERE w = ?", w)).containsExactly(List.of(
                        String.valueOf(WRITES_EACH)));
                assertThat(b.rows("SELECT v FROM " + t + " WHERE w = ?", w)).containsExactly(List.of(
                        String.valueOf(WRITES_EACH)));
            }
            assertThat(a.rows(asOf)).isEqualTo(pinnedRows);
            assertThat(b.rows(asOf)).isEqualTo(pinnedRows);

            oneKeyReadsReportACommitTheirRowsAreAt(a, b, portB);
        }
    }

    /**
     * A one-key read of current rows on the primary does not look the latest commit up: it reports the latest
     * commit its instance knows visible, or the last change of the keys it read if later. So a commit made through
     * the other instance to another table or key is not claimed, a write or deletion of the read's own key is,
     * reading AS OF the reported commit gives the same rows, and a caller who names a later commit
     * (Verso-Min-Commit) is answered at least at it, as one who names it in atLeastCommit; a conditional GET's 304
     * likewise. Read through B, which reads no replica.
     */
    private void oneKeyReadsReportACommitTheirRowsAreAt(SqlClient a, SqlClient b, int portB) {
        String quiet = table("replicas_quiet");
        String busy = table("replicas_busy");
        long quietWrite = a.write("CREATE TABLE " + quiet + " (k INT PRIMARY KEY, v INT) VERSIONED; CREATE TABLE "
                + busy + " (k INT PRIMARY KEY, v INT) VERSIONED; UPSERT INTO " + quiet + " VALUES (1, 10)");
        String byKey = "SELECT v FROM " + quiet + " WHERE k = ?";
        b.run(byKey, 1); // instance B learns the catalog A changed
        long elsewhere = a.write("UPSERT INTO " + busy + " VALUES (1, 1)");

        JsonNode read = b.run(byKey, 1);
        long reported = Long.parseLong(read.get("readCommit").asString());
        assertThat(read.at("/results/0/rows/0/0").asInt()).isEqualTo(10);
        assertThat(reported).as("a commit instance B never saw").isBetween(quietWrite, elsewhere - 1);
        assertThat(a.rows("SELECT v FROM " + quiet + " AS OF COMMIT ? WHERE k = 1", reported))
                .containsExactly(List.of("10"));

        JsonNode told = SqlClient.JSON.readTree(given().port(portB).contentType("application/json")
                .header("Verso-Min-Commit", Long.toString(elsewhere))
                .body("{\"sql\": \"" + byKey + "\", \"params\": [1]}").post("/v1/sql").asString());
        assertThat(Long.parseLong(told.get("readCommit").asString())).as(told.toString())
                .isGreaterThanOrEqualTo(elsewhere);

        // The same over REST, where atLeastCommit asks for a later commit.
        long elsewhereAgain = a.write("UPSERT INTO " + busy + " VALUES (1, 2)");
        String row = "/v1/tables/" + quiet + "/row?key=1";
        JsonNode plain = SqlClient.JSON.readTree(given().port(portB).get(row).asString());
        assertThat(plain.at("/row/v").asInt()).isEqualTo(10);
        assertThat(Long.parseLong(plain.get("readCommit").asString())).as(plain.toString())
                .isBetween(elsewhere, elsewhereAgain - 1);
        JsonNode atLeast = SqlClient.JSON.readTree(given().port(portB).get(row + "&atLeastCommit=" + elsewhereAgain)
                .asString());
        assertThat(Long.parseLong(atLeast.get("readCommit").asString())).as(atLeast.toString())
                .isGreaterThanOrEqualTo(elsewhereAgain);

        // A conditional GET of the unchanged row is answered 304 from the same state, without the latest commit.
        String etag = given().port(portB).get(row).header("ETag");
        long third = a.write("UPSERT INTO " + busy + " VALUES (1, 3)");
        Response unchanged = given().port(portB).header("If-None-Match", etag).get(row);
        assertThat(unchanged.statusCode()).isEqualTo(304);
        assertThat(Long.parseLong(unchanged.header("Verso-Commit"))).isBetween(elsewhereAgain, third - 1);
        Response toldUnchanged = given().port(portB).header("If-None-Match", etag)
                .header("Verso-Min-Commit", Long.toString(third)).get(row);
        assertThat(toldUnchanged.statusCode()).isEqualTo(304);
        assertThat(Long.parseLong(toldUnchanged.header("Verso-Commit"))).isGreaterThanOrEqualTo(third);

        long quietAgain = a.write("UPSERT INTO " + quiet + " VALUES (1, 11)");
        JsonNode after = b.run(byKey, 1);
        assertThat(after.at("/results/0/rows/0/0").asInt()).isEqualTo(11);
        assertThat(Long.parseLong(after.get("readCommit").asString())).isGreaterThanOrEqualTo(quietAgain);

        // What counts is the last change of the key read: another key's write is not claimed, a deletion is.
        long otherKey = a.write("UPSERT INTO " + quiet + " VALUES (2, 20)");
        JsonNode sameKey = b.run(byKey, 1);
        assertThat(Long.parseLong(sameKey.get("readCommit").asString())).as(sameKey.toString())
                .isBetween(quietAgain, otherKey - 1);
        long deleted = a.write("DELETE FROM " + quiet + " WHERE k = 1");
        JsonNode gone = b.run(byKey, 1);
        assertThat(gone.at("/results/0/rows")).isEmpty();
        long goneAt = Long.parseLong(gone.get("readCommit").asString());
        assertThat(goneAt).as(gone.toString()).isGreaterThanOrEqualTo(deleted);
        assertThat(a.rows("SELECT v FROM " + quiet + " AS OF COMMIT ? WHERE k = 1", goneAt)).isEmpty();
        assertThat(a.rows("SELECT v FROM " + quiet + " AS OF COMMIT ? WHERE k = 1", deleted - 1))
                .containsExactly(List.of("11"));
    }

    /**
     * Instance B: the whole service again, on another port, on the database instance A uses, reading no replica
     * (where CI gives the shared context, A, its standby).
     */
    private ConfigurableApplicationContext startInstanceB() {
        return new SpringApplicationBuilder(VersoApplication.class).run(
                "--server.port=0",
                "--spring.datasource.url=" + environment.getRequiredProperty("spring.datasource.url"),
                "--spring.datasource.username=" + environment.getProperty("spring.datasource.username", ""),
                "--spring.datasource.password=" + environment.getProperty("spring.datasource.password", ""),
                "--spring.main.register-shutdown-hook=false",
                "--verso.read-replicas=",
                "--verso.retention.check-interval=365d");
    }
}
