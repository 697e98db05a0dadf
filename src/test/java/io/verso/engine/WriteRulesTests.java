package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The rules every write keeps whatever the table's mode: UPDATE and DELETE bind their WHERE and values as a
 * SELECT does (subqueries included), and take an APPEND table too, keeping its history; SET column = DEFAULT
 * gives the column its DEFAULT; INSERT refuses a key with a current row or given twice, in one statement as
 * in two, naming the key; NOT NULL holds for every column, however it was added.
 */
class WriteRulesTests extends IntegrationTest {

    private String keyed(String mode) {
        String t = table("wr");
        sql.write("CREATE TABLE " + t + " (id INT PRIMARY KEY, n NUMERIC, ver BIGINT) " + mode
                + "; INSERT INTO " + t + " VALUES (1, 1, 1), (2, 5, 1), (3, 9, 1)");
        return t;
    }

    @ParameterizedTest
    @ValueSource(strings = {"UPSERT", "VERSIONED", "WITH SYSTEM VERSIONING"})
    void updateAndDeleteTakeSubqueriesAsSelectDoes(String mode) {
        String t = keyed(mode);
        sql.write("UPDATE " + t + " SET ver = 4 WHERE id IN (SELECT id FROM " + t + " WHERE n > 2)");
        sql.write("UPDATE " + t + " SET n = (SELECT max(o.n) FROM " + t + " AS o) + id WHERE id = 1");
        assertThat(sql.rows("SELECT id, n, ver FROM " + t + " ORDER BY id")).containsExactly(
                List.of("1", "10", "1"), List.of("2", "5", "4"), List.of("3", "9", "4"));
        sql.write("DELETE FROM " + t + " WHERE EXISTS (SELECT 1 FROM " + t + " AS o WHERE o.id = " + t
                + ".id + 1)");
        assertThat(sql.rows("SELECT id FROM " + t)).containsExactly(List.of("3"));
        // The same mistakes as in a SELECT, with the same codes and positions.
        String update = "UPDATE " + t + " SET ver = 4 WHERE id IN (SELECT nope FROM " + t + ")";
        JsonNode problem = sql.fails(400, "UNKNOWN_COLUMN", update);
        assertThat(problem.path("column").asInt()).isEqualTo(update.indexOf("nope") + 1);
        String delete = "DELETE FROM " + t + " WHERE id = (SELECT id FROM nosuch_wr)";
        problem = sql.fails(404, "UNKNOWN_TABLE", delete);
        assertThat(problem.path("column").asInt()).isEqualTo(delete.indexOf("nosuch_wr") + 1);
        sql.fails(400, "UNKNOWN_FUNCTION", "UPDATE " + t + " SET ver = nosuchfn(id)");
    }

    @Test
    void anUnknownFunctionInAsOfTimestampIsRefusedAtItsPosition() {
        String t = keyed("VERSIONED");
        String read = "SELECT * FROM " + t + " AS OF TIMESTAMP nosuchfn()";
        JsonNode problem = sql.fails(400, "UNKNOWN_FUNCTION", read);
        assertThat(problem.path("column").asInt()).isEqualTo(read.indexOf("nosuchfn") + 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"UPSERT", "VERSIONED", "WITH SYSTEM VERSIONING"})
    void insertRefusesAKeyGivenTwiceInOneStatementAsInTwo(String mode) {
        String t = keyed(mode);
        long before = sql.latestCommit();
        JsonNode one = sql.fails(409, "KEY_EXISTS", "INSERT INTO " + t + " VALUES (7, 13, 1), (7, 25, 1)");
        assertThat(one.path("detail").asString()).contains("(id=7)", "more than once");
        JsonNode two = sql.fails(409, "KEY_EXISTS", "INSERT INTO " + t + " VALUES (8, 13, 1); INSERT INTO " + t
                + " VALUES (8, 25, 1)");
        assertThat(two.path("detail").asString()).contains("(id=8)", "current row");
        JsonNode live = sql.fails(409, "KEY_EXISTS", "INSERT INTO " + t + " VALUES (9, 0, 1), (2, 0, 1)");
        assertThat(live.path("detail").asString()).contains("(id=2)", "current row").doesNotContain("_cur");
        sql.fails(409, "KEY_EXISTS", "INSERT INTO " + t + " (id, n, ver) SELECT 10, 1, 1 UNION ALL SELECT 10, 2, 1");
        assertThat(sql.latestCommit()).isEqualTo(before);
        assertThat(sql.rows("SELECT count(*) FROM " + t)).containsExactly(List.of("3"));
        if (!mode.startsWith("WITH")) {
            // UPSERT writes versions of one key, as ever.
            sql.write("UPSERT INTO " + t + " VALUES (7, 13, 1), (7, 25, 2)");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"UPSERT", "VERSIONED", "WITH SYSTEM VERSIONING"})
    void aNotNullColumnAddedLaterTakesNoNullOnAnyPath(String mode) {
        String t = keyed(mode);
        sql.write("ALTER TABLE " + t + " ADD COLUMN d INT NOT NULL DEFAULT 5");
        long before = sql.latestCommit();
        sql.fails(400, "NOT_NULL_VIOLATION", "UPDATE " + t + " SET d = NULL WHERE id = 1");
        sql.fails(400, "NOT_NULL_VIOLATION", "UPDATE " + t + " SET d = CASE WHEN id = 1 THEN NULL ELSE 1 END");
        sql.fails(400, "NOT_NULL_VIOLATION", "INSERT INTO " + t + " (id, n, ver, d) VALUES (20, 1, 1, NULL)");
        sql.fails(400, "NOT_NULL_VIOLATION", "INSERT INTO " + t + " (id, n, ver, d) SELECT 21, 1, 1, NULL");
        JsonNode problem = sql.fails(400, "NOT_NULL_VIOLATION", "UPDATE " + t + " SET d = NULLIF(d, 5)");
        assertThat(problem.path("detail").asString()).contains("'d'").doesNotContain("_cur", "\"c");
        assertThat(sql.latestCommit()).isEqualTo(before);
        assertThat(sql.rows("SELECT DISTINCT d FROM " + t)).containsExactly(List.of("5"));
        JsonNode describe = sql.run("DESCRIBE " + t).path("results").get(0).path("rows");
        boolean nullable = true;
        for (JsonNode row : describe) {
            if (row.get(1).asString().equals("d")) {
                nullable = row.get(3).asBoolean();
            }
        }
        assertThat(nullable).isFalse();
    }

