package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Generated hostile input across the three surfaces: statements for /v1/sql (token soup, mutations
 * of valid statements, and statements built from the dialect's grammar and mutated token by token, with
 * random parameters), JSON bodies for REST writes, deletes and table
 * definitions, and GraphQL documents. Every answer must come within the timeout and be below 500,
 * and the only commits made are those of requests that were answered as successful writes: nothing
 * is written by a refused request. A fixed seed runs every time, then a random one, printed, which
 * {@code -Dverso.fuzz.seed=N} replays (the same requests; the answers may differ where four callers race) ({@code -Dverso.fuzz.requests=N} per seed, default 5,000).
 */
class FuzzTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final int REQUESTS = Integer.getInteger("verso.fuzz.requests", 5_000);

    @Test
    void fixedSeed() throws Exception {
        fuzz(Long.getLong("verso.fuzz.seed", 20261201L));
    }

    @Test
    void randomSeed() throws Exception {
        long seed = new Random().nextLong();
        System.out.println("FuzzTests random seed: " + seed + " (replay with -Dverso.fuzz.seed=" + seed + ")");
        fuzz(seed);
    }

    /**
     * A fresh table name of one length on every run: the generator mutates statements at random places of
     * their text, so a seed replays the same requests only when the names in them are as long as before.
     * The names {@link #table} makes never end in '_', so padding with it keeps them apart.
     */
    private static String named(String prefix) {
        String name = table(prefix);
        return name + "_".repeat(Math.max(0, 30 - name.length()));
    }

    private void fuzz(long seed) throws Exception {
        String items = named("fz_items");
        String log = named("fz_log");
        String stock = named("fz_stock");
        sql.run("CREATE TABLE " + items + " (id INT PRIMARY KEY, name TEXT, qty BIGINT, price NUMERIC(10,2), seen "
                + "TIMESTAMPTZ, tags JSONB, ix BIGINT NOT NULL) VERSIONED VALID BY (ix); CREATE TABLE " + log
                + " (at INT, note TEXT, ok BOOLEAN) APPEND; CREATE TABLE " + stock + " (article INT PRIMARY KEY, "
                + "qte INT NOT NULL, label VARCHAR(8)) WITH SYSTEM VERSIONING; UPSERT INTO " + items
                + " VALUES (1, 'a', 1, 1.5, '2026-01-01T00:00:00Z', '{\"k\": 1}', 1); INSERT INTO " + log
                + " VALUES (1, 'x', true); INSERT INTO " + stock + " VALUES (1, 10, 'one')");
        sql.run("UPDATE " + stock + " SET qte = 11 WHERE article = 1");
        Generator g = new Generator(new Random(seed), items, log, stock, named("fz_new"));
        long before = sql.latestCommit();
        AtomicInteger writes = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<String[]> requests = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            requests.add(g.next());
        }
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (List<String[]> slice : partition(requests, 4)) {
                done.add(pool.submit(() -> {
                    for (String[] r : slice) {
                        try {
                            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                                            URI.create("http://localhost:" + port + r[0]))
                                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                                    .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY)
                                    .POST(HttpRequest.BodyPublishers.ofString(r[1])).build(),
                                    HttpResponse.BodyHandlers.ofString());
                            if (response.statusCode() >= 500) {
                                failures.add(response.statusCode() + " " + r[0] + " " + abbreviate(r[1]) + " -> "
                                        + abbreviate(response.body()));
                            } else if (response.statusCode() >= 400) {
                                refused.incrementAndGet();
                            } else {
                                writes.addAndGet(commitsIn(response.body()));
                            }
                        } catch (java.net.http.HttpTimeoutException e) {
                            failures.add("no answer in 30 s: " + r[0] + " " + abbreviate(r[1]));
                        } catch (Exception e) {
                            failures.add(e + ": " + r[0] + " " + abbreviate(r[1]));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long after = sql.latestCommit();
        // Commit sequences may have gaps (one drawn by a write that then failed), never extra commits.
        long made = countCommitsBetween(before, after);
        System.out.printf("FuzzTests seed %d: %d requests in %d ms, %d refused (4xx), %d commits made, %d successful "
                        + "writes answered, %d failures%n", seed, requests.size(),
                (System.nanoTime() - started) / 1_000_000, refused.get(), made, writes.get(), failures.size());
        assertThat(failures).as("seed " + seed).isEmpty();
        assertThat(made).as("commits made, seed " + seed).isEqualTo(writes.get());
    }

    private long countCommitsBetween(long after, long upTo) {
        // Every commit after `after`: the fuzz is the only writer while it runs (test classes run one at a time).
        JsonNode page;
        long count = 0;
        String cursor = String.valueOf(after);
        do {
            page = SqlClient.JSON.readTree(io.restassured.RestAssured.given().port(port)
                    .get("/v1/commits?limit=1000&after=" + cursor).asString());
            for (JsonNode commit : page.path("commits")) {
                if (Long.parseLong(commit.path("commit").asString()) <= upTo) {
                    count++;
                }
            }
            cursor = page.path("next").isNull() ? null : page.path("next").asString();
        } while (cursor != null && !cursor.isEmpty());
        return count;
    }

    /** Commits a 2xx answer reports: /v1/sql and REST receipts carry "commit", GraphQL mutations in data. */
    private static int commitsIn(String body) {
        JsonNode json;
        try {
            json = SqlClient.JSON.readTree(body);
        } catch (RuntimeException e) {
            return 0;
        }
        if (json.has("commit")) {
            return json.path("commit").isNull() ? 0 : 1;
        }
        // GraphQL: all mutation fields of one document share one commit.
        return json.path("data").toString().contains("\"commit\":\"") ? 1 : 0;
    }

    private static <T> List<List<T>> partition(List<T> all, int parts) {
        List<List<T>> out = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            out.add(new ArrayList<>());
        }
        for (int i = 0; i < all.size(); i++) {
            out.get(i % parts).add(all.get(i));
        }
        return out;
    }

    private static String abbreviate(String text) {
        return text.length() > 300 ? text.substring(0, 300) + "…" : text;
    }

    /** Requests as {path, body}. */
    private static final class Generator {
        private static final String PUNCTUATION = "()',;?\"\\{}[]:0-";
        private final Random random;
        private final String items;
        private final String log;
        private final List<String> valid;
        private final String[] tokens;
        private final Grammar grammar;

        Generator(Random random, String items, String log, String stock, String fresh) {
            this.random = random;
            this.items = items;
            this.log = log;
            this.grammar = new Grammar(random, items, log, stock, fresh);
            valid = List.of(
                    "SELECT id, name FROM " + items + " WHERE qty > ? ORDER BY id LIMIT 5",
                    "SELECT count(*), sum(qty), max(price) FROM " + items + " GROUP BY name HAVING count(*) > 0",
                    "SELECT a.id, b.note FROM " + items + " a LEFT JOIN " + log + " b ON b.at = a.id",
                    "SELECT * FROM history(" + items + ") WHERE id = 1 ORDER BY _commit",
                    "SELECT name FROM " + items + " AS OF COMMIT 1 WHERE id IN (1, 2, 3)",
                    "UPSERT INTO " + items + " (id, name, qty, ix) VALUES (?, ?, ?, ?)",
                    "INSERT INTO " + log + " VALUES (?, ?, ?)",
                    "UPDATE " + items + " SET name = upper(name), ix = ix + 1 WHERE id = 1",
                    "DELETE FROM " + items + " WHERE id = ? AT (ix = 99)",
                    "SELECT coalesce(name, 'n') || '-' || CAST(qty AS text), tags->>'k' FROM " + items,
                    "SELECT CASE WHEN qty BETWEEN 1 AND 9 THEN 'low' ELSE 'high' END FROM " + items,
                    "DESCRIBE " + items, "SHOW TABLES", "SHOW CREATE TABLE " + log,
                    "SELECT length(name), substring(name, 1, 2), round(price, 1) FROM " + items + " WHERE name LIKE 'a%'");
            tokens = ("SELECT FROM WHERE AND OR NOT IN IS NULL ( ) , ; * + - / % || = <> < > <= >= ? "
                    + "UPSERT INSERT INTO VALUES UPDATE SET DELETE AT AS OF COMMIT LIMIT OFFSET ORDER BY GROUP HAVING "
                    + "JOIN LEFT ON history CAST BETWEEN LIKE CASE WHEN THEN ELSE END TRUE FALSE DISTINCT count sum "
                    + "id name qty price seen tags ix at note ok " + items + " " + log + " pg_catalog.pg_tables "
                    + "public.x pg_sleep version() 0 1 -1 99999999999999999999 1e308 1.5 '' 'x' 'it''s' '\u00e9' "
                    + "\"q\" \"a\"\"b\" :: ->> @> #> INTERVAL DATE TIMESTAMP '2026-01-01' -- /*").split(" ");
        }

        String[] next() {
            int kind = random.nextInt(10);
            if (kind < 6) {
                return new String[] {"/v1/sql", sqlBody()};
            }
            if (kind < 9) {
                return rest();
            }
            return new String[] {"/graphql", graphql()};
        }

        private String sqlBody() {
            String text = switch (random.nextInt(6)) {
                case 0 -> soup();
                case 1 -> mutate(pick(valid));
                case 2 -> pick(valid);
                case 3 -> grammar.mutated(grammar.script());
                default -> grammar.script();
            };
            List<Object> params = new ArrayList<>();
            for (int i = 0, n = random.nextInt(5); i < n; i++) {
                params.add(value());
            }
            if (random.nextInt(20) == 0) {
                return mutate(SqlClient.JSON.writeValueAsString(Map.of("sql", text, "params", params)));
            }
            return SqlClient.JSON.writeValueAsString(Map.of("sql", text, "params", params));
        }

        private String soup() {
            StringBuilder b = new StringBuilder();
            for (int i = 0, n = 1 + random.nextInt(25); i < n; i++) {
                b.append(pick(List.of(tokens))).append(random.nextInt(8) == 0 ? "" : " ");
            }
            return b.toString();
        }

        private String mutate(String text) {
            StringBuilder b = new StringBuilder(text);
            for (int i = 0, n = 1 + random.nextInt(4); i < n && b.length() > 0; i++) {
                int at = random.nextInt(b.length());
                switch (random.nextInt(4)) {
                    case 0 -> b.deleteCharAt(at);
                    case 1 -> b.insert(at, pick(List.of(tokens)));
                    case 2 -> b.setCharAt(at, PUNCTUATION.charAt(random.nextInt(PUNCTUATION.length())));
                    default -> b.insert(at, b.substring(at, Math.min(b.length(), at + random.nextInt(20))));
                }
            }
            return b.toString();
        }

        private Object value() {
            return switch (random.nextInt(12)) {
                case 0 -> null;
                case 1 -> random.nextInt();
                case 2 -> random.nextLong();
                case 3 -> "1e" + random.nextInt(400);
                case 4 -> random.nextDouble() * 1e6;
                case 5 -> random.nextBoolean();
                case 6 -> "2026-0" + (1 + random.nextInt(9)) + "-01T00:00:00Z";
                case 7 -> List.of(1, "x");
                case 8 -> Map.of("k", random.nextInt(3));
                case 9 -> "x".repeat(random.nextInt(2000));
                case 10 -> "it's \"quoted\" \\ and é";
                default -> String.valueOf(random.nextInt(5));
            };
        }

        private String[] rest() {
            return switch (random.nextInt(4)) {
                case 0 -> new String[] {"/v1/tables/" + items + "/rows", maybeMutate(SqlClient.JSON.writeValueAsString(
                        Map.of("rows", List.of(row(), row()))))};
                case 1 -> new String[] {"/v1/tables/" + items + "/rows/delete", maybeMutate(
                        SqlClient.JSON.writeValueAsString(Map.of("keys", List.of(Map.of("id", value() == null ? 1
                                : random.nextInt(4))), "at", Map.of("ix", value() == null ? 5 : random.nextInt(100)))))};
                case 2 -> new String[] {"/v1/tables/" + log + "/rows", maybeMutate(SqlClient.JSON.writeValueAsString(
                        Map.of("rows", List.of(Map.of("at", random.nextInt(9), "note", String.valueOf(value())),
                                Collections.singletonMap("ok", value())))))};
                default -> new String[] {"/v1/tables", maybeMutate("{\"name\": \"" + (random.nextBoolean() ? items : "fz_"
                        + random.nextInt(3)) + "\", \"ifNotExists\": true, \"columns\": [{\"name\": \"k\", \"type\": \""
                        + pick(List.of("INT", "TEXT", "NUMERIC(5,2)", "BLOB", "INT(", "")) + "\"}], \"primaryKey\": [\"k\"]}")};
            };
        }

        private Map<String, Object> row() {
            Map<String, Object> row = new java.util.LinkedHashMap<>();
            row.put("id", random.nextInt(6) == 0 ? value() : random.nextInt(5));
            row.put("ix", random.nextInt(6) == 0 ? value() : random.nextInt(1000));
            if (random.nextBoolean()) {
                row.put("name", value());
            }
            if (random.nextBoolean()) {
                row.put(pick(List.of("qty", "price", "seen", "tags", "nope")), value());
            }
            return row;
        }

        private String graphql() {
            String doc = pick(List.of(
                    "{ " + items + "(limit: 3) { nodes { id name qty } } }",
                    "{ " + items + "_by_key(id: 1) { name price } }",
                    "{ " + items + "_aggregate { count } }",
                    "mutation { upsert_" + items + "(rows: [{id: 3, ix: 7, name: \"g\"}]) { commit } }",
                    "mutation { insert_" + grammar.stock + "(rows: [{article: " + (100 + random.nextInt(1_000_000))
                            + ", qte: " + grammar.integer() + "}]) { commit rows outcomes { index current } } }",
                    "{ " + grammar.stock + "(limit: 2) { nodes { article qte } } }",
                    "{ __schema { types { name } } }"));
            String query = random.nextInt(3) == 0 ? doc : mutate(doc);
            return random.nextInt(10) == 0 ? mutate(SqlClient.JSON.writeValueAsString(Map.of("query", query)))
                    : SqlClient.JSON.writeValueAsString(Map.of("query", query));
        }

        private String maybeMutate(String body) {
            return random.nextInt(3) == 0 ? mutate(body) : body;
        }

        private <T> T pick(List<T> list) {
            return list.get(random.nextInt(list.size()));
        }
    }

    /**
     * Statements built from the dialect's grammar (docs/language.md): reads over every kind of relation and
     * time clause, expressions of every form with the dialect's functions and types, writes of every kind
     * including system versioning, and DDL on tables of its own; literals lean to the edges (infinities,
     * impossible dates, overflowing numbers, empty and non-ASCII text). {@link #mutated} then drops,
     * repeats or swaps whole tokens, so most mutants still reach the analyzer rather than stop in the parser.
     */
    private static final class Grammar {
        private static final List<String> FUNCTIONS = List.of("lower", "upper", "length", "substring", "position",
                "trim", "replace", "left", "right", "concat", "split_part", "lpad", "rpad", "starts_with", "abs", "round",
                "trunc", "ceil", "floor", "mod", "power", "sqrt", "sign", "ln", "log", "exp", "coalesce", "nullif",
                "greatest", "least", "now", "date_trunc", "date_part", "make_date", "make_timestamp", "age", "to_char",
                "jsonb_array_length", "jsonb_typeof", "jsonb_build_object", "nosuchfn");
        private static final List<String> AGGREGATES = List.of("count", "sum", "min", "max", "avg", "bool_and",
                "string_agg", "array_agg", "stddev", "variance", "jsonb_agg");
        private static final List<String> TYPES = List.of("INT", "BIGINT", "SMALLINT", "NUMERIC(5,2)", "NUMERIC",
                "REAL", "DOUBLE PRECISION", "BOOLEAN", "TEXT", "VARCHAR(3)", "DATE", "TIMESTAMP", "TIMESTAMP(3)",
                "TIMESTAMPTZ", "UUID", "JSONB");
        private static final List<String> TIMES = List.of("'infinity'", "'-infinity'", "'2026-01-01'",
                "'2026-02-30'", "'1970-01-01 00:00:00'", "'294277-01-01'", "'4714-11-24 BC'", "'epoch'", "'now'",
                "'2038-01-19 03:14:08'", "TIMESTAMP '2026-01-01 00:00:00'", "now()", "?", "NULL", "'x'", "1");
        private static final List<String> OPERATORS = List.of("+", "-", "*", "/", "%", "||", "=", "<>", "<", ">=",
                "AND", "OR", "LIKE", "->>", "->");

        private final Random random;
        private final String items;
        private final String log;
        final String stock;
        private final String fresh;
        private int depth;

        Grammar(Random random, String items, String log, String stock, String fresh) {
            this.random = random;
            this.items = items;
            this.log = log;
            this.stock = stock;
            this.fresh = fresh;
        }

        String script() {
            StringBuilder b = new StringBuilder(statement());
            while (random.nextInt(4) == 0) {
                b.append("; ").append(statement());
            }
            return b.toString();
        }

        String statement() {
            depth = 0;
            return switch (random.nextInt(14)) {
                case 0, 1, 2, 3, 4 -> select();
                case 5 -> "UPSERT INTO " + items + " (id, name, qty, ix) VALUES (" + expr() + ", " + expr() + ", "
                        + expr() + ", " + expr() + ")";
                case 6 -> "INSERT INTO " + stock + pick("", " (article, qte)", " (article, qte, label)", " (row_start)")
                        + " VALUES (" + expr() + ", " + expr() + (random.nextBoolean() ? ", " + expr() : "") + ")";
                case 7 -> "UPDATE " + pick(stock, items) + " SET " + pick("qte", "name", "ix", "label", "row_end")
                        + " = " + expr() + " WHERE " + condition();
                case 8 -> "DELETE FROM " + pick(stock, log, items) + " WHERE " + condition()
                        + (random.nextBoolean() ? " AT (ix = " + expr() + ")" : "");
                case 9 -> "DELETE HISTORY FROM " + pick(stock, items, log) + pick("", " BEFORE SYSTEM_TIME " + time(),
                        " BEFORE COMMIT " + expr());
                case 10 -> "INSERT INTO " + log + " " + select();
                case 11 -> "CREATE TABLE " + pick("IF NOT EXISTS ", "") + fresh + " (k " + type() + pick(" PRIMARY KEY",
                        "") + ", v " + type() + pick(" NOT NULL", " DEFAULT " + literal(), "") + ")"
                        + pick("", " VERSIONED", " APPEND", " UPSERT", " WITH SYSTEM VERSIONING", " VERSIONED VALID BY (k)");
                case 12 -> pick("DROP TABLE IF EXISTS " + fresh, "ALTER TABLE " + fresh + " ADD COLUMN c " + type(),
                        "ALTER TABLE " + fresh + pick(" ADD", " DROP") + " SYSTEM VERSIONING", "DESCRIBE " + pick(stock, fresh),
                        "SHOW CREATE TABLE " + stock, "CREATE VIEW " + fresh + "_v AS " + select(),
                        "DROP VIEW IF EXISTS " + fresh + "_v", "ALTER TABLE " + fresh + " SET HISTORY RETENTION "
                                + pick("1 COMMITS", "'1 day'", "0 COMMITS", "'-1 day'"));
                default -> "SELECT " + expr() + ", " + expr();
            };
        }

        String select() {
            StringBuilder b = new StringBuilder("SELECT ").append(pick("", "DISTINCT "));
            String[] relation = relation();
            boolean grouped = random.nextInt(3) == 0;
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                b.append(i == 0 ? "" : ", ").append(grouped && i == 0 ? aggregate() : expr(relation[1]));
            }
            b.append(" FROM ").append(relation[0]);
            if (random.nextInt(4) == 0) {
                String[] other = relation();
                b.append(pick(" JOIN ", " LEFT JOIN ", " CROSS JOIN ")).append(other[0]);
                if (!b.toString().endsWith("CROSS JOIN " + other[0])) {
                    b.append(" ON ").append(expr(relation[1])).append(" = ").append(expr(other[1]));
                }
            }
            if (random.nextBoolean()) {
                b.append(" WHERE ").append(condition(relation[1]));
            }
            if (grouped) {
                b.append(" GROUP BY ").append(pick("1", "2", expr(relation[1])));
            }
            if (random.nextInt(3) == 0) {
                b.append(" ORDER BY ").append(pick("1", "2 DESC", expr(relation[1])));
            }
            if (random.nextInt(3) == 0) {
                b.append(" LIMIT ").append(pick("0", "1", "-1", "?", "99999999999999999999", expr()));
            }
            if (random.nextInt(8) == 0) {
                b.append(" OFFSET ").append(pick("1", "-5", "?"));
            }
            if (random.nextInt(10) == 0) {
                b.append(pick(" UNION ", " UNION ALL ", " EXCEPT ", " INTERSECT ")).append("SELECT ").append(expr())
                        .append(random.nextBoolean() ? ", " + expr() : "");
            }
            if (random.nextInt(12) == 0) {
                b.append(" AS OF COMMIT ").append(pick("1", "0", "-1", "?", "999999999999"));
            }
            return b.toString();
        }

        /** A relation with an alias, and the column names it offers. */
        private String[] relation() {
            return switch (random.nextInt(9)) {
                case 0 -> new String[] {items + pick("", " AS OF COMMIT 1", " AS OF COMMIT ?", " AS OF TIMESTAMP " + time(),
                        " FOR SYSTEM_TIME AS OF " + time()) + " r", "id name qty price seen tags ix"};
                case 1 -> new String[] {pick("history(", "changes(") + items + ") h", "id name ix _commit _deleted"};
                case 2 -> new String[] {log + " l", "at note ok"};
                case 3, 4 -> new String[] {stock + pick("", " FOR SYSTEM_TIME ALL", " FOR SYSTEM_TIME AS OF " + time(),
                        " FOR SYSTEM_TIME FROM " + time() + " TO " + time(), " FOR SYSTEM_TIME BETWEEN " + time() + " AND "
                                + time(), " FOR SYSTEM_TIME AS OF TRANSACTION 1") + " s", "article qte label row_start row_end"};
                case 5 -> new String[] {"(" + select() + ") d", "d.x x"};
                case 6 -> new String[] {pick("history(", "changes(") + stock + ") c", "article qte"};
                case 7 -> new String[] {fresh + " f", "k v c"};
                default -> new String[] {items + " i", "id name qty price seen tags ix"};
            };
        }

        private String condition() {
            return condition("id article qte name ix at");
        }

        private String condition(String columns) {
            return switch (random.nextInt(6)) {
                case 0 -> expr(columns) + pick(" IS NULL", " IS NOT NULL");
                case 1 -> expr(columns) + " BETWEEN " + expr() + " AND " + expr();
                case 2 -> expr(columns) + pick(" IN ", " NOT IN ") + "(" + expr() + ", " + expr() + ")";
                case 3 -> pick("EXISTS ", "NOT EXISTS ") + "(" + select() + ")";
                case 4 -> expr(columns) + pick(" IN ", " = ") + "(" + select() + ")";
                default -> expr(columns) + " " + pick("=", "<", ">", "<>", "LIKE") + " " + expr(columns);
            };
        }

        private String expr() {
            return expr("id qty article");
        }

        private String expr(String columns) {
            if (++depth > 12) {
                return literal();
            }
            return switch (random.nextInt(12)) {
                case 0, 1, 2 -> literal();
                case 3, 4 -> pick(columns.split(" "));
                case 5 -> expr(columns) + " " + pick(OPERATORS.toArray(String[]::new)) + " " + expr(columns);
                case 6 -> {
                    String f = pick(FUNCTIONS.toArray(String[]::new));
                    StringBuilder b = new StringBuilder(f).append('(');
                    for (int i = 0, n = random.nextInt(4); i < n; i++) {
                        b.append(i == 0 ? "" : ", ").append(i > 0 && random.nextInt(3) == 0 ? time() : expr(columns));
                    }
                    yield b.append(')').toString();
                }
                case 7 -> "CAST(" + expr(columns) + " AS " + type() + ")";
                case 8 -> "CASE WHEN " + condition(columns) + " THEN " + expr(columns) + " ELSE " + expr(columns) + " END";
                case 9 -> "(" + select() + ")";
                case 10 -> pick("-", "NOT ", "") + "(" + expr(columns) + ")";
                default -> expr(columns) + "::" + type();
            };
        }

        private String aggregate() {
            String f = pick(AGGREGATES.toArray(String[]::new));
            return f + "(" + (f.equals("count") && random.nextBoolean() ? "*" : pick("", "DISTINCT ") + expr()
                    + (f.equals("string_agg") ? ", ','" : "")) + ")";
        }

        private String literal() {
            return switch (random.nextInt(8)) {
                case 0 -> integer();
                case 1 -> pick("1.5", "-0.0", "1e308", "1e-400", "99999999999999999999999999999999999999.9", "'NaN'",
                        "'Infinity'");
                case 2 -> pick("''", "'x'", "'it''s'", "'\u00e9\u4e2d'", "'\\'", "'{\"k\": [1, {}]}'", "'{'",
                        "'00000000-0000-0000-0000-000000000000'");
                case 3 -> time();
                case 4 -> pick("TRUE", "FALSE", "NULL", "?", "?");
                case 5 -> pick("DATE '2026-01-01'", "DATE '2026-13-01'", "INTERVAL '1 day'", "TIMESTAMP 'infinity'",
                        "CURRENT_DATE", "CURRENT_TIMESTAMP");
                default -> String.valueOf(random.nextInt(10));
            };
        }

        String integer() {
            return pick("0", "1", "-1", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
                    "9223372036854775808", String.valueOf(random.nextInt(100)));
        }

        private String time() {
            return pick(TIMES.toArray(String[]::new));
        }

        private String type() {
            return pick(TYPES.toArray(String[]::new));
        }

        /** Whole-token edits: drop one, repeat one, swap two, or put a keyword in. */
        String mutated(String text) {
            List<String> tokens = new ArrayList<>(List.of(text.split(" ")));
            for (int i = 0, n = 1 + random.nextInt(3); i < n && !tokens.isEmpty(); i++) {
                int at = random.nextInt(tokens.size());
                switch (random.nextInt(4)) {
                    case 0 -> tokens.remove(at);
                    case 1 -> tokens.add(at, tokens.get(at));
                    case 2 -> Collections.swap(tokens, at, random.nextInt(tokens.size()));
                    default -> tokens.add(at, pick("SELECT", "FROM", "WHERE", "(", ")", ",", "AS OF COMMIT 1",
                            "FOR SYSTEM_TIME ALL", "NULL", "?", "'infinity'", "GROUP BY 1", "UNION", "AT (ix = 1)"));
                }
            }
            return String.join(" ", tokens);
        }

        @SafeVarargs
        private <T> T pick(T... options) {
            return options[random.nextInt(options.length)];
        }
    }
}
