package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.sql.Definitions;
import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Stored definitions (a view's query, a CHECK, a derived table's query) are parsed at their first
 * use and not again: reads over the view and writes verified by the check and kept by the derived
 * table parse nothing more. A view read twice in one statement, under two AS OF, is bound as two reads.
 */
class DefinitionUseTests extends IntegrationTest {

    @Test
    void usesAfterTheFirstParseNoDefinition() {
        String t = table("du");
        sql.write("CREATE TABLE " + t + " (id INT PRIMARY KEY, price NUMERIC(10,2) CHECK (price > 0), qty INT) VERSIONED");
        String v = table("duv");
        sql.write("CREATE VIEW " + v + " AS SELECT id, price FROM " + t + " WHERE qty > 0");
        String d = table("dud");
        sql.write("CREATE DERIVED TABLE " + d + " PRIMARY KEY (id) AS SELECT id, price * 2 AS p2 FROM " + t);
        String select = "SELECT * FROM " + v + " WHERE id > ? ORDER BY id";
        String upsert = "UPSERT INTO " + t + " VALUES (?, ?, ?)";
        sql.rows(select, 0);
        sql.write(upsert, 1, 1.5, 1);
        long before = Definitions.parsed();
        for (int i = 0; i < 5; i++) {
            sql.write(upsert, 10 + i, 2.5, 3);
            assertThat(sql.rows(select, 0)).hasSize(i + 2);
        }
        sql.fails(400, "CHECK_VIOLATION", upsert, 99, -1, 1);
        assertThat(Definitions.parsed() - before).as("definitions parsed after their first use").isZero();
        assertThat(sql.rows("SELECT p2 FROM " + d + " WHERE id = 14")).isEqualTo(List.of(List.of("5.00")));
    }

    @Test
    void aViewReadTwiceInOneStatementIsTwoReads() {
        String t = table("du2");
        sql.write("CREATE TABLE " + t + " (id INT PRIMARY KEY, v INT) VERSIONED");
        String view = table("du2v");
        sql.write("CREATE VIEW " + view + " AS SELECT id, v FROM " + t);
        long first = sql.write("UPSERT INTO " + t + " VALUES (1, 10), (2, 20)");
        sql.write("UPSERT INTO " + t + " VALUES (1, 11)");
        assertThat(sql.rows("SELECT a.id, a.v, b.v FROM " + view + " a JOIN " + view + " AS OF COMMIT " + first
                + " b ON b.id = a.id ORDER BY a.id")).isEqualTo(List.of(List.of("1", "11", "10"), List.of("2", "20", "20")));
        assertThat(sql.rows("SELECT a.id, b.id FROM " + view + " a JOIN " + view + " b ON b.id = a.id + 1"))
                .isEqualTo(List.of(List.of("1", "2")));
    }
}
