package io.verso.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.verso.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** CREATE DERIVED TABLE as a user meets it: exact at every commit, read-only, built over existing history. */
class DerivedTablesTests extends IntegrationTest {

    @Autowired
    MeterRegistry meters;

    @Test
    void perAccountTotalsAreExactAsOfEveryCommitIncludingThoseBeforeTheirCreation() {
        String ledger = table("ledger");
        String totals = table("totals");
        sql.write("CREATE TABLE " + ledger + " (entry BIGINT PRIMARY KEY, account TEXT, amount NUMERIC(20,2), ix INT)"
                + " VERSIONED VALID BY (ix)");
        List<Long> commits = new ArrayList<>();
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (1, 'a', 10.50, 1), (2, 'b', 5, 1)"));
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (3, 'a', -2.25, 1)"));
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (1, 'a', 99, 0)")); // loses on arrival
        String query = "SELECT account, sum(amount) AS total, count(*) AS entries FROM " + ledger
                + " GROUP BY account";
        commits.add(sql.write("CREATE DERIVED TABLE " + totals + " PRIMARY KEY (account) AS " + query));
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (2, 'a', 5, 2)")); // b's only entry moves to a
        commits.add(sql.write("DELETE FROM " + ledger + " WHERE entry = 3 AT (ix = 9)"));
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (4, 'c', 1, 1), (5, 'c', 2, 1)"));
        for (long commit : commits) {
            assertThat(sql.rows("SELECT * FROM " + totals + " AS OF COMMIT ? ORDER BY account", commit))
                    .as("as of commit " + commit)
                    .isEqualTo(sql.rows(query + " ORDER BY account AS OF COMMIT ?", commit));
        }
        assertThat(sql.rows("SELECT account, total, entries FROM " + totals + " ORDER BY account"))
                .containsExactly(List.of("a", "15.50", "2"), List.of("c", "3.00", "2"));
        // Its history is ordinary: b disappeared when its only entry moved.
        assertThat(sql.rows("SELECT account, _op FROM changes(" + totals + ") WHERE account = 'b' ORDER BY _commit"))
                .containsExactly(List.of("b", "insert"), List.of("b", "delete"));

        JsonNode shown = sql.run("SHOW DERIVED TABLES").get("results").get(0).get("rows");
        boolean found = false;
        for (JsonNode row : shown) {
            if (row.get(0).asString().equals(totals)) {
                found = true;
                assertThat(row.get(1).asString()).isEqualTo("account");
                assertThat(row.get(2).asString()).isEqualTo(query);
                assertThat(row.get(3).asString()).isEqualTo(ledger);
            }
        }
        assertThat(found).isTrue();
    }

    @Test
    void usersCannotWriteADerivedTableNorDropItsSources() {
        String src = table("src");
        String d = table("d");
        sql.write("CREATE TABLE " + src + " (k INT PRIMARY KEY, v INT) VERSIONED");
        sql.write("CREATE DERIVED TABLE " + d + " PRIMARY KEY (k) AS SELECT k, v * 2 AS v2 FROM " + src + " WHERE v > 0");
        sql.fails(400, "DERIVED_TABLE_READ_ONLY", "UPSERT INTO " + d + " VALUES (1, 2)");
        sql.fails(400, "DERIVED_TABLE_READ_ONLY", "DELETE FROM " + d + " WHERE k = 1");
        sql.fails(409, "DERIVED_DEPENDENCY", "DROP TABLE " + src);
        sql.fails(409, "DERIVED_DEPENDENCY", "ALTER TABLE " + src + " RENAME TO " + src + "_x");
        sql.write("DROP TABLE " + d);
        sql.write("DROP TABLE " + src);
    }

