package io.verso.sysver;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Period columns in the forms MariaDB 10.11 accepts, with its meaning. */
class PeriodColumnFormsTests extends IntegrationTest {

    @Test
    void theShortFormInAnyOrderDeclaresThePeriod() {
        String t = table("short");
        sql.write("CREATE TABLE " + t + " (x INT, y INT, e TIMESTAMP(6) AS ROW END, s TIMESTAMP(6) AS ROW START, "
                + "PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING");
        sql.write("INSERT INTO " + t + " (x, y) VALUES (1, 100)");
        assertThat(sql.rows("SELECT x, y, e FROM " + t)).containsExactly(List.of("1", "100", "2038-01-19T03:14:07.999999"));
        assertThat(sql.run("SHOW CREATE TABLE " + t).at("/results/0/rows/0/1").asString())
                .contains("s TIMESTAMP(6) GENERATED ALWAYS AS ROW START", "PERIOD FOR SYSTEM_TIME (s, e)");
    }

    @Test
    void anUpdateSettingADeclaredPeriodColumnToNullIgnoresIt() {
        String t = table("upd");
        sql.write("CREATE TABLE " + t + " (x INT, y INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, "
                + "e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING");
        sql.write("INSERT INTO " + t + " (x, y) VALUES (1, 1), (2, 2)");
        JsonNode update = sql.run("UPDATE " + t + " SET y = 20, e = NULL WHERE x = 2");
        assertThat(update.at("/results/0/rows").asLong()).isEqualTo(1);
        assertThat(sql.rows("SELECT x, y, e FROM " + t + " ORDER BY x")).containsExactly(
                List.of("1", "1", "2038-01-19T03:14:07.999999"), List.of("2", "20", "2038-01-19T03:14:07.999999"));
        assertThat(sql.rows("SELECT count(*) FROM " + t + " FOR SYSTEM_TIME ALL")).containsExactly(List.of("3"));
        // Only period columns, set to NULL: nothing changes, no version is written.
        sql.write("UPDATE " + t + " SET s = NULL, e = NULL");
        assertThat(sql.rows("SELECT count(*) FROM " + t + " FOR SYSTEM_TIME ALL")).containsExactly(List.of("3"));
        // DEFAULT, which an INSERT may give a period column, an UPDATE may not: MariaDB 10.11 answers 1364.
        String withDefault = "UPDATE " + t + " SET y = 10, s = DEFAULT WHERE x = 1";
        JsonNode refused = sql.fails(400, "PERIOD_COLUMN_WRITE", withDefault);
        assertThat(refused.path("detail").asString()).contains("1364");
        assertThat(refused.path("column").asInt()).isEqualTo(withDefault.indexOf("DEFAULT") + 1);
    }

    @Test
    void anInsertGivingDeclaredPeriodColumnsNullOrDefaultTakesTheRowAndWritesTheCommitTime() {
        String t = table("ins");
        sql.write("CREATE TABLE " + t + " (x INT, y INT, e TIMESTAMP(6) AS ROW END, s TIMESTAMP(6) AS ROW START, "
                + "PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING");
        sql.write("INSERT INTO " + t + " VALUES (10, 10001, NULL, NULL)");
        sql.write("INSERT INTO " + t + " (x, y, s) VALUES (7, 7001, NULL), (8, 8001, DEFAULT)");
        sql.write("INSERT INTO " + t + " VALUES (11, 11001, DEFAULT, DEFAULT)");
        assertThat(sql.rows("SELECT x, y, e, s = (SELECT min(s) FROM " + t + ") FROM " + t + " ORDER BY x"))
                .extracting(r -> r.get(0) + " " + r.get(1) + " " + r.get(2))
                .containsExactly("7 7001 2038-01-19T03:14:07.999999", "8 8001 2038-01-19T03:14:07.999999",
                        "10 10001 2038-01-19T03:14:07.999999", "11 11001 2038-01-19T03:14:07.999999");
        long before = sql.latestCommit();
        sql.fails(400, "PERIOD_COLUMN_WRITE", "INSERT INTO " + t + " (x, y, s) VALUES (9, 9001, '2020-01-01')");
        sql.fails(400, "COLUMN_COUNT_MISMATCH", "INSERT INTO " + t + " VALUES (9, 9001, NULL)");
        assertThat(sql.latestCommit()).isEqualTo(before);
    }

    @Test
    void declaredPeriodColumnsAreRenamedAndKeepTheirHistory() {
        String t = table("ren");
        sql.write("CREATE TABLE " + t + " (x INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, "
                + "e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING");
        sql.write("INSERT INTO " + t + " VALUES (1)");
        sql.write("UPDATE " + t + " SET x = 2");
        sql.write("ALTER TABLE " + t + " RENAME COLUMN s TO valid_from; ALTER TABLE " + t + " RENAME COLUMN e TO valid_to");
        assertThat(sql.rows("SELECT x, valid_to FROM " + t + " FOR SYSTEM_TIME ALL ORDER BY valid_from"))
                .hasSize(2).last().isEqualTo(List.of("2", "2038-01-19T03:14:07.999999"));
        sql.fails(400, "UNKNOWN_COLUMN", "SELECT s FROM " + t);
        assertThat(sql.run("SHOW CREATE TABLE " + t).at("/results/0/rows/0/1").asString())
                .contains("PERIOD FOR SYSTEM_TIME (valid_from, valid_to)");
    }
}
