package io.verso.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The service over HTTP, as a client sees it: REST, the statement endpoint and GraphQL. Request
 * bodies are written by hand and responses are read as bytes, so the client spends little of the
 * machine's two cores; only what the benchmark needs (commit numbers, sizes) is picked out.
 */
final class VersoClient {

    static final String CREATE = "CREATE TABLE %s (chain_id BIGINT, address TEXT, token TEXT, amount NUMERIC(38,0),"
            + " updated_at TIMESTAMP(3), balance_index BIGINT, balance_version BIGINT, label TEXT, label_seq BIGINT,"
            + " PRIMARY KEY (chain_id, address, token),"
            + " ATTRIBUTE GROUP meta (label, label_seq) VALID BY (label_seq))"
            + " VERSIONED VALID BY (balance_index) REVISION BY (balance_version)";

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    /** The read scenarios' GETs: as lean a client as the baselines' JDBC drivers (see KeepAliveHttp). */
    private final KeepAliveHttp reads;

    VersoClient(String base) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.reads = new KeepAliveHttp(this.base, apiKey());
    }

    String base() {
        return base;
    }

    /**
     * A request carrying the API key of VERSO_API_KEY (or the system property verso.security.admin-api-key,
     * set by the tests' shared context), for a service with security on.
     */
    static HttpRequest.Builder request(URI uri) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri);
        String key = apiKey();
        return key == null || key.isEmpty() ? builder : builder.header("X-API-Key", key);
    }

    private static String apiKey() {
        return System.getenv("VERSO_API_KEY") != null ? System.getenv("VERSO_API_KEY")
                : System.getProperty("verso.security.admin-api-key");
    }

    void create(String table) throws IOException, InterruptedException {
        sql("DROP TABLE IF EXISTS " + table, "");
        sql(String.format(CREATE, table), "");
    }

    /** POST /v1/sql; the response body. */
    String sql(String text, String paramsJson) throws IOException, InterruptedException {
        StringBuilder body = new StringBuilder(text.length() + paramsJson.length() + 32);
        body.append("{\"sql\":");
        Json.string(body, text);
        body.append(",\"params\":[").append(paramsJson).append("]}");
        return post("/v1/sql", body.toString());
    }

    // ---- writes: one batch, one commit; each returns the commit it made ----------------------------

    long writeRest(String table, Workload w, int[] batch) throws IOException, InterruptedException {
        StringBuilder b = new StringBuilder(batch.length * 200);
        b.append("{\"rows\":[");
        for (int i = 0; i < batch.length; i++) {
            b.append(i == 0 ? "{" : ",{");
            members(b, w, batch[i]);
            b.append('}');
        }
        b.append("]}");
        return commit(post("/v1/tables/" + table + "/rows", b.toString()));
    }

    long writeSql(String table, Workload w, int[] batch) throws IOException, InterruptedException {
        return writeSql(table, w, batch, false);
    }

    /** The batch through {@code UPSERT … VALUES}; with {@code everyGroup}, each write also carries its meta group. */
    long writeSql(String table, Workload w, int[] batch, boolean everyGroup) throws IOException, InterruptedException {
        StringBuilder text = new StringBuilder(batch.length * 30 + 128);
        text.append("UPSERT INTO ").append(table).append(" (").append(String.join(", ", Workload.COLUMNS))
                .append(everyGroup ? ", label, label_seq" : "").append(") VALUES ");
        String row = everyGroup ? "(?, ?, ?, ?, ?, ?, ?, ?, ?)" : "(?, ?, ?, ?, ?, ?, ?)";
        StringBuilder params = new StringBuilder(batch.length * 170);
        for (int i = 0; i < batch.length; i++) {
            text.append(i == 0 ? "" : ", ").append(row);
            params.append(i == 0 ? "" : ",");
            values(params, w, batch[i]);
            if (everyGroup) {
                int v = w.version(batch[i]);
                int seq = w.labelSeq(w.key(batch[i]), v);
                params.append(",\"").append(Workload.label(v, seq)).append("\",").append(seq);
            }
        }
        return commit(sql(text.toString(), params.toString()));
    }

    /** The most statements one request may hold (verso.max-statements, its default). */
    static final int MAX_STATEMENTS = 100;

    /**
     * UPDATE statements by full key, one per write, {@link #MAX_STATEMENTS} to a request (so one commit per
     * hundred writes); returns the last commit.
     */
    long updateSql(String table, Workload w, int[] batch) throws IOException, InterruptedException {
        String one = "UPDATE " + table + " SET amount = ?, updated_at = ?, balance_index = ?, balance_version = ?"
                + " WHERE chain_id = ? AND address = ? AND token = ?;";
        long commit = 0;
        for (int from = 0; from < batch.length; from += MAX_STATEMENTS) {
            StringBuilder text = new StringBuilder(MAX_STATEMENTS * (one.length() + 1));
            StringBuilder params = new StringBuilder(MAX_STATEMENTS * 150);
            for (int i = from; i < Math.min(batch.length, from + MAX_STATEMENTS); i++) {
                int key = w.key(batch[i]);
                int v = w.version(batch[i]);
                text.append(one).append(' ');
                params.append(i == from ? "\"" : ",\"").append(w.amount(key, v)).append("\",\"")
                        .append(Workload.updatedAt(v)).append("\",").append(Workload.balanceIndex(v)).append(',')
                        .append(Workload.balanceVersion(v)).append(',').append(Workload.chainId(key)).append(",\"")
                        .append(w.address(key)).append("\",\"").append(Workload.token(key)).append('"');
            }
            commit = commit(sql(text.toString(), params.toString()));
        }
        return commit;
    }

    long writeGraphql(String table, Workload w, int[] batch) throws IOException, InterruptedException {
        StringBuilder b = new StringBuilder(batch.length * 200);
        b.append("{\"query\":\"mutation W($rows: [").append(table).append("_input!]!) { upsert_").append(table)
                .append("(rows: $rows) { commit versions current lost } }\",\"variables\":{\"rows\":[");
        for (int i = 0; i < batch.length; i++) {
            b.append(i == 0 ? "{" : ",{");
            members(b, w, batch[i]);
            b.append('}');
        }
        b.append("]}}");
        String response = post("/graphql", b.toString());
        if (response.contains("\"errors\"")) {
            throw new IOException("GraphQL errors: " + abbreviate(response));
        }
        return commit(response);
    }

    /** A write as JSON members; BIGINT and NUMERIC as strings, their JSON form on every surface. */
    private static void members(StringBuilder b, Workload w, int write) {
        int key = w.key(write);
        int v = w.version(write);
        b.append("\"chain_id\":\"").append(Workload.chainId(key))
                .append("\",\"address\":\"").append(w.address(key))
                .append("\",\"token\":\"").append(Workload.token(key))
                .append("\",\"amount\":\"").append(w.amount(key, v))
                .append("\",\"updated_at\":\"").append(Workload.updatedAt(v))
                .append("\",\"balance_index\":\"").append(Workload.balanceIndex(v))
                .append("\",\"balance_version\":\"").append(Workload.balanceVersion(v)).append('"');
    }

    private static void values(StringBuilder b, Workload w, int write) {
        int key = w.key(write);
        int v = w.version(write);
        b.append(Workload.chainId(key)).append(",\"").append(w.address(key)).append("\",\"")
                .append(Workload.token(key)).append("\",\"").append(w.amount(key, v)).append("\",\"")
                .append(Workload.updatedAt(v)).append("\",").append(Workload.balanceIndex(v)).append(',')
                .append(Workload.balanceVersion(v));
    }

    // ---- reads: each returns the bytes of the response ---------------------------------------------

    long row(String table, Workload w, int key, Long asOf) throws IOException, InterruptedException {
        return get("/v1/tables/" + table + "/row?" + keyQuery(w, key) + (asOf == null ? "" : "&asOfCommit=" + asOf),
                true);
    }

    long history(String table, Workload w, int key) throws IOException, InterruptedException {
        return get("/v1/tables/" + table + "/history?" + keyQuery(w, key), false);
    }

    long diff(String table, long from, long to) throws IOException, InterruptedException {
        return get("/v1/tables/" + table + "/diff?from=" + from + "&to=" + to, false);
    }

    /** SELECT * of the table (or its rows on one chain), now or as of a commit, through /v1/sql. */
    long select(String table, Long chain, Long asOf) throws IOException, InterruptedException {
        String text = "SELECT * FROM " + table + (chain == null ? "" : " WHERE chain_id = " + chain)
                + (asOf == null ? "" : " AS OF COMMIT " + asOf);
        return sql(text, "").length();
    }

    private static String keyQuery(Workload w, int key) {
        return "key=" + Workload.chainId(key) + "&key=" + URLEncoder.encode(w.address(key), StandardCharsets.UTF_8)
                + "&key=" + Workload.token(key);
    }

    /** The current amount of a key, for the cross-check of final states. */
    String currentAmount(String table, Workload w, int key) throws IOException, InterruptedException {
        return current(table, "amount", w, key);
    }

    /** One column of a key's current row, as the first string of the answer (null when the key is absent). */
    String current(String table, String column, Workload w, int key) throws IOException, InterruptedException {
        String text = "SELECT " + column + " FROM " + table + " WHERE chain_id = ? AND address = ? AND token = ?";
        String body = sql(text, Workload.chainId(key) + ",\"" + w.address(key) + "\",\"" + Workload.token(key) + "\"");
        int at = body.indexOf("\"rows\":[[\"");
        return at < 0 ? null : body.substring(at + 10, body.indexOf('"', at + 10));
    }

    long latestCommit() throws IOException, InterruptedException {
        return commit(send(request(URI.create(base + "/v1/commits/latest")).GET().build()));
    }

    /** A metric's value from the actuator, or null when the service does not have it. */
    Double metric(String name, String tag) {
        try {
            HttpResponse<String> r = http.send(request(URI.create(base + "/actuator/metrics/" + name
                    + (tag == null ? "" : "?tag=" + tag))).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return null;
            }
            String body = r.body();
            int at = body.indexOf("\"value\":");
            if (at < 0) {
                return null;
            }
            int end = at + 8;
            while (end < body.length() && "0123456789.E-+".indexOf(body.charAt(end)) >= 0) {
                end++;
            }
            return Double.valueOf(body.substring(at + 8, end));
        } catch (IOException | InterruptedException | RuntimeException e) {
            return null;
        }
    }

    // ---- plumbing ----------------------------------------------------------------------------------

    private String post(String path, String json) throws IOException, InterruptedException {
        return send(request(URI.create(base + path)).timeout(Duration.ofMinutes(5))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private String send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200 && r.statusCode() != 201) {
            throw new IOException(request.method() + " " + request.uri().getPath() + ": " + r.statusCode() + " "
                    + abbreviate(r.body()));
        }
        return r.body();
    }

    /** GET, the body drained and counted; a 404 (a key not yet written at that commit) counts as a read. */
    private long get(String path, boolean notFoundIsAnswer) throws IOException {
        KeepAliveHttp.Answer answer = reads.get(path);
        if (answer.status() != 200 && !(notFoundIsAnswer && answer.status() == 404)) {
            throw new IOException("GET " + path + ": " + answer.status());
        }
        return answer.bytes();
    }

    /** The first {@code "commit":"n"} of a response. */
    private static long commit(String body) throws IOException {
        int at = body.indexOf("\"commit\":\"");
        if (at < 0) {
            throw new IOException("no commit in " + abbreviate(body));
        }
        return Long.parseLong(body.substring(at + 10, body.indexOf('"', at + 10)));
    }

    static String abbreviate(String s) {
        return s.length() > 500 ? s.substring(0, 500) + "…" : s;
    }
}
