package io.verso.lifecycle;

import static io.verso.support.RestClient.expect;
import static org.assertj.core.api.Assertions.assertThat;

import io.verso.analyze.AsOfResolver;
import io.verso.analyze.ReadAnalyzer;
import io.verso.catalog.Catalog;
import io.verso.catalog.TableDef;
import io.verso.compile.CompiledSql;
import io.verso.compile.SelectCompiler;
import io.verso.engine.SqlRunner;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Statement;
import io.verso.support.IntegrationTest;
import io.verso.support.RestClient;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The history of a VERSIONED table created since the split is partitioned into the versions that
 * were current at some commit and those that never were; tables created before keep one plain
 * history table. The same writes give the same answers on both layouts (AS OF every commit,
 * history, changes, diffs), an AS OF reads only the first partition, and ALTER, indexes, DELETE
 * HISTORY, ERASE and DROP work on the partitioned one.
 */
class PartitionedHistoryTests extends IntegrationTest {

    private static final String SHAPE = "CREATE TABLE %s (k INT PRIMARY KEY, v INT, ix INT, a TEXT, ax INT,"
            + " ATTRIBUTE GROUP ga (a, ax) VALID BY (ax)) VERSIONED VALID BY (ix)";

    @Autowired
    Catalog catalog;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    SqlRunner runner;

    private RestClient rest;

    @BeforeEach
    void restClient() {
        rest = new RestClient(port);
    }

