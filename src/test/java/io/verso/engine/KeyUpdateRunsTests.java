package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Consecutive UPDATEs of one table that name their keys run as one read and one write per attribute group
 * ({@code RowWrites.keyUpdates}). They must end exactly as the same statements run one by one: the same rows
 * now and in every version, the same receipts, the same refusals at the same positions, whether their keys
 * repeat, are missing, come in IN lists or are spelled as strings.
 */
class KeyUpdateRunsTests extends IntegrationTest {

    private static final String COLUMNS = "id, v, ix, a, ax, d, n";

    private String create(String mode) {
        String t = table("kur");
        sql.write("CREATE TABLE " + t + " (id INT PRIMARY KEY, v INT, ix INT, a TEXT, ax INT, d DATE, n NUMERIC(6, 2),"
                + " CHECK (v >= 0),"
                + " ATTRIBUTE GROUP ga (a, ax) VALID BY (ax)) " + mode
                + "; UPSERT INTO " + t + " (id, v, ix, a, ax) VALUES (1, 10, 5, 'a1', 5), (2, 20, 5, 'a2', 5), (3, 30, 5, 'a3', 5),"
                + " (4, 40, 5, 'a4', 5), (5, 50, 5, 'a5', 5), (6, 60, 5, 'a6', 5), (7, 70, 5, 'a7', 5)"
                + "; UPSERT INTO " + t + " (id, v, ix) VALUES (11, 1, 1)");
        return t;
    }

    /**
     * One random UPDATE by key, with {@code %t} where the table's name goes; assigning only values when
     * {@code values} (whose run reads the rows of its keys in one statement) or expressions of the row too.
     */
    private static Written update(Random random, boolean values) {
        String where = switch (random.nextInt(6)) {
            case 0 -> "id IN (" + (1 + random.nextInt(9)) + ", " + (1 + random.nextInt(9)) + ")";
            case 1 -> "id = '" + (1 + random.nextInt(9)) + "'";
            default -> "id = " + (1 + random.nextInt(9));
        };
        // Each group's VALID BY column is assigned: kept (a later commit wins the tie), raised, or set to
        // anything (a lower one loses).
        if (values) {
            // Values as literals or parameters, as integers or strings PostgreSQL reads as the column's type
            // (dates in its other forms too), keys as integers or strings.
            // Now and then a date no calendar has, refused alike.
            String[] dates = {"2024-01-0" + (1 + random.nextInt(9)), "Jan " + (1 + random.nextInt(28)) + " 2024",
                "2024010" + (1 + random.nextInt(9)), random.nextInt(10) == 0 ? "2024-02-30" : "2024-03-01"};
            return switch (random.nextInt(4)) {
                case 0 -> new Written("UPDATE %t SET v = " + random.nextInt(100) + ", ix = " + random.nextInt(10)
                        + ", d = '" + dates[random.nextInt(dates.length)] + "' WHERE " + where, List.of());
                case 1 -> new Written("UPDATE %t SET v = ?, ix = ?, n = ? WHERE id = ?", List.of(
                        (long) random.nextInt(100), random.nextBoolean() ? (Object) (long) random.nextInt(10)
                                : String.valueOf(random.nextInt(10)),
                        random.nextBoolean() ? (Object) (long) random.nextInt(100) : random.nextInt(1000) / 7.0 + "",
                        random.nextBoolean() ? (Object) (long) (1 + random.nextInt(9)) : "0" + (1 + random.nextInt(9))));
                case 2 -> new Written("UPDATE %t SET a = ?, ax = ? WHERE id = ?", List.of("c" + random.nextInt(9),
                        (long) random.nextInt(10), (long) (1 + random.nextInt(9))));
                default -> new Written("UPDATE %t SET a = 'c" + random.nextInt(9) + "', ax = " + random.nextInt(10)
                        + " WHERE " + where, List.of());
            };
        }
        String ix = switch (random.nextInt(3)) {
            case 0 -> "ix";
            case 1 -> "ix + 1";
            default -> String.valueOf(random.nextInt(10));
        };
        String ax = random.nextBoolean() ? "ax" : String.valueOf(random.nextInt(10));
        String set = switch (random.nextInt(5)) {
            case 0 -> "v = v + 1, ix = " + ix;
            case 1 -> "ix = " + ix + ", v = " + random.nextInt(100);
            case 2 -> "a = a || 'x', ax = " + ax;
            case 3 -> "v = ix * 2, ix = " + ix + ", a = 'b" + random.nextInt(9) + "', ax = " + ax;
            default -> "v = " + random.nextInt(100) + ", ix = " + ix;
        };
        return new Written("UPDATE %t SET " + set + " WHERE " + where, List.of());
    }

