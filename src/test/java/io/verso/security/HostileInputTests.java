package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Input that used to get a 500 or an HTML page, or was stored changed: every case answers a 4xx
 * problem with a stable code, and nothing is written. Requests go over a raw socket so that nothing
 * between the test and Tomcat repairs them.
 */
class HostileInputTests extends IntegrationTest {

    record Raw(int status, String contentType, String body) {
    }

    private Raw raw(String method, String target, String contentType, byte[] body) throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: localhost\r\n"
                    + TestSecurity.HEADER + ": " + TestSecurity.ADMIN_KEY + "\r\nConnection: close\r\n");
            if (contentType != null) {
                head.append("Content-Type: ").append(contentType).append("\r\n");
            }
            head.append("Content-Length: ").append(body == null ? 0 : body.length).append("\r\n\r\n");
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(response.substring(9, 12));
            String type = response.lines().takeWhile(l -> !l.isEmpty())
                    .filter(l -> l.toLowerCase().startsWith("content-type:")).findFirst().orElse("");
            String text = response.contains("\r\n\r\n") ? response.substring(response.indexOf("\r\n\r\n") + 4) : "";
            return new Raw(status, type, text);
        }
    }

    private void refused(Raw raw, String what) {
        assertThat(raw.status()).as(what + ": " + raw.body()).isBetween(400, 499);
        assertThat(raw.contentType()).as(what + ": " + raw.body()).contains("application/problem+json");
        assertThat(raw.body()).as(what).contains("\"code\"");
    }

    private Raw postJson(String path, String json) throws Exception {
        return raw("POST", path, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    private static String sqlBody(String text, Object... params) {
        return SqlClient.JSON.writeValueAsString(Map.of("sql", text, "params", List.of(params)));
    }

    @Test
    void keysThatDoNotParseAsTheKeyTypeAre400() throws Exception {
        String t = table("items");
        sql.run("CREATE TABLE " + t + " (id INT PRIMARY KEY, v TEXT) VERSIONED; UPSERT INTO " + t + " VALUES (1, 'a')");
        for (String key : List.of("1e3", "abc", "1.5", "99999999999", "", "%ED%A0%80")) {
            refused(raw("GET", "/v1/tables/" + t + "/row?key=" + key, null, null), "key " + key);
            refused(raw("GET", "/v1/tables/" + t + "/history?key=" + key, null, null), "history key " + key);
        }
        refused(postJson("/v1/tables/" + t + "/rows/delete", "{\"keys\": [{\"id\": 1}], \"at\": \"soon\"}"),
                "at of the wrong type");
        refused(postJson("/v1/tables/" + t + "/rows/delete", "{\"keys\": [{\"id\": \"x\"}]}"), "key of the wrong type");
        assertThat(sql.rows("SELECT v FROM " + t)).containsExactly(List.of("a"));
    }

    @Test
    void loneSurrogatesInvalidUtf8AndNulAreRefusedNeverStoredChanged() throws Exception {
        String t = table("texts");
        sql.run("CREATE TABLE " + t + " (id INT PRIMARY KEY, s TEXT) VERSIONED");
        refused(postJson("/v1/sql", "{\"sql\": \"UPSERT INTO " + t + " VALUES (?, ?)\", \"params\": [1, \"a\\ud800b\"]}"),
                "lone surrogate in a parameter");
        refused(postJson("/v1/sql", "{\"sql\": \"UPSERT INTO " + t + " VALUES (2, 'a\\ud800b')\"}"),
                "lone surrogate in statement text");
        refused(postJson("/v1/sql", "{\"sql\": \"UPSERT INTO " + t + " VALUES (?, ?)\", \"params\": [3, \"a\\u0000b\"]}"),
                "NUL in a parameter");
        refused(postJson("/v1/tables/" + t + "/rows", "{\"rows\": [{\"id\": 4, \"s\": \"x\\udc00\"}]}"),
                "lone surrogate in a REST value");
        byte[] invalid = ("{\"sql\": \"UPSERT INTO " + t + " VALUES (5, 'a\u0001b')\"}").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < invalid.length; i++) {
            if (invalid[i] == 1) {
                invalid[i] = (byte) 0xC3; // a lead byte followed by 'b': not UTF-8
            }
        }
        refused(raw("POST", "/v1/sql", "application/json", invalid), "invalid UTF-8 in the body");
        refused(raw("GET", "/v1/tables/%ED%A0%80/rows", null, null), "encoded surrogate in the path");
        assertThat(sql.rows("SELECT count(*) FROM " + t)).containsExactly(List.of("0"));
    }

    @Test
    void containerAndMediaTypeErrorsAreProblems() throws Exception {
        Raw multipart = raw("POST", "/v1/sql", "multipart/form-data; boundary=x", "--x--".getBytes());
        assertThat(multipart.status()).isEqualTo(415);
        refused(multipart, "multipart");
        refused(raw("POST", "/v1/sql", "text/plain", "SELECT 1".getBytes()), "text/plain");
        Raw error = raw("GET", "/error", null, null);
        assertThat(error.status()).as(error.body()).isLessThan(500);
        for (String target : List.of("/v1/tables/%zz/rows", "/v1/tables/a%00b/rows", "/v1/" + "x".repeat(20_000))) {
            Raw answer = raw("GET", target, null, null);
            assertThat(answer.status()).as(target + answer.body()).isBetween(400, 499);
            assertThat(answer.body()).as(target).doesNotContain("<html").doesNotContain("<!doctype");
        }
    }

    @Test
    void longAndDeepExpressionsHitALimitWithACode() throws Exception {
        String t = table("chain");
        sql.run("CREATE TABLE " + t + " (id INT PRIMARY KEY) VERSIONED");
        StringBuilder or = new StringBuilder("SELECT id FROM " + t + " WHERE id = 0");
        for (int i = 1; i < 5_000; i++) {
            or.append(" OR id = ").append(i);
        }
        Raw longChain = postJson("/v1/sql", sqlBody(or.toString()));
        assertThat(longChain.status()).as(longChain.body()).isIn(200, 400);
        String deep = "SELECT " + "(".repeat(3_000) + "1" + ")".repeat(3_000);
        Raw nested = postJson("/v1/sql", sqlBody(deep));
        refused(nested, "deep nesting");
        assertThat(nested.body()).contains("NESTING_TOO_DEEP");
        StringBuilder concat = new StringBuilder("SELECT 'a'");
        for (int i = 0; i < 5_000; i++) {
            concat.append(" || 'a'");
        }
        Raw concatenated = postJson("/v1/sql", sqlBody(concat.toString()));
        assertThat(concatenated.status()).as(concatenated.body()).isIn(200, 400);
    }
}