    @Test
    void bothLayoutsGiveTheSameAnswersAndDiffsMatchTheTwoStates() {
        String partitioned = table("split");
        String plain = table("plain");
        sql.write(SHAPE.formatted(partitioned));
        sql.write(SHAPE.formatted(plain));
        unpartition(plain);
        assertThat(partitions(partitioned)).containsExactlyInAnyOrder(
                history(partitioned) + "_was_current", history(partitioned) + "_never_current");
        assertThat(partitions(plain)).isEmpty();

        Random random = new Random(20261201);
        List<Long> commits = new ArrayList<>();
        for (int c = 0; c < 30; c++) {
            // Several statements per commit, so some versions are superseded within the commit that wrote them.
            StringBuilder text = new StringBuilder();
            List<Object> params = new ArrayList<>();
            int statements = 1 + random.nextInt(3);
            for (int s = 0; s < statements; s++) {
                int k = 1 + random.nextInt(8);
                switch (random.nextInt(5)) {
                    case 0 -> {
                        text.append("DELETE FROM %1$s WHERE k = ? AT (ix = ?, ax = ?);\n");
                        params.addAll(List.of(k, random.nextInt(6), random.nextInt(6)));
                    }
                    case 1, 2 -> {
                        text.append("UPSERT INTO %1$s (k, a, ax) VALUES (?, ?, ?), (?, ?, ?) ATTRIBUTE GROUP ga;\n");
                        params.addAll(List.of(k, "a" + random.nextInt(100), random.nextInt(6),
                                1 + random.nextInt(8), "a" + random.nextInt(100), random.nextInt(6)));
                    }
                    default -> {
                        text.append("UPSERT INTO %1$s (k, v, ix) VALUES (?, ?, ?), (?, ?, ?);\n");
                        params.addAll(List.of(k, random.nextInt(100), random.nextInt(6),
                                1 + random.nextInt(8), random.nextInt(100), random.nextInt(6)));
                    }
                }
            }
            // Both tables in one commit, so their answers compare commit for commit.
            List<Object> twice = new ArrayList<>(params);
            twice.addAll(params);
            commits.add(sql.write(text.toString().formatted(partitioned) + text.toString().formatted(plain),
                    twice.toArray()));
        }
        assertThat(count(partitioned, "_never_current")).as("versions never current").isPositive();
        assertThat(count(partitioned, "_was_current")).isPositive();

        for (long commit : commits) {
            assertThat(sql.rows("SELECT * FROM " + partitioned + " AS OF COMMIT " + commit + " ORDER BY k"))
                    .as("AS OF %d", commit)
                    .isEqualTo(sql.rows("SELECT * FROM " + plain + " AS OF COMMIT " + commit + " ORDER BY k"));
        }
        String historyOrder = " ORDER BY _commit, k, _group, v, a";
        assertThat(sql.rows("SELECT k, v, ix, a, ax, _group, _current_from, _current_to, _deleted FROM history("
                + partitioned + ")" + historyOrder))
                .isEqualTo(sql.rows("SELECT k, v, ix, a, ax, _group, _current_from, _current_to, _deleted FROM history("
                        + plain + ")" + historyOrder));
        assertThat(sql.rows("SELECT k, v, a, _commit, _op FROM changes(" + partitioned + ") ORDER BY _commit, k"))
                .isEqualTo(sql.rows("SELECT k, v, a, _commit, _op FROM changes(" + plain + ") ORDER BY _commit, k"));

        for (int i = 0; i < 25; i++) {
            long from = commits.get(random.nextInt(commits.size()));
            long to = commits.get(random.nextInt(commits.size()));
            if (from > to) {
                long swap = from;
                from = to;
                to = swap;
            }
            for (String t : List.of(partitioned, plain)) {
                JsonNode diff = expect(rest.request().queryParam("from", from).queryParam("to", to)
                        .get("/v1/tables/{t}/diff", t), 200);
                assertThat(summary(diff)).as("diff of %s from %d to %d", t, from, to)
                        .isEqualTo(expectedDiff(rowsAt(t, from), rowsAt(t, to)));
            }
        }
        // Without 'to': up to the latest commit.
        long from = commits.get(3);
        JsonNode diff = expect(rest.request().queryParam("from", from).get("/v1/tables/{t}/diff", partitioned), 200);
        assertThat(summary(diff)).isEqualTo(expectedDiff(rowsAt(partitioned, from), rowsAt(partitioned, null)));
        JsonNode one = expect(rest.request().queryParam("from", commits.get(0)).queryParam("key", "3")
                .get("/v1/tables/{t}/diff", partitioned), 200);
        assertThat(summary(one)).isEqualTo(expectedDiff(
                rowsAt(partitioned, commits.get(0)).stream().filter(r -> r.get("k").asInt() == 3).toList(),
                rowsAt(partitioned, null).stream().filter(r -> r.get("k").asInt() == 3).toList()));

        // An AS OF reads the versions that were current, not the others; history reads both.
        TableDef def = catalog.find(partitioned).orElseThrow();
        long latest = commits.get(commits.size() - 1);
        assertThat(plan(def, "SELECT * FROM " + partitioned + " AS OF COMMIT " + commits.get(10), latest))
                .contains("_was_current").doesNotContain("_never_current");
        assertThat(plan(def, "SELECT * FROM " + partitioned + " AS OF COMMIT " + commits.get(10) + " WHERE k = 2",
                latest)).contains("_was_current").doesNotContain("_never_current");
        assertThat(plan(def, "SELECT * FROM history(" + partitioned + ")", latest))
                .contains("_was_current").contains("_never_current");
    }