    /**
     * A view a derived table reads, directly or through another view, is expanded into its query at every
     * commit of its sources: dropping it is refused as dropping a source is. It used to be dropped, and every
     * later write of the source then failed with "unknown table" at a place in a text the writer never wrote.
     */
    @Test
    void aViewADerivedTableReadsCannotBeDropped() {
        String src = table("src");
        String inner = table("inner");
        String outer = table("outer");
        String d = table("d");
        sql.write("CREATE TABLE " + src + " (k INT PRIMARY KEY, g TEXT, n INT) VERSIONED");
        sql.write("CREATE VIEW " + inner + " AS SELECT k, g, n FROM " + src + " WHERE n > 0");
        sql.write("CREATE VIEW " + outer + " AS SELECT g FROM " + inner);
        sql.write("UPSERT INTO " + src + " VALUES (1, 'a', 1), (2, 'a', -1), (3, 'b', 5)");
        sql.write("CREATE DERIVED TABLE " + d + " PRIMARY KEY (g) AS SELECT g, count(*) AS c FROM " + outer
                + " GROUP BY g");
        for (String view : List.of(outer, inner)) {
            JsonNode refused = sql.fails(409, "DERIVED_DEPENDENCY", "DROP VIEW " + view);
            assertThat(refused.path("detail").asString()).isEqualTo("DROP VIEW " + view + " is refused: derived "
                    + "table(s) " + d + " read it; they must be dropped first");
            assertThat(refused.path("column").asInt()).isEqualTo(11);
        }
        sql.write("UPSERT INTO " + src + " VALUES (4, 'b', 2)");
        assertThat(sql.rows("SELECT g, c FROM " + d + " ORDER BY g"))
                .containsExactly(List.of("a", "1"), List.of("b", "2"));
        sql.write("DROP TABLE " + d);
        sql.write("DROP VIEW " + outer);
        sql.write("DROP VIEW " + inner);
    }

    @Test
    void aKeylessDerivedTableAppendsTheQueryOverEachCommitsAppendedRows() {
        String src = table("src");
        String d = table("d");
        String dd = table("dd");
        sql.write("CREATE TABLE " + src + " (k INT, amt INT) APPEND");
        long first = sql.write("INSERT INTO " + src + " VALUES (1, 5), (2, 1), (1, 9)");
        String query = "SELECT k, amt * 2 AS twice FROM " + src + " WHERE amt > 3";
        sql.write("CREATE DERIVED TABLE " + d + " AS " + query);
        sql.write("CREATE DERIVED TABLE " + dd + " AS SELECT twice FROM " + d + " WHERE k = 1");
        sql.write("INSERT INTO " + src + " VALUES (1, 5), (3, 7)");
        sql.write("INSERT INTO " + src + " VALUES (3, 2)");
        long last = sql.write("INSERT INTO " + src + " VALUES (1, 4)");
        for (long n = first; n <= last; n++) {
            assertThat(sorted(sql.rows("SELECT * FROM " + d + " AS OF COMMIT ?", n))).as("as of " + n)
                    .isEqualTo(sorted(sql.rows(query + " AS OF COMMIT " + n)));
        }
        assertThat(sorted(sql.rows("SELECT * FROM " + dd))).containsExactly("10", "10", "18", "8");
        assertThat(sql.rows("SELECT DISTINCT _op FROM changes(" + d + ")")).containsExactly(List.of("insert"));
        sql.fails(400, "DERIVED_TABLE_READ_ONLY", "INSERT INTO " + d + " VALUES (1, 2)");
        // A result that can lose or change rows needs a key.
        sql.fails(400, "PRIMARY_KEY_REQUIRED", "CREATE DERIVED TABLE " + table("x") + " AS SELECT k, count(*) AS n FROM "
                + src + " GROUP BY k");
        String versioned = table("v");
        sql.write("CREATE TABLE " + versioned + " (k INT PRIMARY KEY, v INT) VERSIONED");
        sql.fails(400, "PRIMARY_KEY_REQUIRED", "CREATE DERIVED TABLE " + table("x") + " AS SELECT k, v FROM " + versioned);
    }

    private static List<String> sorted(List<List<String>> rows) {
        return rows.stream().map(r -> String.join("|", r)).sorted().toList();
    }

    @Test
    void theQueryMayNotReadAtACommitOrTheClock() {
        String src = table("src");
        sql.write("CREATE TABLE " + src + " (k INT PRIMARY KEY, v INT) VERSIONED");
        long c = sql.write("UPSERT INTO " + src + " VALUES (1, 1)");
        JsonNode error = sql.fails(400, "DERIVED_QUERY_NOT_ALLOWED", "CREATE DERIVED TABLE " + table("d")
                + " PRIMARY KEY (k) AS SELECT k FROM " + src + " AS OF COMMIT " + c);
        assertThat(error.get("detail").asString()).contains("AS OF");
        error = sql.fails(400, "DERIVED_QUERY_NOT_ALLOWED", "CREATE DERIVED TABLE " + table("d")
                + " PRIMARY KEY (k) AS SELECT k, now() AS at FROM " + src);
        assertThat(error.get("detail").asString()).contains("now()");
        sql.fails(400, "DERIVED_QUERY_NOT_ALLOWED", "CREATE DERIVED TABLE " + table("d")
                + " PRIMARY KEY (k) AS SELECT k, random() AS r FROM " + src);
        error = sql.fails(400, "DERIVED_QUERY_NOT_ALLOWED", "CREATE DERIVED TABLE " + table("d")
                + " PRIMARY KEY (table_name) AS SELECT table_name FROM information_schema.tables");
        assertThat(error.get("detail").asString()).contains("information_schema");
        sql.fails(409, "DERIVED_KEY_CONFLICT", "CREATE DERIVED TABLE " + table("d")
                + " PRIMARY KEY (one) AS SELECT 1 AS one, k FROM " + src + " UNION ALL SELECT 1, k + 1 FROM " + src);
    }