    /** A statement with {@code %t} for the table's name, and its parameters. */
    private record Written(String text, List<Object> params) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"UPSERT VALID BY (ix)", "VERSIONED VALID BY (ix)", "VERSIONED"})
    void updatesByKeyEndAsTheyDoOneByOne(String mode) {
        String together = create(mode);
        String alone = create(mode);
        Random random = new Random(20261202L + mode.hashCode());
        List<Long> togetherCommits = new ArrayList<>();
        List<Long> aloneCommits = new ArrayList<>();
        int refused = 0;
        for (int round = 0; round < 10; round++) {
            List<Written> written = new ArrayList<>();
            boolean values = round % 2 == 0;
            for (int s = 0; s < 25; s++) {
                // Now and then a statement of another kind ends a run.
                written.add(random.nextInt(12) == 0 ? new Written("UPSERT INTO %t (id, v, ix, a, ax) VALUES ("
                        + (1 + random.nextInt(9)) + ", 0, " + random.nextInt(10) + ", 'u', " + random.nextInt(10) + ")",
                        List.of()) : update(random, values));
            }
            if (random.nextInt(4) == 0) {
                // A refusal (here: a key with no version of group ga, whose VALID BY column is then NULL).
                written.add(random.nextInt(written.size()), new Written("UPDATE %t SET a = 'z', ax = ax WHERE id = 11",
                        List.of()));
            }
            List<String> statements = written.stream().map(Written::text).toList();
            Object[] params = written.stream().flatMap(w -> w.params().stream()).toArray();
            Response one = sql.post(String.join("; ", statements).replace("%t", together), params);
            // A SELECT between every two statements: each UPDATE runs alone.
            Response other = sql.post(String.join("; SELECT 1; ", statements).replace("%t", alone), params);
            assertThat(one.statusCode()).as("%s %s %s", one.asString(), statements, List.of(params))
                    .isEqualTo(other.statusCode());
            if (one.statusCode() != 200) {
                assertThat(problem(one)).isEqualTo(problem(other));
                refused++;
                continue;
            }
            JsonNode first = SqlClient.JSON.readTree(one.asString());
            JsonNode second = SqlClient.JSON.readTree(other.asString());
            togetherCommits.add(first.get("commit").asLong());
            aloneCommits.add(second.get("commit").asLong());
            List<String> receipts = new ArrayList<>();
            List<String> expected = new ArrayList<>();
            for (int s = 0; s < statements.size(); s++) {
                receipts.add(receipt(first.get("results").get(s)));
                expected.add(receipt(second.get("results").get(2 * s)));
            }
            assertThat(receipts).as("round %d: %s %s", round, statements, List.of(params)).isEqualTo(expected);
            assertThat(sql.rows("SELECT " + COLUMNS + " FROM " + together + " ORDER BY id"))
                    .as("round %d", round).isEqualTo(sql.rows("SELECT " + COLUMNS + " FROM " + alone + " ORDER BY id"));
        }
        // Most rounds are written, so the rows and versions are compared; some are refused, so refusals are.
        assertThat(refused).isBetween(1, 4);
        if (mode.startsWith("VERSIONED")) {
            assertThat(versions(together, togetherCommits)).isEqualTo(versions(alone, aloneCommits));
        }
    }

    /** JSON integers (BigDecimal on the server) into columns of integers, decimals and text, read in one statement. */
    @Test
    void jsonIntegersEndAsTheyDoOneByOne() {
        String together = create("VERSIONED VALID BY (ix)");
        String alone = create("VERSIONED VALID BY (ix)");
        List<String> statements = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (int id = 1; id <= 7; id++) {
            statements.add("UPDATE %t SET v = ?, ix = ?, n = ?, a = ?, ax = ? WHERE id = ?");
            params.addAll(List.of((long) id * 3, 6L, id * 1_000L, (long) -id, 6L, (long) id));
        }
        Response one = sql.post(String.join("; ", statements).replace("%t", together), params.toArray());
        Response other = sql.post(String.join("; SELECT 1; ", statements).replace("%t", alone), params.toArray());
        assertThat(one.statusCode()).as(one.asString()).isEqualTo(200);
        assertThat(other.statusCode()).as(other.asString()).isEqualTo(200);
        assertThat(sql.rows("SELECT " + COLUMNS + " FROM " + together + " ORDER BY id"))
                .isEqualTo(sql.rows("SELECT " + COLUMNS + " FROM " + alone + " ORDER BY id"))
                .contains(java.util.Arrays.asList("3", "9", "6", "-3", "6", null, "3000.00"));
    }

    @Test
    void aRefusalInARunNamesItsOwnStatementAndWritesNothing() {
        String t = create("VERSIONED");
        long before = sql.latestCommit();
        String request = "UPDATE " + t + " SET v = 1 WHERE id = 1; UPDATE " + t + " SET v = 2 WHERE id = 2; UPDATE "
                + t + " SET v = -1 WHERE id = 3; UPDATE " + t + " SET v = -2 WHERE id = 4";
        JsonNode problem = sql.fails(400, "CHECK_VIOLATION", request);
        assertThat(problem.path("column").asInt()).isEqualTo(request.indexOf("UPDATE " + t + " SET v = -1") + 1);
        String typed = "UPDATE " + t + " SET v = 1 WHERE id = 1; UPDATE " + t + " SET v = 'many' WHERE id = 2";
        sql.fails(400, "INVALID_VALUE", typed);
        assertThat(sql.latestCommit()).isEqualTo(before);
        assertThat(sql.rows("SELECT v, ax FROM " + t + " WHERE id <= 4 ORDER BY id")).containsExactly(
                List.of("10", "5"), List.of("20", "5"), List.of("30", "5"), List.of("40", "5"));
    }

    private static String problem(Response response) {
        JsonNode problem = SqlClient.JSON.readTree(response.asString());
        return problem.path("code").asString() + ": " + problem.path("detail").asString();
    }

    private static String receipt(JsonNode result) {
        return result.path("statement").asString() + " rows=" + result.path("rows").asString() + " versions="
                + result.path("versions").asString() + " current=" + result.path("current").asString() + " lost="
                + result.path("lost").asString();
    }

    /** Every version of the table, with each commit written as the round that made it. */
    private List<List<String>> versions(String t, List<Long> commits) {
        Map<String, String> round = new HashMap<>();
        for (int r = 0; r < commits.size(); r++) {
            round.put(String.valueOf(commits.get(r)), "round " + r);
        }
        List<List<String>> out = new ArrayList<>();
        for (List<String> row : sql.rows("SELECT " + COLUMNS + ", _group, _commit, _current_from, _current_to, _deleted"
                + " FROM history(" + t + ") ORDER BY id, _group, _commit, v, ix, a, ax, d, n, _current_from, _current_to")) {
            List<String> mapped = new ArrayList<>(row);
            for (int i = 8; i <= 10; i++) {
                mapped.set(i, round.getOrDefault(mapped.get(i), mapped.get(i) == null ? null : "before"));
            }
            out.add(mapped);
        }
        return out;
    }
}
