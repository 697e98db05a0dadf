package io.verso.sysver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Verso against MariaDB 10.11 on the same random histories: two system-versioned tables (one keyed,
 * one without a key), requests of one to four INSERT/UPDATE/DELETE statements, plain, framed by
 * BEGIN … COMMIT or rolled back, applied to both. Then FOR SYSTEM_TIME AS OF every commit instant
 * and every instant between commits, FROM … TO and BETWEEN over random pairs (reversed and equal
 * ones too), ALL, joins, subqueries, derived tables and unions over them, compared row for row as
 * multisets. Each side's clock is its own: MariaDB's transactions run at fixed times (SET
 * timestamp), Verso's at its commit times, and period columns are compared by the rank of the
 * instant they name. A statement refused by one side must be refused by the other.
 */
class MariaDbDifferentialTests extends IntegrationTest {

    private static final DateTimeFormatter MARIA_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
    private static final String END_OF_TIME_VERSO = "2038-01-19T03:14:07.999999";

    private static PrivateMariaDb maria;
    private static Connection mc;

    private int transactions;
    private int rolledBack;
    private int refused;
    private int queries;
    private long rowsCompared;

    @BeforeAll
    static void startMariaDb() throws Exception {
        maria = PrivateMariaDb.start();
        if (maria == null) {
            if ("1".equals(System.getenv("VERSO_REQUIRE_MARIADB"))) {
                fail("VERSO_REQUIRE_MARIADB=1 but no mariadb-install-db/mariadbd was found");
            }
            Assumptions.abort("MariaDB 10.11 binaries (mariadb-install-db, mariadbd) not found and VERSO_MARIADB_URL "
                    + "unset: the differential test is skipped");
        }
        mc = maria.connect();
        try (Statement s = mc.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS verso_diff");
            s.execute("USE verso_diff");
            s.execute("SET time_zone = '+00:00'");
        }
    }

    @AfterAll
    static void stopMariaDb() throws SQLException {
        if (mc != null) {
            mc.close();
        }
        if (maria != null) {
            maria.close();
        }
    }

    @Test
    void randomHistoriesAgreeWithMariaDb() throws Exception {
        int histories = Integer.getInteger("verso.differential.histories", 300);
        long seed = Long.getLong("verso.differential.seed", System.nanoTime());
        long started = System.nanoTime();
        for (int h = 0; h < histories; h++) {
            history(new Random(seed + h), h, seed + h);
            if (h % 10 == 9) {
                System.out.printf("MariaDB differential: %d histories in %.1f s%n", h + 1, (System.nanoTime() - started) / 1e9);
            }
        }
        System.out.printf("MariaDB differential: %d histories, %d transactions (%d rolled back, %d refused by both), "
                        + "%d queries, %d rows compared, 0 mismatches, %.1f s (seed %d)%n", histories, transactions,
                rolledBack, refused, queries, rowsCompared, (System.nanoTime() - started) / 1e9, seed);
    }