    @Test
    void appendTablesTakeUpdateAndDeleteAndAsOfStillReadsTheRowsAsTheyWere() {
        String t = table("wra");
        long created = sql.write("CREATE TABLE " + t + " (x INT, y TEXT NOT NULL DEFAULT 'new') APPEND");
        long inserted = sql.write("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b'), (3, 'c'), (3, 'c')");
        JsonNode updated = sql.run("UPDATE " + t + " SET x = x * 10, y = DEFAULT WHERE x >= 2")
                .path("results").get(0);
        assertThat(updated.path("rows").asLong()).as("rows updated, duplicates each").isEqualTo(3);
        long update = sql.latestCommit();
        assertThat(sql.rows("SELECT x, y FROM " + t + " ORDER BY x")).containsExactly(List.of("1", "a"),
                List.of("20", "new"), List.of("30", "new"), List.of("30", "new"));
        assertThat(sql.run("UPDATE " + t + " SET x = 0 WHERE x = 99").at("/results/0/rows").asLong()).isZero();
        long delete = sql.write("DELETE FROM " + t + " WHERE x = 30");
        assertThat(sql.rows("SELECT x, y FROM " + t)).containsExactly(List.of("1", "a"), List.of("20", "new"));
        // Each statement ended its rows at its own commit: every earlier commit reads them as they were.
        assertThat(sql.rows("SELECT count(*) FROM " + t + " AS OF COMMIT " + created)).containsExactly(List.of("0"));
        assertThat(sql.rows("SELECT x, y FROM " + t + " AS OF COMMIT " + inserted + " ORDER BY x")).containsExactly(
                List.of("1", "a"), List.of("2", "b"), List.of("3", "c"), List.of("3", "c"));
        assertThat(sql.rows("SELECT x FROM " + t + " AS OF COMMIT " + update + " ORDER BY x")).containsExactly(
                List.of("1"), List.of("20"), List.of("30"), List.of("30"));
        assertThat(sql.rows("SELECT x FROM " + t + " AS OF COMMIT " + delete + " ORDER BY x")).containsExactly(
                List.of("1"), List.of("20"));
        assertThat(sql.rows("SELECT x, _commit, _current_from, _current_to FROM history(" + t + ") WHERE x = 2"))
                .containsExactly(List.of("2", Long.toString(inserted), Long.toString(inserted), Long.toString(update)));
        // changes(t): an UPDATE of a keyless row is its old row deleted (with _before) and its new one inserted.
        assertThat(sql.rows("SELECT _op, x, _before ->> 'x' FROM changes(" + t + ") WHERE _commit = " + update
                + " ORDER BY _op, x, _before ->> 'x'")).containsExactly(Arrays.asList("delete", null, "2"),
                Arrays.asList("delete", null, "3"), Arrays.asList("delete", null, "3"),
                Arrays.asList("insert", "20", null), Arrays.asList("insert", "30", null),
                Arrays.asList("insert", "30", null));
        // In one request: rows inserted and changed by the same commit are seen changed, and never were current.
        long one = sql.write("INSERT INTO " + t + " VALUES (7, 'q'); UPDATE " + t + " SET x = 8 WHERE x = 7; "
                + "DELETE FROM " + t + " WHERE x = 1");
        assertThat(sql.rows("SELECT x FROM " + t + " AS OF COMMIT " + one + " ORDER BY x")).containsExactly(
                List.of("8"), List.of("20"));
        assertThat(sql.rows("SELECT _current_from, _current_to FROM history(" + t + ") WHERE x = 7"))
                .containsExactly(Arrays.asList(null, null));
        // A failing statement leaves nothing of its request.
        long before = sql.latestCommit();
        sql.fails(400, "NOT_NULL_VIOLATION", "UPDATE " + t + " SET x = 0; UPDATE " + t + " SET y = NULL WHERE x = 0");
        sql.fails(400, "NOT_NULL_VIOLATION", "UPDATE " + t + " SET y = NULLIF(y, 'new')");
        sql.fails(400, "UNKNOWN_COLUMN", "DELETE FROM " + t + " WHERE nope = 1");
        sql.fails(400, "INVALID_AT_CLAUSE", "DELETE FROM " + t + " WHERE x = 8 AT (x = 1)");
        assertThat(sql.latestCommit()).isEqualTo(before);
        assertThat(sql.rows("SELECT x FROM " + t + " ORDER BY x")).containsExactly(List.of("8"), List.of("20"));
    }

