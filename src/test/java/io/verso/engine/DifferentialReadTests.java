package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Random histories and random queries over the read grammar (joins of every kind, subqueries,
 * set operations, windows, aggregates, CTEs, derived tables, history(), AS OF on relations, derived
 * tables and queries, by commit and by timestamp), each answered by Verso and by plain PostgreSQL
 * over tables holding exactly the state at each commit, built from this test's own model of the
 * history (never from Verso's storage). Results are compared as sorted multisets of rows.
 *
 * <p>{@code -Ddiff.seed=n} replays a run; {@code -Ddiff.queries=n} sets the number of queries.
 */
class DifferentialReadTests extends IntegrationTest {

    private static final int TABLES = 3;
    private static final int COMMITS = 10;

    @Autowired
    DataSource dataSource;

    /** One retained version of the model: a row or a tombstone, with the commit that wrote it. */
    record Version(int id, Integer a, String b, long commit, boolean deleted) {
    }

    @Test
    void randomQueriesAnswerLikePostgresqlOverTheModel() throws Exception {
        long seed = Long.getLong("diff.seed", System.nanoTime());
        int count = Integer.getInteger("diff.queries", 2000);
        Random random = new Random(seed);
        String run = table("d");
        String[] names = new String[TABLES];
        StringBuilder ddl = new StringBuilder();
        for (int t = 0; t < TABLES; t++) {
            names[t] = run + "_t" + t;
            ddl.append("CREATE TABLE ").append(names[t]).append(t == TABLES - 1
                    ? " (id INT, a INT, b TEXT) APPEND; " : " (id INT PRIMARY KEY, a INT, b TEXT) VERSIONED; ");
        }
        sql.write(ddl.toString());

        // The model: every version per table, in commit order.
        List<List<Version>> versions = new ArrayList<>();
        for (int t = 0; t < TABLES; t++) {
            versions.add(new ArrayList<>());
        }
        long[] commits = new long[COMMITS];
        for (int c = 0; c < COMMITS; c++) {
            StringBuilder request = new StringBuilder();
            List<Version[]> pending = new ArrayList<>();
            for (int t = 0; t < TABLES; t++) {
                boolean append = t == TABLES - 1;
                int writes = random.nextInt(4);
                for (int w = 0; w < writes; w++) {
                    int id = random.nextInt(6);
                    Integer a = random.nextInt(5) == 0 ? null : random.nextInt(7) - 2;
                    String b = random.nextInt(5) == 0 ? null : String.valueOf((char) ('p' + random.nextInt(4)));
                    boolean delete = !append && random.nextInt(4) == 0;
                    if (delete) {
                        request.append("DELETE FROM ").append(names[t]).append(" WHERE id = ").append(id).append("; ");
                    } else {
                        request.append(append ? "INSERT INTO " : "UPSERT INTO ").append(names[t]).append(" VALUES (")
                                .append(id).append(", ").append(a == null ? "NULL" : a).append(", ")
                                .append(b == null ? "NULL" : "'" + b + "'").append("); ");
                    }
                    pending.add(new Version[] {new Version(id, delete ? null : a, delete ? null : b, t, delete)});
                }
            }
            if (request.length() == 0) {
                request.append("UPSERT INTO ").append(names[0]).append(" VALUES (0, 0, 'p')");
                pending.add(new Version[] {new Version(0, 0, "p", 0, false)});
            }
            commits[c] = sql.write(request.toString());
            for (Version[] p : pending) {
                Version v = p[0];
                versions.get((int) v.commit()).add(new Version(v.id(), v.a(), v.b(), commits[c], v.deleted()));
            }
        }

        try (Connection pg = dataSource.getConnection()) {
            pg.setAutoCommit(true);
            Map<Long, String> times = new HashMap<>();
            try (Statement st = pg.createStatement()) {
                // One script per commit: the tables as the model says they stood there.
                for (long c : commits) {
                    String schema = "diff_" + c;
                    StringBuilder script = new StringBuilder("DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA "
                            + schema + ";");
                    for (int t = 0; t < TABLES; t++) {
                        script.append("CREATE TABLE ").append(schema).append('.').append(names[t])
                                .append(" (id INT, a INT, b TEXT);");
                        script.append("CREATE TABLE ").append(schema).append(".h_").append(names[t])
                                .append(" (id INT, a INT, b TEXT, _commit BIGINT, _deleted BOOLEAN);");
                        for (List<Object> row : state(versions.get(t), c, t == TABLES - 1)) {
                            script.append("INSERT INTO ").append(schema).append('.').append(names[t]).append(" VALUES (")
                                    .append(literal(row.get(0))).append(", ").append(literal(row.get(1))).append(", ")
                                    .append(literal(row.get(2))).append(");");
                        }
                        for (Version v : versions.get(t)) {
                            if (v.commit() <= c) {
                                script.append("INSERT INTO ").append(schema).append(".h_").append(names[t])
                                        .append(" VALUES (").append(v.id()).append(", ").append(literal(v.a()))
                                        .append(", ").append(literal(v.b())).append(", ").append(v.commit())
                                        .append(", ").append(v.deleted()).append(");");
                            }
                        }
                    }
                    st.execute(script.toString());
                }
                try (ResultSet rs = st.executeQuery("SELECT seq, to_char(committed_at AT TIME ZONE 'UTC', "
                        + "'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM verso.commits WHERE seq BETWEEN " + commits[0]
                        + " AND " + commits[COMMITS - 1])) {
                    while (rs.next()) {
                        times.put(rs.getLong(1), rs.getString(2));
                    }
                }
            }
            Generator generator = new Generator(random, names, commits, times);
            int mismatches = 0;
            int errors = 0;
            List<String> report = new ArrayList<>();
            long started = System.nanoTime();
            for (int q = 0; q < count; q++) {
                Generator.Pair query = generator.query();
                List<String> onPg;
                try {
                    onPg = runPg(pg, query.pg());
                } catch (SQLException e) {
                    // The generator made a query PostgreSQL itself refuses: Verso must refuse it too.
                    HttpResponse<String> response = post(query.verso());
                    if (response.statusCode() == 200) {
                        mismatches++;
                        report.add("PostgreSQL refused (" + e.getMessage() + ") but Verso answered:\n  " + query.verso());
                    }
                    errors++;
                    continue;
                }
                HttpResponse<String> response = post(query.verso());
                if (response.statusCode() != 200) {
                    mismatches++;
                    report.add("Verso refused " + response.body() + "\n  " + query.verso() + "\n  pg: " + query.pg());
                    continue;
                }
                List<String> onVerso = rows(io.verso.support.SqlClient.JSON.readTree(response.body()));
                if (!onVerso.equals(onPg)) {
                    mismatches++;
                    report.add("different answers\n  verso: " + query.verso() + "\n  pg:    " + query.pg()
                            + "\n  Verso said      " + onVerso + "\n  PostgreSQL said " + onPg);
                }
            }
            long millis = (System.nanoTime() - started) / 1_000_000;
            System.out.println("== differential reads: seed " + seed + ", " + count + " queries in " + millis
                    + " ms, " + errors + " refused by both, " + mismatches + " mismatches");
            report.stream().limit(20).forEach(r -> System.out.println("   " + r));
            assertThat(mismatches).as("mismatches (seed " + seed + "): " + report.stream().limit(3).toList()).isZero();
            try (Statement st = pg.createStatement()) {
                for (long c : commits) {
                    st.execute("DROP SCHEMA IF EXISTS diff_" + c + " CASCADE");
                }
            }
        }
    }

    /** The rows of a table at commit c according to the model: last version per key wins (APPEND: all rows). */
    static List<List<Object>> state(List<Version> versions, long c, boolean append) {
        List<List<Object>> rows = new ArrayList<>();
        if (append) {
            for (Version v : versions) {
                if (v.commit() <= c) {
                    rows.add(java.util.Arrays.asList(v.id(), v.a(), v.b()));
                }
            }
            return rows;
        }
        Map<Integer, Version> winners = new TreeMap<>();
        for (Version v : versions) {
            if (v.commit() <= c) {
                winners.put(v.id(), v);
            }
        }
        for (Version v : winners.values()) {
            if (!v.deleted()) {
                rows.add(java.util.Arrays.asList(v.id(), v.a(), v.b()));
            }
        }
        return rows;
    }

    private static String literal(Object value) {
        return value == null ? "NULL" : value instanceof String s ? "'" + s + "'" : value.toString();
    }

    private static List<String> runPg(Connection pg, String query) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement st = pg.createStatement(); ResultSet rs = st.executeQuery(query)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int c = 1; c <= columns; c++) {
                    row.add(normal(rs.getString(c)));
                }
                rows.add(String.join("|", row));
            }
        }
        rows.sort(Comparator.naturalOrder());
        return rows;
    }

    private static List<String> rows(JsonNode response) {
        JsonNode results = response.get("results");
        List<String> rows = new ArrayList<>();
        for (JsonNode row : results.get(results.size() - 1).get("rows")) {
            List<String> values = new ArrayList<>();
            for (JsonNode value : row) {
                values.add(normal(value.isNull() ? null : value.isBoolean() ? (value.asBoolean() ? "t" : "f")
                        : value.isValueNode() ? value.asString() : value.toString()));
            }
            rows.add(String.join("|", values));
        }
        rows.sort(Comparator.naturalOrder());
        return rows;
    }

    /** Numbers compared by value (PostgreSQL's text of a numeric may carry trailing zeros). */
    private static String normal(String value) {
        if (value == null) {
            return "NULL";
        }
        try {
            return new java.math.BigDecimal(value).stripTrailingZeros().toPlainString();
        } catch (NumberFormatException e) {
            return value;
        }
    }

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> post(String statement) throws java.io.IOException, InterruptedException {
        String body = io.verso.support.SqlClient.JSON.writeValueAsString(Map.of("sql", statement, "params", List.of()));
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/sql")).header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Makes the same query twice: for Verso (tables, history(), AS OF clauses) and for PostgreSQL
     * (each relation replaced by the model's table at the commit the nearest-AS-OF rule gives it).
     */
    static final class Generator {
        record Pair(String verso, String pg) {
        }

        private final Random random;
        private final String[] tables;
        private final long[] commits;
        private final Map<Long, String> times;
        private int aliases;

        Generator(Random random, String[] tables, long[] commits, Map<Long, String> times) {
            this.random = random;
            this.tables = tables;
            this.commits = commits;
            this.times = times;
        }

        private long latest() {
            return commits[commits.length - 1];
        }

        /** An AS OF clause (null: none) and the commit it reads at. */
        private record AsOf(String text, long commit) {
        }

        private AsOf maybeAsOf(int percent) {
            if (random.nextInt(100) >= percent) {
                return null;
            }
            long c = commits[random.nextInt(commits.length)];
            if (random.nextInt(4) == 0 && times.containsKey(c)) {
                return new AsOf(" AS OF TIMESTAMP '" + times.get(c) + "'", c);
            }
            return new AsOf(" AS OF COMMIT " + c, c);
        }

        /** A relation with its alias: {@code t AS OF ... x} for Verso, {@code diff_c.t x} for PostgreSQL. */
        private Pair relation(long inherited, String alias, boolean history) {
            int t = random.nextInt(tables.length);
            AsOf own = maybeAsOf(25);
            long c = own != null ? own.commit() : inherited;
            String asOf = own == null ? "" : own.text();
            if (history) {
                return new Pair("history(" + tables[t] + ")" + asOf + " " + alias,
                        "(SELECT id, a, b, _commit, _deleted FROM diff_" + c + ".h_" + tables[t] + ") " + alias);
            }
            return new Pair(tables[t] + asOf + " " + alias, "diff_" + c + "." + tables[t] + " " + alias);
        }

        private String alias() {
            return "r" + (aliases++);
        }

        private String pred(String x) {
            return switch (random.nextInt(6)) {
                case 0 -> x + ".a > " + (random.nextInt(5) - 2);
                case 1 -> x + ".b IN ('p', 'q')";
                case 2 -> x + ".a IS NULL";
                case 3 -> x + ".id BETWEEN 1 AND 3";
                case 4 -> "coalesce(" + x + ".a, 0) <> " + x + ".id";
                default -> x + ".b IS NOT DISTINCT FROM 'r'";
            };
        }

        Pair query() {
            aliases = 0;
            AsOf trailing = maybeAsOf(40);
            long c = trailing == null ? latest() : trailing.commit();
            Pair body = body(c, 0);
            String tail = trailing == null ? "" : trailing.text();
            return new Pair(body.verso() + tail, body.pg());
        }

        private Pair body(long c, int depth) {
            int shape = random.nextInt(depth > 0 ? 6 : 11);
            String x = alias();
            String y = alias();
            switch (shape) {
                case 0 -> {
                    Pair r = relation(c, x, false);
                    return both("SELECT " + x + ".id, " + x + ".a, " + x + ".b FROM ", r, " WHERE " + pred(x));
                }
                case 1 -> {
                    Pair r = relation(c, x, false);
                    return both("SELECT " + x + ".a, count(*), sum(" + x + ".id), max(" + x + ".b) FROM ", r,
                            " GROUP BY " + x + ".a" + (random.nextBoolean() ? " HAVING count(*) > 1" : ""));
                }
                case 2 -> {
                    String[] kinds = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"};
                    String kind = kinds[random.nextInt(kinds.length)];
                    Pair l = relation(c, x, false);
                    Pair r = relation(c, y, false);
                    String on = " ON " + x + ".id = " + y + ".id";
                    return new Pair("SELECT " + x + ".id, " + y + ".a, " + y + ".b FROM " + l.verso() + " " + kind + " "
                            + r.verso() + on, "SELECT " + x + ".id, " + y + ".a, " + y + ".b FROM " + l.pg() + " "
                            + kind + " " + r.pg() + on);
                }
                case 3 -> {
                    Pair l = relation(c, x, false);
                    Pair r = relation(c, y, false);
                    return new Pair("SELECT " + x + ".id, " + y + ".id FROM " + l.verso() + ", " + r.verso()
                            + " WHERE " + x + ".a = " + y + ".a", "SELECT " + x + ".id, " + y + ".id FROM " + l.pg()
                            + ", " + r.pg() + " WHERE " + x + ".a = " + y + ".a");
                }
                case 4 -> {
                    Pair l = body(c, depth + 1);
                    Pair r = body(c, depth + 1);
                    String[] ops = {"UNION", "UNION ALL", "INTERSECT", "EXCEPT", "EXCEPT ALL", "INTERSECT ALL"};
                    String op = ops[random.nextInt(ops.length)];
                    // Both sides reduced to their first column, so the shapes always match.
                    return new Pair("SELECT v FROM (" + l.verso() + ") AS " + x + "(v) " + op + " SELECT v FROM ("
                            + r.verso() + ") AS " + y + "(v)", "SELECT v FROM (" + l.pg() + ") AS " + x + "(v) " + op
                            + " SELECT v FROM (" + r.pg() + ") AS " + y + "(v)");
                }
                case 5 -> {
                    Pair r = relation(c, x, false);
                    return both("SELECT " + x + ".id, " + x + ".a, row_number() OVER (PARTITION BY " + x + ".a ORDER BY "
                            + x + ".id, " + x + ".b), sum(" + x + ".id) OVER (ORDER BY " + x + ".id, " + x + ".a, "
                            + x + ".b ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), rank() OVER (ORDER BY " + x + ".a) FROM ",
                            r, "");
                }
                case 6 -> {
                    Pair outer = relation(c, x, false);
                    Pair inner = relation(c, y, false);
                    String[] forms = {
                        "EXISTS (SELECT 1 FROM %s WHERE " + y + ".id = " + x + ".id AND " + y + ".a IS NOT NULL)",
                        x + ".a IN (SELECT " + y + ".a FROM %s WHERE " + y + ".a IS NOT NULL)",
                        x + ".id > ALL (SELECT " + y + ".id FROM %s WHERE " + y + ".b = " + x + ".b)",
                        x + ".a = ANY (SELECT " + y + ".a FROM %s)",
                        "(SELECT count(*) FROM %s WHERE " + y + ".a = " + x + ".a) > 1"};
                    String form = forms[random.nextInt(forms.length)];
                    return new Pair("SELECT " + x + ".id, " + x + ".b FROM " + outer.verso() + " WHERE "
                            + form.replace("%s", inner.verso()), "SELECT " + x + ".id, " + x + ".b FROM " + outer.pg()
                            + " WHERE " + form.replace("%s", inner.pg()));
                }
                case 7 -> {
                    // A derived table with its own AS OF: its body reads there unless a relation says otherwise.
                    AsOf own = maybeAsOf(60);
                    Pair inner = body(own == null ? c : own.commit(), depth + 1);
                    return new Pair("SELECT count(*), count(v) FROM (" + inner.verso() + ")"
                            + (own == null ? "" : own.text()) + " AS " + x + "(v)", "SELECT count(*), count(v) FROM ("
                            + inner.pg() + ") AS " + x + "(v)");
                }
                case 8 -> {
                    // A CTE body inherits the main query's AS OF.
                    Pair inner = body(c, depth + 1);
                    Pair r = relation(c, y, false);
                    return new Pair("WITH w (v) AS (" + first(inner.verso()) + ") SELECT w.v, " + y + ".b FROM w JOIN "
                            + r.verso() + " ON w.v = " + y + ".id", "WITH w (v) AS (" + first(inner.pg())
                            + ") SELECT w.v, " + y + ".b FROM w JOIN " + r.pg() + " ON w.v = " + y + ".id");
                }
                case 9 -> {
                    Pair r = relation(c, x, true);
                    return both("SELECT " + x + ".id, count(*), max(" + x + "._commit), bool_or(" + x + "._deleted), "
                            + "lag(max(" + x + ".a)) OVER (ORDER BY " + x + ".id) FROM ", r, " GROUP BY " + x + ".id");
                }
                default -> {
                    Pair r = relation(c, x, false);
                    return both("SELECT DISTINCT " + x + ".b, " + x + ".a + 1, CASE WHEN " + x + ".a > 0 THEN 'pos' "
                            + "ELSE 'other' END FROM ", r, " WHERE NOT (" + pred(x) + ")");
                }
            }
        }

        /** Wraps a query so it returns its first column only. */
        private String first(String query) {
            String z = alias();
            return "SELECT " + z + ".v FROM (" + query + ") AS " + z + "(v)";
        }

        private static Pair both(String head, Pair relation, String tail) {
            return new Pair(head + relation.verso() + tail, head + relation.pg() + tail);
        }
    }
}
