package io.verso.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Derived tables against an obviously-correct model. Random source histories (writes of two
 * attribute groups arriving out of order, deletes ahead of the writes they supersede, an APPEND
 * table) and derived queries drawn from a small set (filter and projection, GROUP BY with
 * sum/count/min/max/avg, inner, outer and self joins with filters and aggregates, a derived table
 * over a derived table, a set operation). Derived tables are created part-way through, so both the
 * build over existing history and the per-commit application are covered. At every commit, {@code d AS OF COMMIT n}
 * must equal (1) the defining query AS OF n through Verso's read path and (2) the same query run
 * by PostgreSQL over plain tables filled from the model's state at n.
 */
class DerivedTableProperties extends IntegrationTest {

    private static final int SEEDS = 3;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    io.micrometer.core.instrument.MeterRegistry meters;

    /**
     * Query templates: {s} the VERSIONED source with two attribute groups, {v} one with one group,
     * {e} the APPEND one, {d0} the first derived table. The first, the five from the sixth on and the
     * joins (the third, and the six after the tenth: a key join with a filter, a join with GROUP BY
     * aggregates, a LEFT JOIN whose WHERE reads the null-extended side, a join on a non-key column
     * with a two-column key, a self-join, a RIGHT JOIN) and the last (a key computed by an
     * expression) are kept by the keys each commit changed (docs/derived-and-feeds.md), the others
     * by recomputing; the tenth has no key (an APPEND table: each commit appends the query over the
     * rows it appended).
     */
    private static final List<String[]> QUERIES = List.of(
            new String[] {"k", "SELECT k, grp, a, b FROM {s} WHERE a > 3"},
            new String[] {"g", "SELECT g, sum(a) AS total, count(*) AS n, min(b) AS lo, max(b) AS hi, avg(a) AS mean "
                    + "FROM (SELECT coalesce(grp, -1) AS g, a, b FROM {s}) AS x GROUP BY g"},
            new String[] {"k", "SELECT s.k, s.a, sum(e.amt) AS spent, count(e.amt) AS times FROM {s} s "
                    + "JOIN {e} e ON e.k = s.k GROUP BY s.k, s.a"},
            new String[] {"k", "SELECT k, 's' AS src FROM {s} WHERE b IS NOT NULL UNION SELECT k + 100, 'e' FROM {e} "
                    + "WHERE amt > 8"},
            new String[] {"k", "SELECT k, coalesce(a, 0) + coalesce(b, 0) AS ab FROM {s} "
                    + "WHERE k IN (SELECT k FROM {e})"},
            new String[] {"grp", "SELECT grp, sum(a) AS total, count(*) AS n, avg(a) AS mean, min(a) AS lo, "
                    + "max(a) AS hi, count(DISTINCT a) AS kinds FROM {v} GROUP BY grp HAVING count(*) > 0"},
            new String[] {"k", "SELECT k, sum(amt) AS total, count(*) AS n, avg(amt) AS mean, max(amt) AS hi "
                    + "FROM {e} GROUP BY k"},
            new String[] {"k", "SELECT k, grp, a * 2 AS twice FROM {v} WHERE a > 2"},
            new String[] {"grp, a", "SELECT DISTINCT grp, a FROM {v} WHERE a >= 0"},
            new String[] {"", "SELECT k, amt * 2 AS twice FROM {e} WHERE amt > 4"},
            // Joins, kept by the joined rows that hold a changed source row (Footprint).
            new String[] {"k", "SELECT s.k, s.a, v.grp AS vgrp, v.a AS va FROM {s} s JOIN {v} v ON v.k = s.k "
                    + "WHERE v.a > 0"},
            new String[] {"grp", "SELECT v.grp, count(*) AS n, sum(s.a) AS total, min(s.b) AS lo, max(s.b) AS hi, "
                    + "avg(s.a) AS mean FROM {v} v JOIN {s} s ON s.k = v.k WHERE s.b IS NOT NULL OR s.a > 1 "
                    + "GROUP BY v.grp"},
            new String[] {"k", "SELECT v.k, v.a, count(e.amt) AS times, sum(e.amt) AS spent FROM {v} v "
                    + "LEFT JOIN {e} e ON e.k = v.k AND e.amt > 2 WHERE e.amt IS NULL OR e.amt < 10 GROUP BY v.k, v.a"},
            new String[] {"sk, vk", "SELECT s.k AS sk, v.k AS vk, s.a + v.a AS ab FROM {s} s JOIN {v} v "
                    + "ON v.grp = s.grp WHERE s.a > 0"},
            new String[] {"k, k2", "SELECT x.k, y.k AS k2, x.a - y.a AS gap FROM {v} x JOIN {v} y ON y.grp = x.grp "
                    + "AND y.k > x.k"},
            new String[] {"k", "SELECT v.k, count(e.amt) AS times, max(e.amt) AS hi FROM {e} e RIGHT JOIN {v} v "
                    + "ON e.k = v.k GROUP BY v.k"},
            // One table, its key computed by an expression: followed like a join.
            new String[] {"g10", "SELECT grp * 10 AS g10, count(*) AS n, sum(a) AS total FROM {v} GROUP BY grp * 10"});

