package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The read language as a user meets it through {@code /v1/sql}: which AS OF applies where, views,
 * INSERT ... SELECT, AS OF TIMESTAMP, and the errors of a bad read with their code and position.
 */
class ReadLanguageTests extends IntegrationTest {

    @Autowired
    JdbcTemplate jdbc;

    private String acc;
    private String log;
    private long c1;
    private long c2;
    private long c3;

    /** acc: VERSIONED, three commits; log: APPEND, one row per commit. */
    @BeforeEach
    void tables() {
        acc = table("acc");
        log = table("log");
        sql.write("CREATE TABLE " + acc + " (id INT PRIMARY KEY, bal NUMERIC, v INT) VERSIONED VALID BY (v); "
                + "CREATE TABLE " + log + " (id INT, note TEXT)");
        c1 = sql.write("UPSERT INTO " + acc + " VALUES (1, 10, 1), (2, 20, 1); INSERT INTO " + log + " VALUES (1, 'a')");
        c2 = sql.write("UPSERT INTO " + acc + " VALUES (1, 11, 2), (3, 30, 1); INSERT INTO " + log + " VALUES (2, 'b')");
        c3 = sql.write("DELETE FROM " + acc + " WHERE id = 2 AT (v = 5); INSERT INTO " + log + " VALUES (3, 'c')");
    }

    private List<List<String>> rows(String statement) {
        return sql.rows(statement.replace("$acc", acc).replace("$log", log));
    }

    @Test
    void theNearestAsOfWins() {
        // Trailing AS OF of the block applies to its relations and, inherited, to its subqueries.
        assertThat(rows("SELECT id, bal FROM $acc WHERE id IN (SELECT id FROM $log) ORDER BY id AS OF COMMIT " + c1))
                .containsExactly(List.of("1", "10"));
        // A relation's own AS OF beats the trailing one.
        assertThat(rows("SELECT a.id, a.bal, b.bal FROM $acc AS OF COMMIT " + c1 + " a JOIN $acc b ON a.id = b.id "
                + "ORDER BY a.id AS OF COMMIT " + c2)).containsExactly(List.of("1", "10", "11"), List.of("2", "20", "20"));
        // A derived table's AS OF applies to its body; the body's own trailing AS OF is nearer still.
        assertThat(rows("SELECT count(*) FROM (SELECT id FROM $acc) AS OF COMMIT " + c1 + " AS d"))
                .containsExactly(List.of("2"));
        assertThat(rows("SELECT count(*) FROM (SELECT id FROM $acc AS OF COMMIT " + c2 + ") AS OF COMMIT " + c1
                + " AS d")).containsExactly(List.of("3"));
        // Without any AS OF: current rows (key 2 was deleted at c3).
        assertThat(rows("SELECT id FROM $acc ORDER BY id")).containsExactly(List.of("1"), List.of("3"));
        // Trailing clauses after the last branch apply to the whole set operation.
        assertThat(rows("SELECT id FROM $acc UNION SELECT id + 10 FROM $acc ORDER BY 1 AS OF COMMIT " + c1))
                .containsExactly(List.of("1"), List.of("2"), List.of("11"), List.of("12"));
        // A CTE body inherits the main query's AS OF.
        assertThat(rows("WITH x AS (SELECT id FROM $acc) SELECT x.id FROM x ORDER BY x.id AS OF COMMIT " + c1))
                .containsExactly(List.of("1"), List.of("2"));
        // A correlated subquery AS OF one commit, joined to today's rows.
        assertThat(rows("SELECT id, bal - (SELECT o.bal FROM $acc AS OF COMMIT " + c1 + " o WHERE o.id = n.id) "
                + "FROM $acc n ORDER BY id")).containsExactly(List.of("1", "1"), java.util.Arrays.asList("3", null));
    }

