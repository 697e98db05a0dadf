package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Every column type keeps its value end to end, in its one JSON form, now and AS OF. */
class ColumnTypesTests extends IntegrationTest {

    @Test
    void everyTypeRoundTripsInItsJsonForm() {
        String t = table("types");
        sql.write("CREATE TABLE " + t + " (k BIGINT PRIMARY KEY, s SMALLINT, i INT, n NUMERIC(30,10), d DECIMAL, "
                + "r REAL, dp DOUBLE PRECISION, b BOOLEAN, tx TEXT, vc VARCHAR(5), dt DATE, ts TIMESTAMP(6), "
                + "tz TIMESTAMP WITH TIME ZONE, u UUID, j JSONB, ix INT) VERSIONED VALID BY (ix)");
        long commit = sql.write("UPSERT INTO " + t + " VALUES (9223372036854775807, -32768, 2147483647, "
                + "12345678901234567890.0123456789, 0.1, 1.5, 0.1, TRUE, 'it''s', 'abcde', DATE '2026-02-28', "
                + "'2026-10-01 12:00:00.123456', '2026-10-01 14:00:00+02:00', "
                + "'6f1c2e9a-0b1d-4c3e-9f00-112233445566', '{\"a\": [1, 2.50, \"x\"], \"big\": 12345678901234567890}', 1)");
        sql.write("UPSERT INTO " + t + " (k, i, ix) VALUES (?, ?, 2)", "9223372036854775807", 7);

        JsonNode result = sql.run("SELECT * FROM " + t + " AS OF COMMIT " + commit).at("/results/0");
        JsonNode row = result.at("/rows/0");
        assertThat(row.get(0).asString()).isEqualTo("9223372036854775807");
        assertThat(row.get(1).asInt()).isEqualTo(-32768);
        assertThat(row.get(2).asInt()).isEqualTo(2147483647);
        assertThat(row.get(3).asString()).isEqualTo("12345678901234567890.0123456789");
        assertThat(row.get(4).asString()).isEqualTo("0.1");
        assertThat(row.get(5).asDouble()).isEqualTo(1.5);
        assertThat(row.get(6).asDouble()).isEqualTo(0.1);
        assertThat(row.get(7).asBoolean()).isTrue();
        assertThat(row.get(8).asString()).isEqualTo("it's");
        assertThat(row.get(9).asString()).isEqualTo("abcde");
        assertThat(row.get(10).asString()).isEqualTo("2026-02-28");
        assertThat(row.get(11).asString()).isEqualTo("2026-10-01T12:00:00.123456");
        assertThat(row.get(12).asString()).isEqualTo("2026-10-01T12:00:00Z");
        assertThat(row.get(13).asString()).isEqualTo("6f1c2e9a-0b1d-4c3e-9f00-112233445566");
        // JSONB keeps its numbers' digits, trailing zeros included (read the raw body: a default JSON
        // parser would turn 2.50 into a double).
        assertThat(sql.post("SELECT j FROM " + t + " AS OF COMMIT " + commit).asString())
                .contains("{\"a\":[1,2.50,\"x\"],\"big\":12345678901234567890}");
        assertThat(result.get("columns").findValuesAsString("type")).containsExactly("BIGINT", "SMALLINT",
                "INTEGER", "NUMERIC", "NUMERIC", "REAL", "DOUBLE PRECISION", "BOOLEAN", "TEXT", "VARCHAR", "DATE",
                "TIMESTAMP", "TIMESTAMPTZ", "UUID", "JSONB", "INTEGER");

        // The second write names only some columns: the others take their DEFAULT (none here), so NULL.
        assertThat(sql.rows("SELECT i, s, j FROM " + t)).containsExactly(Arrays.asList("7", null, null));
        sql.fails(400, "INVALID_VALUE", "UPSERT INTO " + t + " (k, vc, ix) VALUES (1, 'toolong', 3)");
        sql.fails(400, "INVALID_VALUE", "UPSERT INTO " + t + " (k, u, ix) VALUES (1, 'not-a-uuid', 3)");
        sql.fails(400, "INVALID_VALUE", "UPSERT INTO " + t + " (k, j, ix) VALUES (1, '{broken', 3)");
        sql.fails(400, "INVALID_VALUE", "UPSERT INTO " + t + " (k, dt, ix) VALUES (1, '2026-02-30', 3)");
        sql.fails(400, "INVALID_VALUE", "UPSERT INTO " + t + " (k, b, ix) VALUES (1, 'maybe', 3)");
        sql.fails(400, "INVALID_VALUE", "UPSERT INTO " + t + " (k, s, ix) VALUES (1, 40000, 3)");
    }

    @Test
    void quotedNamesKeepTheirCaseAndUnquotedOnesFold() {
        String t = table("Mixed");
        sql.write("CREATE TABLE \"" + t + "\" (\"Id\" INT PRIMARY KEY, Label TEXT)");
        sql.write("UPSERT INTO \"" + t + "\" (\"Id\", LABEL) VALUES (1, 'x')");
        assertThat(sql.rows("SELECT \"Id\", label FROM \"" + t + "\"")).containsExactly(List.of("1", "x"));
        sql.fails(400, "UNKNOWN_COLUMN", "SELECT id FROM \"" + t + "\"");
        sql.fails(404, "UNKNOWN_TABLE", "SELECT * FROM " + t);
    }
}