    private static final String OVER_DERIVED = "SELECT g, total FROM {d0} WHERE total > 5";

    /** One version of one group of one key. */
    private record Version(int key, String group, int ordering, long commit, int pos, boolean tombstone,
                           Integer[] values) {
    }

    @Test
    void derivedTablesEqualTheirQueryAsOfEveryCommit() {
        jdbc.execute("CREATE SCHEMA IF NOT EXISTS verso_model");
        double incremental = incrementalApplications();
        for (int seed = 1; seed <= SEEDS; seed++) {
            run(seed);
        }
        // The shapes kept by changed keys were kept that way (the others are compared all the same).
        assertThat(incrementalApplications()).isGreaterThan(incremental + 50);
    }

    private double incrementalApplications() {
        return meters.get("verso.derived.applied").tag("mode", "incremental").counter().count();
    }

    private void run(int seed) {
        Random random = new Random(seed * 7919L);
        String s = table("ps");
        String e = table("pe");
        String v = table("pv");
        sql.write("CREATE TABLE " + s + " (k INT PRIMARY KEY, grp INT, a INT, ai INT, b INT, bi INT,"
                + " ATTRIBUTE GROUP ga (grp, a, ai) VALID BY (ai), ATTRIBUTE GROUP gb (b, bi) VALID BY (bi)) VERSIONED;"
                + " CREATE TABLE " + e + " (k INT, amt INT) APPEND;"
                + " CREATE TABLE " + v + " (k INT PRIMARY KEY, grp INT, a INT, ai INT) VERSIONED VALID BY (ai)");
        String plainS = "verso_model." + s;
        String plainE = "verso_model." + e;
        String plainV = "verso_model." + v;
        jdbc.execute("CREATE TABLE " + plainS + " (k INT PRIMARY KEY, grp INT, a INT, ai INT, b INT, bi INT)");
        jdbc.execute("CREATE TABLE " + plainE + " (k INT, amt INT)");
        jdbc.execute("CREATE TABLE " + plainV + " (k INT PRIMARY KEY, grp INT, a INT, ai INT)");
        String[][] sources = {{"{s}", s, plainS}, {"{e}", e, plainE}, {"{v}", v, plainV}};

        // Every query of the generator (plus one over the first): half created a third of the way through,
        // half two thirds, in an order drawn from the seed.
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < QUERIES.size(); i++) {
            order.add(i);
        }
        java.util.Collections.shuffle(order, random);
        int first = order.get(0);
        List<String[]> derived = new ArrayList<>(); // {name, verso query, plain query}
        List<Version> versions = new ArrayList<>();
        List<int[]> appended = new ArrayList<>(); // {k, amt, commit}
        List<Long> commits = new ArrayList<>();
        int total = 12 + random.nextInt(6);
        for (int c = 0; c < total; c++) {
            if (c == total / 3) {
                derived.add(create(first, sources));
                derived.add(createOver(derived.get(0), first == 1, QUERIES.get(first)[0]));
                for (int i = 1; i < order.size() / 2; i++) {
                    derived.add(create(order.get(i), sources));
                }
            }
            if (c == 2 * total / 3) {
                for (int i = order.size() / 2; i < order.size(); i++) {
                    derived.add(create(order.get(i), sources));
                }
            }
            StringBuilder request = new StringBuilder();
            List<Object[]> pending = new ArrayList<>(); // model entries, committed once the commit is known
            int statements = 1 + random.nextInt(3);
            for (int w = 0; w < statements; w++) {
                int k = random.nextInt(6);
                int ai = random.nextInt(8);
                int bi = random.nextInt(8);
                switch (random.nextInt(8)) {
                    case 0, 1 -> {
                        Integer grp = random.nextInt(3);
                        int a = random.nextInt(12) - 2;
                        request.append("UPSERT INTO ").append(s).append(" (k, grp, a, ai) VALUES (").append(k)
                                .append(", ").append(grp).append(", ").append(a).append(", ").append(ai)
                                .append(") ATTRIBUTE GROUP ga;");
                        pending.add(new Object[] {k, "ga", ai, w, false, new Integer[] {grp, a, ai}});
                    }
                    case 2 -> {
                        int b = random.nextInt(20);
                        request.append("UPSERT INTO ").append(s).append(" (k, b, bi) VALUES (").append(k)
                                .append(", ").append(b).append(", ").append(bi).append(") ATTRIBUTE GROUP gb;");
                        pending.add(new Object[] {k, "gb", bi, w, false, new Integer[] {b, bi}});
                    }
                    case 3 -> {
                        request.append("DELETE FROM ").append(s).append(" WHERE k = ").append(k).append(" AT (ai = ")
                                .append(ai).append(", bi = ").append(bi).append(");");
                        pending.add(new Object[] {k, "ga", ai, w, true, new Integer[] {null, null, ai}});
                        pending.add(new Object[] {k, "gb", bi, w, true, new Integer[] {null, bi}});
                    }
                    case 6 -> {
                        int grp = random.nextInt(3);
                        int a = random.nextInt(12) - 2;
                        request.append("UPSERT INTO ").append(v).append(" VALUES (").append(k).append(", ")
                                .append(grp).append(", ").append(a).append(", ").append(ai).append(");");
                        pending.add(new Object[] {k, "va", ai, w, false, new Integer[] {grp, a, ai}});
                    }
                    case 7 -> {
                        request.append("DELETE FROM ").append(v).append(" WHERE k = ").append(k).append(" AT (ai = ")
                                .append(ai).append(");");
                        pending.add(new Object[] {k, "va", ai, w, true, new Integer[] {null, null, ai}});
                    }
                    default -> {
                        int amt = random.nextInt(12);
                        request.append("INSERT INTO ").append(e).append(" VALUES (").append(k).append(", ")
                                .append(amt).append(");");
                        pending.add(new Object[] {k, "e", amt});
                    }
                }
            }
            long commit = sql.write(request.toString());
            commits.add(commit);
            for (Object[] p : pending) {
                if (p[1].equals("e")) {
                    appended.add(new int[] {(Integer) p[0], (Integer) p[2], (int) commit});
                } else {
                    versions.add(new Version((Integer) p[0], (String) p[1], (Integer) p[2], commit, (Integer) p[3],
                            (Boolean) p[4], (Integer[]) p[5]));
                }
            }
        }
        for (long commit : commits) {
            fillModel(plainS, plainE, plainV, versions, appended, commit);
            for (String[] d : derived) {
                List<List<String>> stored = sql.rows("SELECT * FROM " + d[0] + " AS OF COMMIT ?", commit);
                List<List<String>> read = sql.rows(d[1] + " AS OF COMMIT " + commit);
                List<List<String>> model = plain(d[2]);
                String what = "seed " + seed + ", " + d[0] + " = " + d[1] + ", as of commit " + commit;
                assertThat(sorted(stored)).as(what + " vs Verso's read").isEqualTo(sorted(read));
                assertThat(sorted(stored)).as(what + " vs PostgreSQL over the model").isEqualTo(sorted(model));
            }
        }
        for (int i = derived.size() - 1; i >= 0; i--) {
            sql.write("DROP TABLE " + derived.get(i)[0]);
        }
    }

    private String[] create(int which, String[][] sources) {
        String name = table("pd");
        String[] q = QUERIES.get(which);
        String verso = q[1];
        String plain = q[1];
        for (String[] source : sources) {
            verso = verso.replace(source[0], source[1]);
            plain = plain.replace(source[0], source[2]);
        }
        sql.write("CREATE DERIVED TABLE " + name + (q[0].isEmpty() ? "" : " PRIMARY KEY (" + q[0] + ")") + " AS "
                + verso);
        return new String[] {name, verso, plain};
    }

    /**
     * A derived table over the first one: a filter of its g/total columns where it has them, else all
     * of its columns with its key (none when it has none); a filter on the first key column when that is k.
     */
    private String[] createOver(String[] base, boolean grouped, String key) {
        String name = table("pdd");
        String filter = grouped ? "" : key.equals("k") || key.isEmpty() ? " WHERE k > 1" : "";
        String verso = grouped ? OVER_DERIVED.replace("{d0}", base[0]) : "SELECT * FROM " + base[0] + filter;
        String plain = grouped ? OVER_DERIVED.replace("{d0}", "(" + base[2] + ") AS d0")
                : "SELECT * FROM (" + base[2] + ") AS d0" + filter;
        sql.write("CREATE DERIVED TABLE " + name + (key.isEmpty() ? "" : " PRIMARY KEY (" + (grouped ? "g" : key) + ")")
                + " AS " + verso);
        return new String[] {name, verso, plain};
    }

    /** The model's state at {@code commit} as plain rows: per key and group the greatest version, put together. */
    private void fillModel(String plainS, String plainE, String plainV, List<Version> versions, List<int[]> appended,
                           long commit) {
        jdbc.execute("TRUNCATE " + plainS + ", " + plainE + ", " + plainV);
        Map<Integer, Map<String, Version>> winners = new TreeMap<>();
        Comparator<Version> order = Comparator.comparingInt(Version::ordering).thenComparingLong(Version::commit)
                .thenComparingInt(Version::pos);
        for (Version v : versions) {
            if (v.commit() > commit) {
                continue;
            }
            winners.computeIfAbsent(v.key(), k -> new HashMap<>()).merge(v.group(), v,
                    (x, y) -> order.compare(x, y) >= 0 ? x : y);
        }
        winners.forEach((key, groups) -> {
            Version va = groups.get("va");
            if (va != null && !va.tombstone()) {
                jdbc.update("INSERT INTO " + plainV + " VALUES (?, ?, ?, ?)", key, va.values()[0], va.values()[1],
                        va.values()[2]);
            }
            Version ga = groups.get("ga");
            Version gb = groups.get("gb");
            boolean liveA = ga != null && !ga.tombstone();
            boolean liveB = gb != null && !gb.tombstone();
            if (liveA || liveB) {
                jdbc.update("INSERT INTO " + plainS + " VALUES (?, ?, ?, ?, ?, ?)", key,
                        liveA ? ga.values()[0] : null, liveA ? ga.values()[1] : null, liveA ? ga.values()[2] : null,
                        liveB ? gb.values()[0] : null, liveB ? gb.values()[1] : null);
            }
        });
        for (int[] row : appended) {
            if (row[2] <= commit) {
                jdbc.update("INSERT INTO " + plainE + " VALUES (?, ?)", row[0], row[1]);
            }
        }
    }

    private List<List<String>> plain(String query) {
        return jdbc.query(query, (rs, i) -> {
            List<String> row = new ArrayList<>();
            for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
                row.add(rs.getString(c));
            }
            return row;
        });
    }

    private static List<String> sorted(List<List<String>> rows) {
        return rows.stream().map(r -> String.join("|", r.stream().map(v -> Objects.toString(v, "∅")).toList()))
                .sorted().toList();
    }
}