    @Test
    void everyResultReportsTheCommitItWasReadAt() {
        JsonNode asOf = sql.run("SELECT id FROM " + acc + " AS OF COMMIT " + c1);
        assertThat(asOf.at("/results/0/asOfCommit").asString()).isEqualTo(String.valueOf(c1));
        JsonNode now = sql.run("SELECT 1");
        assertThat(now.at("/results/0/asOfCommit").asString()).isEqualTo(now.get("readCommit").asString());
    }

    @Test
    void asOfTimestampReadsTheLatestCommitAtOrBeforeIt() {
        JsonNode future = sql.run("SELECT id FROM " + acc + " AS OF TIMESTAMP '2999-01-01T00:00:00Z' ORDER BY id");
        assertThat(future.at("/results/0/rows").size()).isEqualTo(2);
        JsonNode past = sql.run("SELECT id FROM " + acc + " AS OF TIMESTAMP ?", "2000-01-01T00:00:00Z");
        assertThat(past.at("/results/0/rows").size()).isZero();
        // No commit holds the state before the first one: none is named (AS OF COMMIT 0 is refused).
        assertThat(past.at("/results/0").has("asOfCommit")).isFalse();
        // Each commit's own time reads exactly that commit (times strictly increase here: one writer).
        long[] commits = {c1, c2, c3};
        for (int i = 0; i < commits.length; i++) {
            long c = commits[i];
            String at = jdbc.queryForObject("SELECT to_char(committed_at AT TIME ZONE 'UTC', "
                    + "'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM verso.commits WHERE seq = ?", String.class, c);
            JsonNode read = sql.run("SELECT count(*) FROM " + log + " AS OF TIMESTAMP ?", at);
            assertThat(read.at("/results/0/asOfCommit").asString()).isEqualTo(String.valueOf(c));
            assertThat(read.at("/results/0/rows/0/0").asString()).isEqualTo(String.valueOf(i + 1));
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM (SELECT committed_at < lag(committed_at) OVER "
                + "(ORDER BY seq) AS back FROM verso.commits) x WHERE back", Long.class))
                .as("commits whose time is before an earlier commit's").isZero();
        sql.fails(400, "INVALID_EXPRESSION", "SELECT id FROM " + acc + " AS OF TIMESTAMP id");
    }

    @Test
    void viewsAreExpandedWhereTheyAreUsed() {
        String view = table("v");
        sql.write("CREATE VIEW " + view + " (k, b) AS SELECT id, bal FROM " + acc + " WHERE bal > 10");
        assertThat(rows("SELECT k, b FROM " + view + " ORDER BY k")).containsExactly(List.of("1", "11"),
                List.of("3", "30"));
        // An AS OF on the view applies to the relations of its body.
        assertThat(rows("SELECT k, b FROM " + view + " AS OF COMMIT " + c1 + " ORDER BY k"))
                .containsExactly(List.of("2", "20"));
        sql.fails(409, "VIEW_EXISTS", "CREATE VIEW " + view + " AS SELECT 1");
        // Tables and views share one namespace, however a table comes by its name.
        String other = table("t");
        sql.write("CREATE TABLE " + other + " (k INT PRIMARY KEY, b INT) VERSIONED");
        for (String taken : List.of("CREATE TABLE " + view + " (k INT)",
                "CREATE DERIVED TABLE " + view + " PRIMARY KEY (k) AS SELECT k, b FROM " + other,
                "ALTER TABLE " + other + " RENAME TO " + view)) {
            assertThat(sql.fails(409, "TABLE_EXISTS", taken).path("detail").asString())
                    .isEqualTo("a view named '" + view + "' already exists");
        }
        assertThat(rows("SELECT k, b FROM " + view + " ORDER BY k")).hasSize(2);
        sql.write("DROP TABLE " + other);
        sql.write("DROP VIEW " + view);
        sql.fails(404, "UNKNOWN_TABLE", "SELECT * FROM " + view);
    }