    /**
     * FOR SYSTEM_TIME at every boundary MariaDB draws (row_start <= t < row_end; FROM: row_start < t2,
     * BETWEEN: row_start <= t2; both: row_end > t1): before the first commit, a microsecond before, at and after
     * each commit, a microsecond before the end of time (2038-01-19 03:14:07.999999), at it and after it, in
     * AS OF (with and without TIMESTAMP), and FROM … TO and BETWEEN over every pair of those instants, on a
     * history with inserts, updates, key changes and deletes.
     */
    @Test
    void everyBoundaryAgreesWithMariaDb() throws Exception {
        String keyed = table("svb");
        String plain = table("svp");
        sql.write("CREATE TABLE " + keyed + " (k INT PRIMARY KEY, v INT) WITH SYSTEM VERSIONING; "
                + "CREATE TABLE " + plain + " (a INT, b INT) WITH SYSTEM VERSIONING");
        maria("CREATE TABLE " + keyed + " (k INT PRIMARY KEY, v INT) WITH SYSTEM VERSIONING");
        maria("CREATE TABLE " + plain + " (a INT, b INT) WITH SYSTEM VERSIONING");
        List<List<String>> history = List.of(
                List.of("INSERT INTO " + keyed + " VALUES (1, 10), (2, 20), (3, 30)", "INSERT INTO " + plain + " VALUES (1, 1)"),
                List.of("UPDATE " + keyed + " SET v = v + 1 WHERE k = 1", "INSERT INTO " + plain + " VALUES (2, 2)"),
                List.of("DELETE FROM " + keyed + " WHERE k = 2", "UPDATE " + plain + " SET b = 9 WHERE a = 1"),
                List.of("UPDATE " + keyed + " SET k = 4 WHERE k = 3", "DELETE FROM " + plain + " WHERE a = 2"),
                List.of("INSERT INTO " + keyed + " VALUES (2, 22)"));
        List<String> log = new ArrayList<>();
        List<Instant> versoTimes = new ArrayList<>();
        long base = 1_500_000_000L;
        Map<String, String> versoRank = new HashMap<>();
        Map<BigDecimal, String> mariaRank = new HashMap<>();
        for (int r = 0; r < history.size(); r++) {
            Request request = new Request(history.get(r), null);
            log.add(request.verso());
            long commit = sql.write(request.verso());
            String body = RestAssured.given().port(port).queryParam("after", commit - 1).queryParam("limit", 1)
                    .get("/v1/commits").asString();
            Instant at = Instant.parse(SqlClient.JSON.readTree(body).get("commits").get(0).get("committedAt").asString());
            versoTimes.add(at);
            assertThat(mariaTransaction(request, base + 10L * r)).isNull();
            versoRank.put(LocalDateTime.ofInstant(at, ZoneOffset.UTC).toString(), "c" + r);
            mariaRank.put(new BigDecimal(base + 10L * r).setScale(6), "c" + r);
        }
        versoRank.put(END_OF_TIME_VERSO, "now");
        mariaRank.put(new BigDecimal("2147483647.999999"), "now");

        List<String> versoInstants = new ArrayList<>();
        List<String> mariaInstants = new ArrayList<>();
        versoInstants.add(versoTimes.get(0).minusSeconds(3600).toString());
        mariaInstants.add(maria(base - 3600, 0));
        for (int r = 0; r < versoTimes.size(); r++) {
            for (int micros : new int[] {-1, 0, 1}) {
                versoInstants.add(versoTimes.get(r).plusNanos(micros * 1000L).toString());
                mariaInstants.add(maria(base + 10L * r, micros));
            }
        }
        for (String end : List.of("2038-01-19 03:14:07.999998", "2038-01-19 03:14:07.999999", "2038-01-19 03:14:08",
                "2100-01-01 00:00:00")) {
            versoInstants.add(end);
            mariaInstants.add(end);
        }
        int m = versoInstants.size();
        IntFunction<String> vi = i -> "'" + versoInstants.get(i) + "'";
        IntFunction<String> mi = i -> "'" + mariaInstants.get(i) + "'";
        List<Query> batch = new ArrayList<>();
        String periods = "SELECT k, v, %S, %E FROM " + keyed + " FOR SYSTEM_TIME ";
        for (int i = 0; i < m; i++) {
            batch.add(periodQuery(periods + "AS OF %s", i, i, vi, mi));
            batch.add(query("SELECT a, b FROM " + plain + " FOR SYSTEM_TIME AS OF TIMESTAMP %s", i, i, vi, mi));
            for (int j = 0; j < m; j++) {
                if (i % 3 == 0 || j % 2 == 0 || i >= m - 4 || j >= m - 4) {
                    batch.add(periodQuery(periods + "FROM %s TO %s", i, j, vi, mi));
                    batch.add(periodQuery(periods + "BETWEEN %s AND %s", i, j, vi, mi));
                }
            }
        }
        for (int from = 0; from < batch.size(); from += 100) {
            compareBatch(batch.subList(from, Math.min(batch.size(), from + 100)), versoRank, mariaRank, 0, log);
        }
        System.out.printf("MariaDB differential: %d boundary queries over %d instants, 0 mismatches%n", batch.size(), m);
        sql.write("DROP TABLE " + keyed + "; DROP TABLE " + plain);
        maria("DROP TABLE " + keyed);
        maria("DROP TABLE " + plain);
    }

