package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * WITH RECURSIVE (UNION and UNION ALL, column lists, several CTEs, AS OF inside and inherited, the bound on
 * its rows) and AS OF / FOR SYSTEM_TIME after a derived table and a CTE reference: they reach the relations
 * inside that have none of their own, the nearest winning, as for views.
 */
class RecursiveAndScopedAsOfTests extends IntegrationTest {

    private String org;
    private String sv;
    private String plain;
    private long c1;
    private long c2;

    /** org: a VERSIONED org chart that changes at c2; sv: system-versioned; plain: UPSERT (no history). */
    @BeforeEach
    void tables() {
        org = table("org");
        sv = table("svr");
        plain = table("pln");
        sql.write("CREATE TABLE " + org + " (id INT PRIMARY KEY, boss INT, name TEXT) VERSIONED; "
                + "CREATE TABLE " + sv + " (id INT PRIMARY KEY, boss INT) WITH SYSTEM VERSIONING; "
                + "CREATE TABLE " + plain + " (id INT PRIMARY KEY, label TEXT)");
        c1 = sql.write("UPSERT INTO " + org + " VALUES (1, NULL, 'ceo'), (2, 1, 'cto'), (3, 2, 'dev'), (4, 1, 'cfo'); "
                + "INSERT INTO " + sv + " VALUES (1, NULL), (2, 1), (3, 2); UPSERT INTO " + plain + " VALUES (1, 'one')");
        c2 = sql.write("UPSERT INTO " + org + " VALUES (3, 4, 'dev'), (5, 3, 'intern'); "
                + "UPDATE " + sv + " SET boss = 1 WHERE id = 3; INSERT INTO " + sv + " VALUES (4, 3)");
    }

    private List<List<String>> rows(String statement) {
        return sql.rows(statement.replace("$org", org).replace("$sv", sv).replace("$plain", plain));
    }

    private static final String UNDER_CTO = "WITH RECURSIVE under (id, depth) AS ("
            + "SELECT id, 0 FROM $org WHERE name = 'cto' UNION ALL "
            + "SELECT o.id, u.depth + 1 FROM $org o JOIN under u ON o.boss = u.id) ";

    @Test
    void recursiveQueriesWalkTheTreeNowAndAsOfACommit() {
        assertThat(rows(UNDER_CTO + "SELECT id, depth FROM under ORDER BY id")).containsExactly(List.of("2", "0"));
        // Inherited from the query that holds the WITH: both parts read the chart as of c1.
        assertThat(rows(UNDER_CTO + "SELECT id, depth FROM under ORDER BY id AS OF COMMIT " + c1))
                .containsExactly(List.of("2", "0"), List.of("3", "1"));
        // On the reference itself, as on a view.
        assertThat(rows(UNDER_CTO + "SELECT id FROM under AS OF COMMIT " + c1 + " ORDER BY id"))
                .containsExactly(List.of("2"), List.of("3"));
        // Inside one part only: the first part at c1 (dev under cto), the steps now (intern under dev).
        assertThat(rows("WITH RECURSIVE under (id) AS (SELECT id FROM $org AS OF COMMIT " + c1 + " WHERE boss = 2 "
                + "UNION SELECT o.id FROM $org o JOIN under u ON o.boss = u.id) SELECT id FROM under ORDER BY id"))
                .containsExactly(List.of("3"), List.of("5"));
        // Without a column list the first part names the columns; several CTEs, a plain one read by the recursive one.
        assertThat(rows("WITH RECURSIVE top AS (SELECT id FROM $org WHERE boss IS NULL), "
                + "chain AS (SELECT id, name, 1 AS level FROM $org WHERE id IN (SELECT id FROM top) "
                + "UNION ALL SELECT o.id, o.name, c.level + 1 FROM chain c JOIN $org o ON o.boss = c.id) "
                + "SELECT level, count(*) FROM chain GROUP BY level ORDER BY level"))
                .containsExactly(List.of("1", "1"), List.of("2", "2"), List.of("3", "1"), List.of("4", "1"));
        // UNION ends a cycle; UNION ALL with a depth column ends where it says.
        assertThat(rows("WITH RECURSIVE r (n) AS (SELECT 1 UNION SELECT n % 3 + 1 FROM r) SELECT n FROM r ORDER BY n"))
                .containsExactly(List.of("1"), List.of("2"), List.of("3"));
        assertThat(rows("WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100) "
                + "SELECT count(*), sum(n) FROM r")).containsExactly(List.of("100", "5050"));
    }

    @Test
    void recursionOverSystemTimeReadsTheHierarchyAsItStood() {
        String walk = "WITH RECURSIVE down (id) AS (SELECT id FROM $sv WHERE id = 2 UNION ALL "
                + "SELECT s.id FROM $sv s JOIN down d ON s.boss = d.id) ";
        String atC1 = commitTime(c1);
        assertThat(rows(walk + "SELECT id FROM down ORDER BY id")).containsExactly(List.of("2"));
        assertThat(rows(walk + "SELECT id FROM down FOR SYSTEM_TIME AS OF TIMESTAMP '" + atC1 + "' ORDER BY id"))
                .containsExactly(List.of("2"), List.of("3"));
    }