    @Test
    void insertSelectWritesInTheSameCommit() {
        String copy = table("copy");
        sql.write("CREATE TABLE " + copy + " (id INT PRIMARY KEY, bal NUMERIC, v INT) VERSIONED VALID BY (v)");
        JsonNode receipt = sql.run("UPSERT INTO " + copy + " SELECT id, bal, v FROM " + acc + " AS OF COMMIT " + c1
                + "; UPSERT INTO " + copy + " (id, bal, v) SELECT id + 100, bal * 2, 1 FROM " + copy);
        assertThat(receipt.at("/results/0/rows").asLong()).isEqualTo(2);
        assertThat(receipt.at("/results/1/rows").asLong()).isEqualTo(2);
        long commit = Long.parseLong(receipt.get("commit").asString());
        assertThat(rows("SELECT id, bal FROM " + copy + " ORDER BY id AS OF COMMIT " + commit)).containsExactly(
                List.of("1", "10"), List.of("2", "20"), List.of("101", "20"), List.of("102", "40"));
        sql.fails(400, "COLUMN_COUNT_MISMATCH", "INSERT INTO " + copy + " SELECT id FROM " + acc);
    }

    private JsonNode refusedAt(String code, int line, int column, String statement) {
        JsonNode problem = sql.fails(code.equals("UNKNOWN_TABLE") ? 404 : 400, code,
                statement.replace("$acc", acc).replace("$log", log));
        assertThat(problem.path("line").asInt()).as(problem.toString()).isEqualTo(line);
        assertThat(problem.path("column").asInt()).as(problem.toString()).isEqualTo(column);
        return problem;
    }

    @Test
    void badReadsNameTheTokenAndItsPosition() {
        assertThat(refusedAt("UNKNOWN_FUNCTION", 1, 8, "SELECT pg_sleep(1)").path("detail").asString())
                .contains("pg_sleep");
        refusedAt("INVALID_EXPRESSION", 1, 8, "SELECT lower('a', 'b')");
        refusedAt("AGGREGATE_MISPLACED", 2, 7, "SELECT id FROM $acc\nWHERE sum(bal) > 1");
        refusedAt("COLUMN_NOT_GROUPED", 1, 8, "SELECT bal, count(*) FROM $acc GROUP BY id");
        refusedAt("SET_OPERATION_MISMATCH", 2, 1, "SELECT id FROM $log\nUNION SELECT id, note FROM $log");
        refusedAt("AS_OF_DUPLICATE", 2, 16, "SELECT id FROM $acc\nAS OF COMMIT 1 AS OF COMMIT 2");
        refusedAt("UNKNOWN_COLUMN", 2, 8, "SELECT id FROM $acc WHERE EXISTS (\nSELECT nope FROM $log)");
        refusedAt("AS_OF_NOT_SUPPORTED", 1, 65, "WITH RECURSIVE x (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x "
                + "AS OF COMMIT 1 WHERE n < 3) SELECT n FROM x");
        // AS OF in a derived table's body and on the derived table conflict with nothing: the body's wins.
        assertThat(rows("SELECT count(*) FROM (SELECT id FROM $log AS OF COMMIT " + c1 + ") AS OF COMMIT " + c2
                + " AS d")).containsExactly(List.of("1"));
        String deep = "SELECT 1";
        for (int i = 0; i < 40; i++) {
            deep = "SELECT * FROM (" + deep + ") AS d" + i;
        }
        sql.fails(400, "NESTING_TOO_DEEP", deep);
        StringBuilder wide = new StringBuilder("SELECT 1 FROM " + log + " a0");
        for (int i = 1; i < 140; i++) {
            wide.append(", ").append(log).append(" a").append(i);
        }
        sql.fails(400, "TOO_MANY_RELATIONS", wide.toString());
        sql.fails(400, "STATEMENT_TOO_LARGE", "SELECT " + "1, ".repeat(25_000) + "1");
        // Nesting that would overflow the stack is refused with a code too, never a 5xx.
        assertThat(sql.post("SELECT " + "1 + ".repeat(30_000) + "1").statusCode()).isEqualTo(400);
    }
}