    @Test
    void erasingASourceKeyRemovesItFromEveryCommitOfTheDerivedTable() {
        String src = table("src");
        String d = table("d");
        sql.write("CREATE TABLE " + src + " (k INT PRIMARY KEY, owner TEXT, v INT) VERSIONED");
        long c1 = sql.write("UPSERT INTO " + src + " VALUES (1, 'alice', 1), (2, 'bob', 2)");
        sql.write("CREATE DERIVED TABLE " + d + " PRIMARY KEY (owner) AS SELECT owner, sum(v) AS total FROM " + src
                + " GROUP BY owner");
        assertThat(sql.rows("SELECT owner FROM " + d + " AS OF COMMIT ? ORDER BY owner", c1))
                .containsExactly(List.of("alice"), List.of("bob"));
        sql.write("ERASE FROM " + src + " WHERE k = 1");
        assertThat(sql.rows("SELECT owner FROM " + d + " AS OF COMMIT ? ORDER BY owner", c1))
                .containsExactly(List.of("bob"));
        assertThat(sql.rows("SELECT count(*) FROM history(" + d + ") WHERE owner = 'alice'"))
                .containsExactly(List.of("0"));
    }

    @Test
    void keyJoinsAreKeptByTheKeysEachCommitReachesAndStayExactAfterErasureAndDeletedHistory() {
        String accounts = table("accounts");
        String ledger = table("ledger");
        String regions = table("regions");
        String entries = table("entries");
        sql.write("CREATE TABLE " + accounts + " (account TEXT PRIMARY KEY, region TEXT, active BOOLEAN) VERSIONED");
        sql.write("CREATE TABLE " + ledger + " (entry BIGINT PRIMARY KEY, account TEXT, amount INT) VERSIONED");
        List<Long> commits = new ArrayList<>();
        commits.add(sql.write("UPSERT INTO " + accounts + " VALUES ('a', 'north', TRUE), ('b', 'north', TRUE), "
                + "('c', 'south', TRUE)"));
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (1, 'a', 10), (2, 'b', 5), (3, 'c', 7)"));
        String byRegion = "SELECT a.region, sum(l.amount) AS total, count(*) AS entries FROM " + ledger + " l JOIN "
                + accounts + " a ON a.account = l.account WHERE a.active GROUP BY a.region";
        String byEntry = "SELECT l.entry, l.amount, a.region FROM " + ledger + " AS l JOIN " + accounts
                + " AS a ON a.account = l.account WHERE l.amount > 0";
        commits.add(sql.write("CREATE DERIVED TABLE " + regions + " PRIMARY KEY (region) AS " + byRegion));
        commits.add(sql.write("CREATE DERIVED TABLE " + entries + " PRIMARY KEY (entry) AS " + byEntry));
        JsonNode shown = sql.run("SHOW DERIVED TABLES").get("results").get(0);
        assertThat(shown.get("columns").get(5).get("name").asString()).isEqualTo("mode");
        int found = 0;
        for (JsonNode row : shown.get("rows")) {
            if (row.get(0).asString().equals(regions) || row.get(0).asString().equals(entries)) {
                assertThat(row.get(5).asString()).as(row.toString()).isEqualTo("incremental");
                found++;
            }
        }
        assertThat(found).isEqualTo(2);

        double incremental = applied("incremental");
        double recomputed = applied("recompute");
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (4, 'a', 3), (5, 'c', -1)"));
        commits.add(sql.write("UPSERT INTO " + accounts + " VALUES ('b', 'south', TRUE)")); // b's entries move
        commits.add(sql.write("UPSERT INTO " + accounts + " VALUES ('c', 'south', FALSE)"));
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (1, 'b', 10)")); // an entry moves account
        commits.add(sql.write("DELETE FROM " + ledger + " WHERE entry = 2"));
        commits.add(sql.write("UPSERT INTO " + accounts + " VALUES ('d', 'west', TRUE); UPSERT INTO " + ledger
                + " VALUES (6, 'd', 8)"));
        commits.add(sql.write("DELETE FROM " + accounts + " WHERE account = 'a'"));
        // Both tables followed every one of those commits by the keys it reached, never by their whole query.
        assertThat(applied("incremental") - incremental).isEqualTo(14);
        assertThat(applied("recompute")).isEqualTo(recomputed);
        exact(regions, byRegion, commits);
        exact(entries, byEntry, commits);
        assertThat(sql.rows("SELECT region, total, entries FROM " + regions + " ORDER BY region"))
                .containsExactly(List.of("south", "10", "1"), List.of("west", "8", "1"));

        // ERASE of a key in either source: gone from every commit of both derived tables.
        sql.write("ERASE FROM " + accounts + " WHERE account = 'd'");
        exact(regions, byRegion, commits);
        exact(entries, byEntry, commits);
        sql.write("ERASE FROM " + ledger + " WHERE entry = 1");
        exact(regions, byRegion, commits);
        exact(entries, byEntry, commits);
        assertThat(sql.rows("SELECT count(*) FROM history(" + regions + ") WHERE region = 'west'"))
                .containsExactly(List.of("0"));

        // DELETE HISTORY of a source: later commits still follow by keys, exact from the horizon on.
        long horizon = commits.get(6);
        sql.write("DELETE HISTORY FROM " + ledger + " BEFORE COMMIT " + horizon);
        incremental = applied("incremental");
        recomputed = applied("recompute");
        List<Long> later = new ArrayList<>(commits.subList(6, commits.size()));
        later.add(sql.write("UPSERT INTO " + ledger + " VALUES (7, 'b', 2), (3, 'b', 7)"));
        later.add(sql.write("UPSERT INTO " + accounts + " VALUES ('c', 'south', TRUE)"));
        assertThat(applied("incremental") - incremental).isEqualTo(4);
        assertThat(applied("recompute")).isEqualTo(recomputed);
        exact(regions, byRegion, later);
        exact(entries, byEntry, later);
    }