    @Test
    void anAppendTableKeepsItsUniqueAndCheckConstraintsOverItsCurrentRows() {
        String t = table("wru");
        sql.write("CREATE TABLE " + t + " (x INT UNIQUE, y INT CHECK (y > 0)) APPEND; INSERT INTO " + t
                + " VALUES (1, 1), (2, 2)");
        sql.write("UPDATE " + t + " SET y = y + 1");
        sql.write("UPDATE " + t + " SET x = 3 WHERE x = 1");
        sql.write("INSERT INTO " + t + " VALUES (1, 9)");
        long before = sql.latestCommit();
        sql.fails(409, "UNIQUE_VIOLATION", "UPDATE " + t + " SET x = 2 WHERE x = 3");
        sql.fails(400, "CHECK_VIOLATION", "UPDATE " + t + " SET y = 0 WHERE x = 2");
        assertThat(sql.latestCommit()).isEqualTo(before);
        assertThat(sql.rows("SELECT x, y FROM " + t + " ORDER BY x")).containsExactly(List.of("1", "9"),
                List.of("2", "3"), List.of("3", "2"));
    }

    @Test
    void anAppendTableDerivedTablesReadTakesNoUpdateOrDelete() {
        String src = table("wrs");
        String d = table("wrd");
        sql.write("CREATE TABLE " + src + " (x INT) APPEND; INSERT INTO " + src + " VALUES (1), (2)");
        sql.write("CREATE DERIVED TABLE " + d + " AS SELECT x FROM " + src + " WHERE x > 0");
        JsonNode refused = sql.fails(409, "DERIVED_DEPENDENCY", "UPDATE " + src + " SET x = 5 WHERE x = 1");
        assertThat(refused.path("detail").asString()).contains(d);
        sql.fails(409, "DERIVED_DEPENDENCY", "DELETE FROM " + src + " WHERE x = 1");
        assertThat(sql.rows("SELECT x FROM " + d + " ORDER BY x")).containsExactly(List.of("1"), List.of("2"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"UPSERT", "VERSIONED", "WITH SYSTEM VERSIONING", "APPEND"})
    void setDefaultGivesTheColumnItsDefaultOnEveryMode(String mode) {
        String t = table("wrdf");
        boolean keyed = !mode.equals("APPEND");
        sql.write("CREATE TABLE " + t + " (id INT" + (keyed ? " PRIMARY KEY" : "") + ", label TEXT DEFAULT 'none', "
                + "n NUMERIC(6,2) DEFAULT 1.5, d DATE DEFAULT DATE '2026-01-02', note TEXT, strict INT NOT NULL) "
                + mode + "; INSERT INTO " + t + " VALUES (1, 'a', 9, DATE '2020-01-01', 'x', 1), "
                + "(2, 'b', 8, DATE '2020-01-01', 'y', 2)");
        long before = sql.write("UPDATE " + t + " SET label = DEFAULT, n = DEFAULT, d = DEFAULT, note = DEFAULT "
                + "WHERE id = 1");
        assertThat(sql.rows("SELECT id, label, n, d, note FROM " + t + " ORDER BY id")).containsExactly(
                Arrays.asList("1", "none", "1.50", "2026-01-02", null),
                Arrays.asList("2", "b", "8.00", "2020-01-01", "y"));
        // A NOT NULL column without a DEFAULT has none to take: refused, at the DEFAULT, nothing written.
        String update = "UPDATE " + t + " SET strict = DEFAULT WHERE id = 2";
        JsonNode problem = sql.fails(400, "NOT_NULL_VIOLATION", update);
        assertThat(problem.path("detail").asString()).contains("'strict'", "no DEFAULT");
        assertThat(problem.path("column").asInt()).isEqualTo(update.indexOf("DEFAULT") + 1);
        assertThat(sql.latestCommit()).isEqualTo(before);
        // DEFAULT is a value of SET only, not of an expression.
        sql.fails(400, "SYNTAX_ERROR", "UPDATE " + t + " SET n = DEFAULT + 1");
    }
}
