package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * UNIQUE columns and unique indexes hold among current rows; the usual type spellings map to their types.
 * CHECK constraints: {@link CheckConstraintTests}.
 */
class ConstraintTests extends IntegrationTest {

    @Test
    void uniqueHoldsAmongCurrentRowsOnly() {
        String t = table("uq");
        sql.write("CREATE TABLE " + t + " (id INT PRIMARY KEY, email TEXT UNIQUE) VERSIONED");
        long before = sql.write("UPSERT INTO " + t + " VALUES (1, 'a@x'), (2, 'b@x')");
        sql.fails(409, "UNIQUE_VIOLATION", "UPSERT INTO " + t + " VALUES (3, 'a@x')");
        assertThat(sql.latestCommit()).as("nothing was written").isEqualTo(before);
        // A deleted key's row no longer holds its value.
        sql.write("DELETE FROM " + t + " WHERE id = 1");
        sql.write("UPSERT INTO " + t + " VALUES (3, 'a@x')");
        assertThat(sql.rows("SELECT id FROM " + t + " WHERE email = 'a@x'")).containsExactly(List.of("3"));
        assertThat(sql.rows("SHOW CREATE TABLE " + t).get(0).get(1)).contains("CREATE UNIQUE INDEX");
    }

    @Test
    void uniqueIndexOnAppendTablesAndDescendingColumns() {
        String t = table("ui");
        sql.write("CREATE TABLE " + t + " (k INTEGER, v FLOAT, c CHAR(3), s CHARACTER VARYING(5), b BOOL)");
        sql.write("CREATE UNIQUE INDEX " + t + "_k ON " + t + " (k DESC)");
        sql.write("INSERT INTO " + t + " VALUES (1, 1.5, 'ab', 'xyz', TRUE)");
        sql.fails(409, "UNIQUE_VIOLATION", "INSERT INTO " + t + " VALUES (1, 2.5, 'cd', 'uvw', FALSE)");
        assertThat(sql.rows("DESCRIBE " + t).stream().limit(5).map(r -> r.get(2)).toList())
                .containsExactly("INTEGER", "DOUBLE PRECISION", "CHAR(3)", "VARCHAR(5)", "BOOLEAN");
        sql.fails(400, "INVALID_DEFINITION", "CREATE UNIQUE INDEX " + t + "_h ON " + t + " (k) SCOPE HISTORY");
    }
}