    /** One request of a history, as both sides run it. */
    private record Request(List<String> statements, String framing) {
        String verso() {
            List<String> all = new ArrayList<>();
            if (framing != null) {
                all.add(framing.equals("ROLLBACK") ? "START TRANSACTION" : "BEGIN");
            }
            all.addAll(statements);
            if (framing != null) {
                all.add(framing);
            }
            return String.join("; ", all);
        }
    }

    private void history(Random random, int index, long seed) throws Exception {
        String keyed = table("svk");
        String plain = table("svn");
        List<String> log = new ArrayList<>();
        String ddl = "CREATE TABLE " + keyed + " (k INT PRIMARY KEY, v INT, w INT DEFAULT 7) WITH SYSTEM VERSIONING; "
                + "CREATE TABLE " + plain + " (a INT, b INT) WITH SYSTEM VERSIONING";
        sql.write(ddl);
        maria("CREATE TABLE " + keyed + " (k INT PRIMARY KEY, v INT, w INT DEFAULT 7) WITH SYSTEM VERSIONING");
        maria("CREATE TABLE " + plain + " (a INT, b INT) WITH SYSTEM VERSIONING");

        List<Long> versoCommits = new ArrayList<>();
        List<Long> mariaTimes = new ArrayList<>();
        long base = 1_000_000_000L + index * 10_000L;
        int requests = 3 + random.nextInt(8);
        for (int r = 0; r < requests; r++) {
            int kind = random.nextInt(10);
            Request request = new Request(statements(random, keyed, plain),
                    kind < 2 ? "ROLLBACK" : kind < 5 ? "COMMIT" : null);
            long mariaTime = base + 10L * (r + 1);
            log.add(request.verso());
            Response response = sql.post(request.verso());
            boolean versoRefused = response.statusCode() != 200;
            if (response.statusCode() >= 500) {
                fail("history " + seed + ": Verso answered " + response.statusCode() + " to " + request.verso() + ": "
                        + response.asString());
            }
            String mariaError = mariaTransaction(request, mariaTime);
            if (versoRefused != (mariaError != null)) {
                fail("history " + seed + ": " + (versoRefused ? "Verso refused (" + response.asString()
                        + ") what MariaDB accepted" : "MariaDB refused (" + mariaError + ") what Verso accepted")
                        + ": " + request.verso() + "\nhistory:\n" + String.join(";\n", log));
            }
            transactions++;
            if (versoRefused) {
                refused++;
                continue;
            }
            JsonNode commit = SqlClient.JSON.readTree(response.asString()).get("commit");
            if ("ROLLBACK".equals(request.framing())) {
                rolledBack++;
                assertThat(commit.isNull()).as("a rolled back request makes no commit").isTrue();
                continue;
            }
            versoCommits.add(Long.parseLong(commit.asString()));
            mariaTimes.add(mariaTime);
        }
        compare(random, seed, keyed, plain, versoCommits, mariaTimes, log);
        sql.write("DROP TABLE " + keyed + "; DROP TABLE " + plain);
        maria("DROP TABLE " + keyed);
        maria("DROP TABLE " + plain);
    }