    @Test
    void aVersionSupersededInItsOwnCommitMovesToTheVersionsNeverCurrent() {
        String t = table("split");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT, ix INT) VERSIONED VALID BY (ix)");
        long c1 = sql.write("UPSERT INTO " + t + " VALUES (1, 'a', 1)");
        assertThat(count(t, "_was_current")).isEqualTo(1);
        // Two statements of one commit: 'b' wins at first, then 'c' supersedes it before anyone could see it.
        long c2 = sql.write("UPSERT INTO " + t + " VALUES (1, 'b', 2); UPSERT INTO " + t + " VALUES (1, 'c', 3);"
                + " UPSERT INTO " + t + " VALUES (1, 'late', 0)");
        assertThat(count(t, "_was_current")).as("a and c").isEqualTo(2);
        assertThat(count(t, "_never_current")).as("b, superseded in its commit, and late, lost on arrival")
                .isEqualTo(2);
        assertThat(sql.rows("SELECT v FROM " + t + " AS OF COMMIT " + c1)).containsExactly(List.of("a"));
        assertThat(sql.rows("SELECT v FROM " + t + " AS OF COMMIT " + c2)).containsExactly(List.of("c"));
        assertThat(sql.rows("SELECT v, _current_from, _current_to FROM history(" + t + ") ORDER BY ix"))
                .containsExactly(Arrays.asList("late", null, null), Arrays.asList("a", "" + c1, "" + c2),
                        Arrays.asList("b", null, null), Arrays.asList("c", "" + c2, null));
        JsonNode diff = expect(rest.request().queryParam("from", c1).queryParam("to", c2)
                .get("/v1/tables/{t}/diff", t), 200);
        assertThat(diff.get("changed").get(0).get("after").get("v").asString()).isEqualTo("c");
        assertThat(diff.get("changed").get(0).get("before").get("v").asString()).isEqualTo("a");
    }

    @Test
    void alterIndexesRetentionErasureAndDropWorkOnThePartitionedHistory() {
        String t = table("split");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT, extra INT, ix INT) VERSIONED VALID BY (ix)");
        long c1 = sql.write("UPSERT INTO " + t + " VALUES (1, 'a', 10, 1), (2, 'x', 20, 1)");
        long c2 = sql.write("UPSERT INTO " + t + " VALUES (1, 'b', 11, 2), (1, 'lost', 0, 0)");
        TableDef def = catalog.find(t).orElseThrow();

        sql.write("ALTER TABLE " + t + " ADD COLUMN score INT NOT NULL DEFAULT 7");
        sql.write("ALTER TABLE " + t + " DROP COLUMN extra");
        sql.write("ALTER TABLE " + t + " RENAME COLUMN v TO val");
        String renamed = t + "_r";
        sql.write("ALTER TABLE " + t + " RENAME TO " + renamed);
        long c3 = sql.write("UPSERT INTO " + renamed + " (k, val, ix, score) VALUES (2, 'y', 5, 9)");
        assertThat(sql.rows("SELECT k, val, score FROM " + renamed + " AS OF COMMIT " + c1 + " ORDER BY k"))
                .containsExactly(List.of("1", "a", "7"), List.of("2", "x", "7"));
        assertThat(sql.rows("SELECT k, val, score FROM " + renamed + " AS OF COMMIT " + c3 + " ORDER BY k"))
                .containsExactly(List.of("1", "b", "7"), List.of("2", "y", "9"));
        assertThat(sql.rows("SELECT val, score FROM history(" + renamed + ") WHERE _current_from IS NULL"))
                .containsExactly(List.of("lost", "7"));
        // Both partitions took the schema change.
        for (String partition : partitions(renamed)) {
            assertThat(jdbc.queryForObject("SELECT count(*) FROM information_schema.columns WHERE table_schema ="
                    + " 'verso_data' AND table_name = ?", Long.class, partition)).as(partition)
                    .isEqualTo(jdbc.queryForObject("SELECT count(*) FROM information_schema.columns WHERE table_schema"
                            + " = 'verso_data' AND table_name = ?", Long.class, def.historyTable()));
        }

        sql.write("CREATE INDEX " + t + "_val ON " + renamed + " (val) SCOPE HISTORY");
        assertThat(indexCount(def.historyTable() + "_was_current")).isEqualTo(3);
        assertThat(indexCount(def.historyTable() + "_never_current")).isEqualTo(3);
        assertThat(sql.rows("SELECT k FROM " + renamed + " AS OF COMMIT " + c2 + " WHERE val = 'b'"))
                .containsExactly(List.of("1"));
        sql.write("DROP INDEX " + t + "_val");
        assertThat(indexCount(def.historyTable() + "_was_current")).isEqualTo(2);
        assertThat(indexCount(def.historyTable() + "_never_current")).isEqualTo(2);

        // Before c3: the version of key 2 that c3 closed goes, and so does 'lost' (never current, written before).
        sql.write("DELETE HISTORY FROM " + renamed + " BEFORE COMMIT " + c3);
        assertThat(count(renamed, "_never_current")).isZero();
        assertThat(sql.rows("SELECT k, val FROM " + renamed + " AS OF COMMIT " + c3 + " ORDER BY k"))
                .containsExactly(List.of("1", "b"), List.of("2", "y"));

        sql.write("ERASE FROM " + renamed + " WHERE k = 1");
        assertThat(sql.rows("SELECT k FROM history(" + renamed + ")")).containsExactly(List.of("2"));
        assertThat(count(renamed, "_was_current")).isEqualTo(1);

        sql.write("DROP TABLE " + renamed);
        for (String suffix : List.of("", "_was_current", "_never_current")) {
            assertThat(jdbc.queryForObject("SELECT to_regclass(?)", String.class,
                    "verso_data." + def.historyTable() + suffix)).isNull();
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /**
     * Gives a table the history layout of tables created before the split: one plain table with the
     * same columns and indexes. Done before any write, so every version goes through the service.
     */
    private void unpartition(String table) {
        TableDef def = catalog.find(table).orElseThrow();
        String hist = "verso_data." + def.historyTable();
        jdbc.execute("CREATE TABLE " + hist + "_plain (LIKE " + hist + " INCLUDING DEFAULTS)");
        jdbc.execute("DROP TABLE " + hist);
        jdbc.execute("ALTER TABLE " + hist + "_plain RENAME TO " + def.historyTable());
        String keys = def.keyColumns().stream().map(c -> "\"" + c.physical() + "\"").collect(Collectors.joining(", "));
        jdbc.execute("CREATE INDEX ON " + hist + " (" + keys + ", _g, _from)");
        jdbc.execute("CREATE INDEX ON " + hist + " USING brin (_from)");
    }

    private String history(String table) {
        return catalog.find(table).orElseThrow().historyTable();
    }

    private List<String> partitions(String table) {
        return jdbc.queryForList("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
                + " WHERE i.inhparent = to_regclass(?)", String.class, "verso_data." + history(table));
    }

    private long count(String table, String partition) {
        return jdbc.queryForObject("SELECT count(*) FROM verso_data." + history(table) + partition, Long.class);
    }

    private long indexCount(String relation) {
        return jdbc.queryForObject("SELECT count(*) FROM pg_indexes WHERE schemaname = 'verso_data' AND tablename = ?",
                Long.class, relation);
    }

    private List<JsonNode> rowsAt(String table, Long commit) {
        var request = rest.request().queryParam("limit", 1000);
        if (commit != null) {
            request = request.queryParam("asOfCommit", commit);
        }
        List<JsonNode> rows = new ArrayList<>();
        expect(request.get("/v1/tables/{t}/rows", table), 200).get("rows").forEach(rows::add);
        return rows;
    }

    /** Added, removed and changed rows as sets of text, order aside. */
    private static Map<String, Set<String>> summary(JsonNode diff) {
        Map<String, Set<String>> out = new HashMap<>();
        for (String part : List.of("added", "removed", "changed")) {
            Set<String> rows = new HashSet<>();
            diff.get(part).forEach(r -> rows.add(part.equals("changed")
                    ? r.get("before") + " -> " + r.get("after") + " " + r.get("columns") : r.toString()));
            out.put(part, rows);
        }
        return out;
    }

    /** What a diff must say, from the two states read whole. */
    private static Map<String, Set<String>> expectedDiff(List<JsonNode> before, List<JsonNode> after) {
        Map<String, JsonNode> old = new HashMap<>();
        before.forEach(r -> old.put(r.get("k").toString(), r));
        Set<String> added = new HashSet<>();
        Set<String> changed = new HashSet<>();
        for (JsonNode row : after) {
            JsonNode was = old.remove(row.get("k").toString());
            if (was == null) {
                added.add(row.toString());
            } else if (!was.equals(row)) {
                List<String> columns = new ArrayList<>();
                row.propertyNames().forEach(c -> {
                    if (!Objects.equals(was.get(c), row.get(c))) {
                        columns.add("\"" + c + "\"");
                    }
                });
                changed.add(was + " -> " + row + " " + columns.toString().replace(" ", ""));
            }
        }
        Set<String> removed = new HashSet<>();
        old.values().forEach(r -> removed.add(r.toString()));
        return Map.of("added", added, "removed", removed, "changed", changed);
    }

    private String plan(TableDef table, String statement, long latest) {
        List<Object> params = List.of();
        var select = (Statement.Select) SqlParser.parse(statement).statements().get(0);
        CompiledSql compiled = SelectCompiler.compile(ReadAnalyzer.select(select, name -> table,
                new AsOfResolver(params, latest), 0), params);
        List<String[]> lines = runner.texts(new CompiledSql("EXPLAIN " + compiled.sql(), compiled.binds()));
        return String.join("\n", lines.stream().map(l -> l[0]).toList());
    }
}
