package io.verso.sysver;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Each refusal of system versioning has its stable code, and leaves everything as it was: no
 * commit, no row, no version.
 */
class SystemVersioningBadInputTests extends IntegrationTest {

    private String sv;
    private String declared;
    private String plain;
    private String versioned;

    @BeforeEach
    void tables() {
        sv = table("svbad");
        declared = table("svdecl");
        plain = table("plain");
        versioned = table("vers");
        sql.write("CREATE TABLE " + sv + " (k INT PRIMARY KEY, v INT) WITH SYSTEM VERSIONING; "
                + "CREATE TABLE " + declared + " (k INT, v INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, "
                + "e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING; "
                + "CREATE TABLE " + plain + " (k INT PRIMARY KEY, v INT); "
                + "CREATE TABLE " + versioned + " (k INT PRIMARY KEY, v INT) VERSIONED");
        sql.write("INSERT INTO " + sv + " VALUES (1, 1); INSERT INTO " + declared + " (k, v) VALUES (1, 1)");
        sql.write("UPDATE " + sv + " SET v = 2");
    }

    private List<List<String>> state() {
        return sql.rows("SELECT k, v, row_start, row_end FROM " + sv + " FOR SYSTEM_TIME ALL ORDER BY row_start");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            FOR SYSTEM_TIME on a table without versioning | NOT_SYSTEM_VERSIONED | SELECT * FROM $plain FOR SYSTEM_TIME ALL
            FOR SYSTEM_TIME AS OF on an UPSERT table      | NOT_SYSTEM_VERSIONED | SELECT * FROM $plain FOR SYSTEM_TIME AS OF '2025-01-01'
            FOR SYSTEM_TIME ALL on a VERSIONED table      | NOT_SYSTEM_VERSIONED | SELECT * FROM $versioned FOR SYSTEM_TIME ALL
            AS OF TRANSACTION                              | NOT_SUPPORTED | SELECT * FROM $sv FOR SYSTEM_TIME AS OF TRANSACTION 5
            period column of a wrong type                  | INVALID_PERIOD_COLUMN | CREATE TABLE svx1 (a INT, s INT GENERATED ALWAYS AS ROW START, e INT GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING
            period column of a wrong precision             | INVALID_PERIOD_COLUMN | CREATE TABLE svx2 (a INT, s TIMESTAMP(0) GENERATED ALWAYS AS ROW START, e TIMESTAMP(0) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING
            period column that is not generated            | INVALID_DEFINITION | CREATE TABLE svx3 (a INT, s TIMESTAMP(6), e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING
            application-time period                        | NOT_SUPPORTED | CREATE TABLE svx4 (a INT, s DATE, e DATE, PERIOD FOR p (s, e)) WITH SYSTEM VERSIONING
            implicit period column named by the user       | DUPLICATE_NAME | CREATE TABLE svx5 (a INT, row_start INT) WITH SYSTEM VERSIONING
            INSERT into an implicit period column          | PERIOD_COLUMN_WRITE | INSERT INTO $sv (k, v, row_start) VALUES (5, 5, '2025-01-01')
            INSERT into a declared period column           | PERIOD_COLUMN_WRITE | INSERT INTO $declared (k, v, s) VALUES (5, 5, '2025-01-01')
            UPDATE of a period column                      | PERIOD_COLUMN_WRITE | UPDATE $sv SET row_end = '2025-01-01'
            DROP of a period column                        | PERIOD_COLUMN_ALTER | ALTER TABLE $declared DROP COLUMN e
            RENAME of an implicit period column            | PERIOD_COLUMN_ALTER | ALTER TABLE $sv RENAME COLUMN row_start TO s2
            RENAME of a declared period column onto a name | DUPLICATE_NAME | ALTER TABLE $declared RENAME COLUMN s TO v
            period column of plain TIMESTAMP (MariaDB 4110) | INVALID_PERIOD_COLUMN | CREATE TABLE svx6 (a INT, s TIMESTAMP AS ROW START, e TIMESTAMP AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING
            a second ROW START column (MariaDB 4134)       | INVALID_DEFINITION | CREATE TABLE svx7 (a INT, s TIMESTAMP(6) AS ROW START, s2 TIMESTAMP(6) AS ROW START, e TIMESTAMP(6) AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING
            DROP SYSTEM VERSIONING of declared columns (MariaDB 4125) | INVALID_ALTER | ALTER TABLE $declared DROP SYSTEM VERSIONING
            UPDATE of a declared period column to a value (MariaDB 1906) | PERIOD_COLUMN_WRITE | UPDATE $declared SET v = 3, e = '2025-01-01'
            bound that is not a time                       | INVALID_SYSTEM_TIME | SELECT * FROM $sv FOR SYSTEM_TIME AS OF 'not a time'
            bound that is a number                         | INVALID_SYSTEM_TIME | SELECT * FROM $sv FOR SYSTEM_TIME FROM 1 TO 2
            bound naming a column                          | INVALID_EXPRESSION | SELECT * FROM $sv FOR SYSTEM_TIME AS OF v
            FOR SYSTEM_TIME and AS OF together             | AS_OF_DUPLICATE | SELECT * FROM $sv FOR SYSTEM_TIME ALL AS OF COMMIT 1
            DELETE HISTORY of a table without versioning   | NOT_SYSTEM_VERSIONED | DELETE HISTORY FROM $plain BEFORE SYSTEM_TIME '2030-01-01'
            duplicate key among current rows               | KEY_EXISTS | INSERT INTO $sv VALUES (1, 9)
            key change onto a current key                  | UNIQUE_VIOLATION | INSERT INTO $sv VALUES (2, 2); UPDATE $sv SET k = 1 WHERE k = 2
            UPSERT into a system-versioned table           | UNSUPPORTED_FOR_MODE | UPSERT INTO $sv VALUES (3, 3)
            ROLLBACK without START TRANSACTION             | INVALID_REQUEST | INSERT INTO $sv VALUES (3, 3); ROLLBACK
            failing statement after good ones              | KEY_EXISTS | BEGIN; INSERT INTO $sv VALUES (3, 3); UPDATE $sv SET v = 7; INSERT INTO $sv VALUES (3, 4); COMMIT
            ADD SYSTEM VERSIONING twice                    | INVALID_ALTER | ALTER TABLE $sv ADD SYSTEM VERSIONING
            """)
    void refusedWithNothingChanged(String what, String code, String statement) {
        long before = sql.latestCommit();
        List<List<String>> rows = state();
        JsonNode problem = sql.fails(code.equals("UNIQUE_VIOLATION") || code.equals("KEY_EXISTS") ? 409 : 400, code, statement.replace("$sv", sv)
                .replace("$declared", declared).replace("$plain", plain).replace("$versioned", versioned));
        assertThat(problem.path("detail").asString()).as(what).isNotBlank();
        assertThat(sql.latestCommit()).as("no commit was made").isEqualTo(before);
        assertThat(state()).as("no row or version changed").isEqualTo(rows);
    }
}