    @Test
    void aRecursionThatDoesNotEndIsRefusedWithACode() {
        long before = System.nanoTime();
        JsonNode problem = sql.fails(400, "RECURSION_LIMIT",
                "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r");
        assertThat(problem.path("detail").asString()).contains("verso.max-recursive-rows");
        assertThat((System.nanoTime() - before) / 1e9).as("seconds, far from the statement timeout").isLessThan(20);
        sql.fails(400, "INVALID_EXPRESSION",
                "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r ORDER BY 1 LIMIT 3) SELECT n FROM r");
        sql.fails(400, "SET_OPERATION_MISMATCH",
                "WITH RECURSIVE r AS (SELECT 1 AS a UNION ALL SELECT a, a FROM r WHERE a < 3) SELECT a FROM r");
    }

    @Test
    void asOfAfterADerivedTableOrACteReferenceReachesTheRelationsInside() {
        // AS OF COMMIT and AS OF TIMESTAMP after a derived table (already) and after a CTE reference (new).
        assertThat(rows("SELECT count(*) FROM (SELECT o.id FROM $org o JOIN $org b ON o.boss = b.id) AS OF COMMIT "
                + c1 + " AS d")).containsExactly(List.of("3"));
        assertThat(rows("WITH w AS (SELECT id, boss FROM $org) SELECT id, boss FROM w AS OF COMMIT " + c1
                + " WHERE id = 3")).containsExactly(List.of("3", "2"));
        assertThat(rows("WITH w AS (SELECT id, boss FROM $org) SELECT id, boss FROM w AS OF TIMESTAMP '"
                + commitTime(c1) + "' WHERE id = 3")).containsExactly(List.of("3", "2"));
        // The same CTE read at two commits in one query; a relation with its own AS OF inside keeps it.
        assertThat(rows("WITH w AS (SELECT id, boss FROM $org) SELECT a.boss, b.boss FROM w AS OF COMMIT " + c1
                + " a JOIN w b ON a.id = b.id WHERE a.id = 3")).containsExactly(List.of("2", "4"));
        assertThat(rows("WITH w AS (SELECT count(*) AS n FROM $org AS OF COMMIT " + c1 + ") SELECT n FROM w AS OF "
                + "COMMIT " + c2)).containsExactly(List.of("4"));
        // A CTE that reads an earlier CTE: the AS OF reaches through it, as through a view over a view.
        assertThat(rows("WITH a AS (SELECT id FROM $org), b AS (SELECT id FROM a) SELECT count(*) FROM b AS OF COMMIT "
                + c1)).containsExactly(List.of("4"));
    }

    @Test
    void forSystemTimeAfterADerivedTableOrACteReferenceReachesItsSystemVersionedTables() {
        String atC1 = commitTime(c1);
        // Every FOR SYSTEM_TIME form after a derived table over a join of a system-versioned and a plain table:
        // the plain one reads its current rows, as in MariaDB.
        assertThat(rows("SELECT d.id, d.label FROM (SELECT s.id, p.label FROM $sv s LEFT JOIN $plain p ON p.id = s.boss) "
                + "FOR SYSTEM_TIME AS OF TIMESTAMP '" + atC1 + "' AS d ORDER BY d.id"))
                .containsExactly(Arrays.asList("1", null), List.of("2", "one"), Arrays.asList("3", null));
        assertThat(rows("SELECT count(*) FROM (SELECT id FROM $sv) FOR SYSTEM_TIME ALL AS d"))
                .containsExactly(List.of("5"));
        assertThat(rows("SELECT count(*) FROM (SELECT id FROM $sv) FOR SYSTEM_TIME BETWEEN '" + atC1 + "' AND '"
                + atC1 + "' AS d")).containsExactly(List.of("3"));
        assertThat(rows("SELECT count(*) FROM (SELECT id FROM $sv) FOR SYSTEM_TIME FROM '" + atC1 + "' TO '"
                + atC1 + "' AS d")).containsExactly(List.of("0"));
        assertThat(rows("WITH c AS (SELECT id, boss FROM $sv) SELECT boss FROM c FOR SYSTEM_TIME AS OF '" + atC1
                + "' WHERE id = 3")).containsExactly(List.of("2"));
        assertThat(rows("WITH c AS (SELECT id FROM $sv) SELECT count(*) FROM c FOR SYSTEM_TIME ALL"))
                .containsExactly(List.of("5"));
        // Nothing inside takes it: MariaDB's 4124.
        sql.fails(400, "NOT_SYSTEM_VERSIONED", "SELECT * FROM (SELECT id FROM " + plain + ") FOR SYSTEM_TIME ALL AS d");
        JsonNode problem = sql.fails(400, "NOT_SYSTEM_VERSIONED", "WITH c AS (SELECT id FROM " + sv
                + " FOR SYSTEM_TIME ALL) SELECT id FROM c FOR SYSTEM_TIME ALL");
        assertThat(problem.path("detail").asString()).contains("4124");
        assertThat(problem.path("column").asInt()).isEqualTo(("WITH c AS (SELECT id FROM " + sv
                + " FOR SYSTEM_TIME ALL) SELECT id FROM c ").length() + 1);
        sql.fails(400, "AS_OF_DUPLICATE", "SELECT * FROM (SELECT id FROM " + sv + ") FOR SYSTEM_TIME ALL AS OF COMMIT 1 d");
    }

    private String commitTime(long commit) {
        String body = io.restassured.RestAssured.given().port(port).queryParam("after", commit - 1)
                .queryParam("limit", 1).get("/v1/commits").asString();
        return io.verso.support.SqlClient.JSON.readTree(body).get("commits").get(0).get("committedAt").asString();
    }
}
