package io.verso.sysver;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ALTER TABLE ... ADD SYSTEM VERSIONING of a plain (UPSERT or APPEND) table, as MariaDB converts a
 * table: its rows start at the ALTER's commit, then change with plain SQL and keep history. And ERASE
 * on system-versioned tables: every version of the erased keys' rows is gone.
 */
class SystemVersioningAlterAndEraseTests extends IntegrationTest {

    @Test
    void anUpsertTableBecomesSystemVersionedWithItsRowsStartingAtTheAlter() {
        String t = table("svconv");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT NOT NULL, n INT UNIQUE, CHECK (length(v) < 5))");
        sql.write("UPSERT INTO " + t + " VALUES (1, 'a', 1), (2, 'b', 2)");
        sql.write("DELETE FROM " + t + " WHERE k = 2");
        long altered = sql.write("ALTER TABLE " + t + " ADD SYSTEM VERSIONING");
        assertThat(sql.rows("SHOW CREATE TABLE " + t).get(0).get(1)).contains("WITH SYSTEM VERSIONING")
                .contains("PRIMARY KEY (k)").contains("CHECK (length(v) < 5)");
        assertThat(sql.rows("SELECT k, v FROM " + t)).containsExactly(List.of("1", "a"));
        long updated = sql.write("UPDATE " + t + " SET v = 'c' WHERE k = 1");
        assertThat(sql.rows("SELECT v FROM " + t + " FOR SYSTEM_TIME ALL ORDER BY row_start"))
                .containsExactly(List.of("a"), List.of("c"));
        assertThat(sql.rows("SELECT v FROM " + t + " AS OF COMMIT " + altered)).containsExactly(List.of("a"));
        assertThat(sql.rows("SELECT v FROM " + t + " AS OF COMMIT " + updated)).containsExactly(List.of("c"));
        // Keys, UNIQUE and CHECK still hold on current rows.
        sql.fails(409, "KEY_EXISTS", "INSERT INTO " + t + " VALUES (1, 'x', 9)");
        sql.fails(409, "UNIQUE_VIOLATION", "INSERT INTO " + t + " VALUES (3, 'x', 1)");
        sql.fails(400, "CHECK_VIOLATION", "INSERT INTO " + t + " VALUES (3, 'xxxxxx', 3)");
        sql.write("INSERT INTO " + t + " VALUES (3, 'x', 3)");
    }

    @Test
    void anAppendTableBecomesSystemVersionedWithoutAKey() {
        String t = table("svconva");
        sql.write("CREATE TABLE " + t + " (a INT, b TEXT) APPEND");
        sql.write("INSERT INTO " + t + " VALUES (1, 'x'), (1, 'x'), (2, 'y'), (3, 'w')");
        // Rows an APPEND UPDATE or DELETE ended are history the conversion does not carry: its current rows are.
        sql.write("DELETE FROM " + t + " WHERE a = 3; UPDATE " + t + " SET b = 'x' WHERE a = 1");
        sql.write("ALTER TABLE " + t + " ADD SYSTEM VERSIONING");
        sql.write("DELETE FROM " + t + " WHERE a = 2");
        sql.write("UPDATE " + t + " SET b = 'z' WHERE a = 1");
        assertThat(sql.rows("SELECT a, b FROM " + t)).containsExactly(List.of("1", "z"), List.of("1", "z"));
        assertThat(sql.rows("SELECT count(*) FROM " + t + " FOR SYSTEM_TIME ALL")).containsExactly(List.of("5"));
    }

    @Test
    void tablesThatCannotBeConvertedAreRefusedAndLeftAsTheyWere() {
        String versioned = table("svconvv");
        String ordered = table("svconvo");
        sql.write("CREATE TABLE " + versioned + " (k INT PRIMARY KEY, v INT) VERSIONED; CREATE TABLE " + ordered
                + " (k INT PRIMARY KEY, v INT, ix INT) UPSERT VALID BY (ix)");
        sql.write("UPSERT INTO " + ordered + " VALUES (1, 1, 1)");
        long before = sql.latestCommit();
        sql.fails(400, "UNSUPPORTED_FOR_MODE", "ALTER TABLE " + versioned + " ADD SYSTEM VERSIONING");
        sql.fails(400, "UNSUPPORTED_FOR_MODE", "ALTER TABLE " + ordered + " ADD SYSTEM VERSIONING");
        sql.fails(400, "INVALID_ALTER", "ALTER TABLE " + ordered + " DROP SYSTEM VERSIONING");
        assertThat(sql.latestCommit()).isEqualTo(before);
        assertThat(sql.rows("SHOW TABLES").stream().filter(r -> r.get(0).equals(ordered)).map(r -> r.get(1)))
                .containsExactly("UPSERT");
        assertThat(sql.rows("SELECT k, v FROM " + ordered)).containsExactly(List.of("1", "1"));
    }

    @Test
    void eraseRemovesEveryVersionOfTheKeysRowsFromASystemVersionedTable() {
        String t = table("sverase");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT) WITH SYSTEM VERSIONING");
        long first = sql.write("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b')");
        sql.write("UPDATE " + t + " SET v = 'a2' WHERE k = 1");
        // The row of key 1 changes its key: erasing 10 removes its versions under key 1 too.
        sql.write("UPDATE " + t + " SET k = 10 WHERE k = 1");
        assertThat(sql.run("ERASE FROM " + t + " WHERE k = 10").at("/results/0/count").asLong())
                .as("versions removed").isEqualTo(3);
        assertThat(sql.rows("SELECT k, v FROM " + t + " FOR SYSTEM_TIME ALL")).containsExactly(List.of("2", "b"));
        assertThat(sql.rows("SELECT k FROM " + t + " AS OF COMMIT " + first)).containsExactly(List.of("2"));
        // Without a primary key there is no key to name.
        String keyless = table("sverasek");
        sql.write("CREATE TABLE " + keyless + " (a INT) WITH SYSTEM VERSIONING");
        long before = sql.latestCommit();
        sql.fails(400, "UNSUPPORTED_FOR_MODE", "ERASE FROM " + keyless + " WHERE a = 1");
        assertThat(sql.latestCommit()).isEqualTo(before);
    }

}