    @Test
    void aJoinRecomputesACommitThatReachesANullKeyOrTooManyRows() {
        String accounts = table("accounts");
        String ledger = table("ledger");
        String regions = table("regions");
        sql.write("CREATE TABLE " + accounts + " (account INT PRIMARY KEY, region TEXT) VERSIONED; CREATE TABLE "
                + ledger + " (entry INT PRIMARY KEY, account INT, amount INT) VERSIONED");
        List<Long> commits = new ArrayList<>();
        commits.add(sql.write("UPSERT INTO " + accounts + " VALUES (1, 'x'), (2, NULL)"));
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (1, 1, 5)"));
        // HAVING drops the NULL region, which the search for reached keys cannot know.
        String query = "SELECT a.region, sum(l.amount) AS total, count(*) AS n FROM " + ledger + " l JOIN " + accounts
                + " a ON a.account = l.account GROUP BY a.region HAVING a.region IS NOT NULL";
        commits.add(sql.write("CREATE DERIVED TABLE " + regions + " PRIMARY KEY (region) AS " + query));
        double incremental = applied("incremental");
        double recomputed = applied("recompute");
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (2, 1, 7)"));
        assertThat(applied("incremental") - incremental).isEqualTo(1);
        commits.add(sql.write("UPSERT INTO " + ledger + " VALUES (3, 2, 1)"));
        assertThat(applied("recompute") - recomputed).isEqualTo(1);
        StringBuilder many = new StringBuilder("UPSERT INTO " + ledger + " VALUES ");
        for (int entry = 10; entry <= 10 + Locality.MAX_VALUES; entry++) {
            many.append(entry > 10 ? ", (" : "(").append(entry).append(", 1, 1)");
        }
        commits.add(sql.write(many.toString()));
        assertThat(applied("recompute") - recomputed).isEqualTo(2);
        assertThat(applied("incremental") - incremental).isEqualTo(1);
        exact(regions, query, commits);
        assertThat(sql.rows("SELECT region, total, n FROM " + regions))
                .containsExactly(List.of("x", String.valueOf(12 + Locality.MAX_VALUES + 1), "10003"));
    }

    private double applied(String mode) {
        return meters.get("verso.derived.applied").tag("mode", mode).counter().count();
    }

    private void exact(String derived, String query, List<Long> commits) {
        for (long commit : commits) {
            assertThat(sorted(sql.rows("SELECT * FROM " + derived + " AS OF COMMIT ?", commit)))
                    .as(derived + " as of commit " + commit)
                    .isEqualTo(sorted(sql.rows(query + " AS OF COMMIT " + commit)));
        }
        assertThat(sorted(sql.rows("SELECT * FROM " + derived))).isEqualTo(sorted(sql.rows(query)));
    }
}