    /** 1–4 statements over both tables; keys come from a small range, so some INSERTs and key changes collide. */
    private static List<String> statements(Random random, String keyed, String plain) {
        List<String> out = new ArrayList<>();
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            int k = 1 + random.nextInt(16);
            int v = random.nextInt(10);
            String value = random.nextInt(6) == 0 ? "NULL" : String.valueOf(v);
            out.add(switch (random.nextInt(15)) {
                case 0, 1, 2 -> "INSERT INTO " + keyed + " VALUES (" + k + ", " + value + ", " + random.nextInt(5) + ")";
                case 3 -> "INSERT INTO " + keyed + " (k, v) VALUES (" + k + ", " + v + "), (" + (k + 16) + ", "
                        + value + ")";
                case 4 -> "UPDATE " + keyed + " SET v = v + 1 WHERE k = " + k;
                case 5 -> "UPDATE " + keyed + " SET w = v * 2, v = " + value + " WHERE v >= " + v;
                case 6 -> "UPDATE " + keyed + " SET k = " + (40 + random.nextInt(20)) + " WHERE k = " + k;
                case 7 -> "DELETE FROM " + keyed + " WHERE k = " + k;
                case 8 -> "DELETE FROM " + keyed + " WHERE v < " + v / 3;
                case 9, 10 -> "INSERT INTO " + plain + " VALUES (" + random.nextInt(6) + ", " + value + ")";
                case 11 -> "UPDATE " + plain + " SET b = b + 1 WHERE a = " + random.nextInt(6);
                case 12 -> "DELETE FROM " + plain + " WHERE a = " + random.nextInt(6);
                case 13 -> "UPDATE " + keyed + " SET w = DEFAULT, v = " + value + " WHERE k <= " + k;
                default -> "UPDATE " + keyed + " SET v = v + 1";
            });
        }
        return out;
    }

    /** Runs a request as one MariaDB transaction at a fixed time; a failing statement rolls it all back. */
    private String mariaTransaction(Request request, long time) throws SQLException {
        try (Statement s = mc.createStatement()) {
            s.execute("SET timestamp = " + time);
            s.execute("START TRANSACTION");
            try {
                for (String statement : request.statements()) {
                    s.execute(statement);
                }
            } catch (SQLException e) {
                s.execute("ROLLBACK");
                return e.getMessage();
            }
            s.execute("ROLLBACK".equals(request.framing()) ? "ROLLBACK" : "COMMIT");
            s.execute("SET timestamp = DEFAULT");
        }
        return null;
    }

    private void maria(String statement) throws SQLException {
        try (Statement s = mc.createStatement()) {
            s.execute(statement);
        }
    }

    /** A query both sides run: its text given the instants' spelling, and which columns hold period values. */
    private record Query(String verso, String maria, List<Integer> periodColumns) {
    }

    private void compare(Random random, long seed, String keyed, String plain, List<Long> versoCommits,
                         List<Long> mariaTimes, List<String> log) throws Exception {
        // The instants, by rank: before the first commit, then each commit and a point between it and the next.
        List<Instant> versoCommitTimes = new ArrayList<>();
        if (!versoCommits.isEmpty()) {
            String body = RestAssured.given().port(port).queryParam("after", versoCommits.get(0) - 1)
                    .queryParam("limit", 1000).get("/v1/commits").asString();
            Map<Long, Instant> times = new HashMap<>();
            for (JsonNode commit : SqlClient.JSON.readTree(body).get("commits")) {
                times.put(Long.parseLong(commit.get("commit").asString()), Instant.parse(commit.get("committedAt").asString()));
            }
            for (long c : versoCommits) {
                versoCommitTimes.add(times.get(c));
            }
        }
        List<String> versoInstants = new ArrayList<>();
        List<String> mariaInstants = new ArrayList<>();
        Map<String, String> versoRank = new HashMap<>();
        Map<BigDecimal, String> mariaRank = new HashMap<>();
        int n = versoCommitTimes.size();
        if (n > 0) {
            versoInstants.add(versoCommitTimes.get(0).minusNanos(1000).toString());
            mariaInstants.add(maria(mariaTimes.get(0) - 5));
        }
        for (int i = 0; i < n; i++) {
            Instant exact = versoCommitTimes.get(i);
            Instant next = i + 1 < n ? versoCommitTimes.get(i + 1) : exact.plusSeconds(1);
            assertThat(next.toEpochMilli() * 1000 - exact.toEpochMilli() * 1000 >= 0).isTrue();
            versoInstants.add(exact.toString());
            versoInstants.add(exact.plusNanos(Math.max(1000, (next.toEpochMilli() - exact.toEpochMilli()) * 500_000L)
                    / 1000 * 1000).toString());
            mariaInstants.add(maria(mariaTimes.get(i)));
            mariaInstants.add(maria(mariaTimes.get(i) + 5));
            versoRank.put(LocalDateTime.ofInstant(exact, ZoneOffset.UTC).toString(), "c" + i);
            mariaRank.put(new BigDecimal(mariaTimes.get(i)).setScale(6), "c" + i);
        }
        versoRank.put(END_OF_TIME_VERSO, "now");
        mariaRank.put(new BigDecimal("2147483647.999999"), "now");

        List<Query> batch = new ArrayList<>();
        int m = versoInstants.size();
        // With no commit at all (every request refused) there is no instant: only the FOR SYSTEM_TIME ALL
        // queries, which name none, are built then.
        IntFunction<String> vi = i -> i < m ? "'" + versoInstants.get(i) + "'" : null;
        IntFunction<String> mi = i -> i < m ? "'" + mariaInstants.get(i) + "'" : null;
        for (int i = 0; i < m; i++) {
            batch.add(query("SELECT k, v, w FROM " + keyed + " FOR SYSTEM_TIME AS OF %s", i, i, vi, mi));
            batch.add(query("SELECT a, b FROM " + plain + " FOR SYSTEM_TIME AS OF %s", i, i, vi, mi));
        }
        String versioned = "SELECT k, v, w, %S, %E FROM " + keyed + " FOR SYSTEM_TIME ";
        for (int p = 0; p < 3 && m > 0; p++) {
            int i = random.nextInt(m);
            int j = random.nextInt(m);
            batch.add(periodQuery(versioned + "FROM %s TO %s", i, j, vi, mi));
            batch.add(periodQuery(versioned + "BETWEEN %s AND %s", i, j, vi, mi));
            batch.add(query("SELECT x.k, y.b FROM " + keyed + " FOR SYSTEM_TIME AS OF %s x JOIN " + plain
                    + " FOR SYSTEM_TIME AS OF %s y ON x.v = y.a", i, j, vi, mi));
            batch.add(query("SELECT a FROM " + plain + " FOR SYSTEM_TIME AS OF %s y WHERE EXISTS (SELECT 1 FROM "
                    + keyed + " FOR SYSTEM_TIME AS OF %s x WHERE x.k = y.a)", i, j, vi, mi));
            batch.add(query("SELECT k FROM (SELECT k FROM " + keyed + " FOR SYSTEM_TIME AS OF %s) d UNION SELECT a FROM "
                    + plain + " FOR SYSTEM_TIME AS OF %s", i, j, vi, mi));
        }
        batch.add(periodQuery(versioned + "ALL", 0, 0, vi, mi));
        batch.add(periodQuery("SELECT a, b, %S, %E FROM " + plain + " FOR SYSTEM_TIME ALL", 0, 0, vi, mi));
        batch.add(new Query("SELECT count(*), sum(v) FROM " + keyed + " FOR SYSTEM_TIME ALL",
                "SELECT count(*), sum(v) FROM " + keyed + " FOR SYSTEM_TIME ALL", List.of()));
        if (m > 0) {
            batch.add(query("SELECT k FROM " + keyed + " FOR SYSTEM_TIME AS OF %s WHERE v IN (SELECT b FROM " + plain
                    + " FOR SYSTEM_TIME ALL)", m - 1, m - 1, vi, mi));
        }

        compareBatch(batch, versoRank, mariaRank, seed, log);
    }

    /** Runs every query of {@code batch} on both sides and compares their rows as multisets, period values by rank. */
    private void compareBatch(List<Query> batch, Map<String, String> versoRank, Map<BigDecimal, String> mariaRank,
                              long seed, List<String> log) throws Exception {
        JsonNode results = sql.run(String.join(";\n", batch.stream().map(Query::verso).toList())).get("results");
        for (int q = 0; q < batch.size(); q++) {
            Query query = batch.get(q);
            List<String> verso = new ArrayList<>();
            for (JsonNode row : results.get(q).get("rows")) {
                List<String> values = new ArrayList<>();
                for (int c = 0; c < row.size(); c++) {
                    JsonNode value = row.get(c);
                    String text = value.isNull() ? "NULL" : value.asString();
                    values.add(query.periodColumns().contains(c) && !value.isNull()
                            ? versoRank.getOrDefault(LocalDateTime.parse(text).toString(), "?" + text) : text);
                }
                verso.add(String.join("|", values));
            }
            List<String> mariaRows = new ArrayList<>();
            try (Statement s = mc.createStatement(); ResultSet rs = s.executeQuery(query.maria())) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<String> values = new ArrayList<>();
                    for (int c = 0; c < columns; c++) {
                        String text = rs.getString(c + 1);
                        if (text == null) {
                            values.add("NULL");
                        } else if (query.periodColumns().contains(c)) {
                            values.add(mariaRank.getOrDefault(new BigDecimal(text).setScale(6), "?" + text));
                        } else {
                            values.add(text);
                        }
                    }
                    mariaRows.add(String.join("|", values));
                }
            }
            Collections.sort(verso);
            Collections.sort(mariaRows);
            queries++;
            rowsCompared += verso.size();
            if (!verso.equals(mariaRows)) {
                fail("history " + seed + ": results differ for\n  Verso:   " + query.verso() + "\n  MariaDB: "
                        + query.maria() + "\nVerso:   " + verso + "\nMariaDB: " + mariaRows + "\nhistory:\n"
                        + String.join(";\n", log));
            }
        }
    }

    private static String maria(long epochSeconds, int micros) {
        return MARIA_TIME.format(LocalDateTime.ofEpochSecond(epochSeconds, 0, ZoneOffset.UTC).plusNanos(micros * 1000L));
    }

    private static String maria(long epochSeconds) {
        return MARIA_TIME.format(LocalDateTime.ofEpochSecond(epochSeconds, 0, ZoneOffset.UTC));
    }

    private static Query query(String template, int i, int j, IntFunction<String> vi, IntFunction<String> mi) {
        return new Query(String.format(template, vi.apply(i), vi.apply(j)), String.format(template, mi.apply(i),
                mi.apply(j)), List.of());
    }

    /** Period columns (%S, %E) come third and fourth from the end... at the positions they are written. */
    private static Query periodQuery(String template, int i, int j, IntFunction<String> vi, IntFunction<String> mi) {
        List<String> items = List.of(template.substring("SELECT ".length(), template.indexOf(" FROM ")).split(", "));
        List<Integer> period = new ArrayList<>();
        for (int c = 0; c < items.size(); c++) {
            if (items.get(c).equals("%S") || items.get(c).equals("%E")) {
                period.add(c);
            }
        }
        String verso = template.replace("%S", "row_start").replace("%E", "row_end");
        String maria = template.replace("%S", "UNIX_TIMESTAMP(row_start)").replace("%E", "UNIX_TIMESTAMP(row_end)");
        return new Query(String.format(verso, vi.apply(i), vi.apply(j)), String.format(maria, mi.apply(i),
                mi.apply(j)), period);
    }
}
