package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.catalog.Catalog;
import io.verso.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A table of several attribute groups, one of them first written long after the others. Up to that
 * commit an AS OF reads the versions of the one group written (db/migration/V24 keeps each group's
 * first commit); after it, the per-key pivot of every group's winners. Both must give the answers the
 * pivot gives at every commit: including a column added with a default to the group not yet written,
 * tombstones, and keys deleted and written again.
 */
class GroupsWrittenLaterTests extends IntegrationTest {

    @Autowired
    Catalog catalog;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void anAsOfBeforeAGroupIsFirstWrittenAnswersAsThePivotOfEveryGroup() {
        String t = table("later");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT, ix INT, a TEXT, ax INT,"
                + " ATTRIBUTE GROUP ga (a, ax) VALID BY (ax)) VERSIONED VALID BY (ix)");
        long tableId = catalog.find(t).orElseThrow().id();
        Random random = new Random(20261201);
        List<Long> commits = new ArrayList<>();
        // The default group alone: new versions, late versions that lose, and a column added to ga with a
        // default, which fills it in every stored version although ga has none yet.
        for (int c = 0; c < 12; c++) {
            if (c == 6) {
                sql.write("ALTER TABLE " + t + " ADD COLUMN note TEXT NOT NULL DEFAULT 'none' TO ATTRIBUTE GROUP ga");
            }
            commits.add(sql.write("UPSERT INTO " + t + " (k, v, ix) VALUES (?, ?, ?), (?, ?, ?)",
                    1 + random.nextInt(8), random.nextInt(100), random.nextInt(6),
                    1 + random.nextInt(8), random.nextInt(100), random.nextInt(6)));
        }
        long firstOfGa = -1;
        for (int c = 0; c < 18; c++) {
            int k = 1 + random.nextInt(8);
            long commit = switch (random.nextInt(4)) {
                case 0 -> sql.write("DELETE FROM " + t + " WHERE k = ? AT (ix = ?, ax = ?)", k, random.nextInt(6),
                        random.nextInt(6));
                case 1 -> sql.write("UPSERT INTO " + t + " (k, a, ax, note) VALUES (?, ?, ?, ?) ATTRIBUTE GROUP ga", k,
                        "a" + random.nextInt(100), random.nextInt(6), "n" + random.nextInt(9));
                default -> sql.write("UPSERT INTO " + t + " (k, v, ix) VALUES (?, ?, ?)", k, random.nextInt(100),
                        random.nextInt(6));
            };
            commits.add(commit);
            if (firstOfGa < 0 && !sql.rows("SELECT k FROM history(" + t + ") WHERE _group = 'ga'"
                    + " AND _current_from IS NOT NULL").isEmpty()) {
                firstOfGa = commit;
            }
        }
        assertThat(firstOfGa).as("ga written in the second part").isGreaterThan(commits.get(11));
        assertThat(firstCommits(tableId)).as("each group's first commit with a winner")
                .containsExactly(Map.entry(0, commits.get(0)), Map.entry(1, firstOfGa));

        Map<Long, List<List<List<String>>>> answers = answers(t, commits);
        // The same reads with every group counted as written from the start: the pivot answers them all.
        jdbc.update("UPDATE verso.group_versions SET first_commit = 0 WHERE table_id = ?", tableId);
        assertThat(answers(t, commits)).isEqualTo(answers);
        assertThat(answers.get(commits.get(11)).get(0)).as("rows before ga was written").isNotEmpty()
                .allSatisfy(row -> assertThat(row.subList(3, 6)).as("a, ax and note of %s", row)
                        .containsOnlyNulls());

        // Tables written before V24 get their first commits from their history: the same ones.
        jdbc.update("DELETE FROM verso.group_versions WHERE table_id = ?", tableId);
        jdbc.queryForList("SELECT verso.record_group_versions(?)", tableId);
        assertThat(firstCommits(tableId)).containsExactly(Map.entry(0, commits.get(0)), Map.entry(1, firstOfGa));
    }

    /** Per commit: the whole table, one key, and a filter on a column of each group, all AS OF that commit. */
    private Map<Long, List<List<List<String>>>> answers(String t, List<Long> commits) {
        Map<Long, List<List<List<String>>>> answers = new TreeMap<>();
        for (long commit : commits) {
            String asOf = " FROM " + t + " AS OF COMMIT " + commit;
            answers.put(commit, List.of(
                    sql.rows("SELECT k, v, ix, a, ax, note" + asOf + " ORDER BY k"),
                    sql.rows("SELECT k, v, a, note" + asOf + " WHERE k = 3"),
                    sql.rows("SELECT k, v, a" + asOf + " WHERE v > 50 OR a IS NOT NULL ORDER BY k"),
                    sql.rows("SELECT count(*), count(a), max(v)" + asOf)));
        }
        return answers;
    }

    private Map<Integer, Long> firstCommits(long tableId) {
        Map<Integer, Long> first = new TreeMap<>();
        jdbc.query("SELECT group_id, first_commit FROM verso.group_versions WHERE table_id = ?",
                rs -> {
                    first.put(rs.getInt(1), rs.getLong(2));
                }, tableId);
        return first;
    }
}
