package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What the web container and the transports below the controllers answer: a problem in plain words
 * (which method, which header, which endpoint), with the request's id; and a caught-up change stream
 * that sends its headers at once. Requests go over a raw socket, so nothing repairs them on the way.
 */
class ContainerProblemsTests extends IntegrationTest {

    /** A response read off the socket: status, headers (lower-cased names) and body. */
    record Raw(int status, Map<String, String> headers, String body) {
        JsonNode json() {
            return SqlClient.JSON.readTree(body);
        }
    }

    private Raw raw(String method, String target, List<byte[]> extraHeaders, String body) throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            head.write((method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            for (byte[] header : extraHeaders) {
                head.write(header);
                head.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            }
            byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            if (body != null) {
                head.write("Content-Type: application/json\r\n".getBytes(StandardCharsets.ISO_8859_1));
            }
            head.write(("Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(head.toByteArray());
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int split = response.indexOf("\r\n\r\n");
            List<String> lines = response.substring(0, split).lines().toList();
            Map<String, String> headers = new java.util.HashMap<>();
            for (String line : lines.subList(1, lines.size())) {
                int colon = line.indexOf(':');
                headers.put(line.substring(0, colon).toLowerCase(), line.substring(colon + 1).strip());
            }
            String text = response.substring(split + 4);
            return new Raw(Integer.parseInt(lines.get(0).substring(9, 12)), headers,
                    "chunked".equalsIgnoreCase(headers.get("transfer-encoding")) ? dechunked(text) : text);
        }
    }

    private static String dechunked(String body) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (true) {
            int eol = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, eol).strip(), 16);
            if (size == 0) {
                return out.toString();
            }
            // Sizes count bytes; the bodies here are ASCII JSON (non-ASCII would be escaped by Jackson or absent).
            out.append(body, eol + 2, eol + 2 + size);
            at = eol + 2 + size + 2;
        }
    }

    private static byte[] admin() {
        return (TestSecurity.HEADER + ": " + TestSecurity.ADMIN_KEY).getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * A problem as every surface renders it, whoever made it (a controller, Spring MVC, a filter, Tomcat): its
     * {@code type} names its code's page and its {@code title} says the code in words, and it carries the
     * request's id.
     */
    private static void carriesItsRequestId(Raw raw) {
        assertThat(raw.headers().get("content-type")).as(raw.body()).startsWith("application/problem+json");
        String code = raw.json().path("code").asString();
        assertThat(raw.json().path("type").asString()).as(raw.body())
                .isEqualTo("https://verso.dev/problems/" + code.toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        String words = code.replace('_', ' ').toLowerCase(java.util.Locale.ROOT);
        assertThat(raw.json().path("title").asString()).as(raw.body())
                .isEqualTo(Character.toUpperCase(words.charAt(0)) + words.substring(1));
        assertThat(raw.json().path("status").asInt()).isEqualTo(raw.status());
        String id = raw.json().path("requestId").asString();
        assertThat(id).as(raw.body()).isNotBlank();
        assertThat(raw.headers().get("x-request-id")).isEqualTo(id);
    }

    @Test
    void aMethodTheEndpointDoesNotTakeIsNamedWithTheMethodsItDoes() throws Exception {
        Raw raw = raw("GET", "/graphql?query=%7B__typename%7D", List.of(admin()), null);
        assertThat(raw.status()).isEqualTo(405);
        assertThat(raw.headers().get("allow")).isEqualTo("POST");
        assertThat(raw.json().path("code").asString()).isEqualTo("METHOD_NOT_ALLOWED");
        assertThat(raw.json().path("detail").asString()).isEqualTo("GET is not allowed on /graphql; it takes POST (the Allow header)");
        carriesItsRequestId(raw);
    }

    @Test
    void aMethodAControllerDoesNotTakeIsNamedToo() throws Exception {
        Raw raw = raw("DELETE", "/v1/sql", List.of(admin()), null);
        assertThat(raw.status()).isEqualTo(405);
        assertThat(raw.json().path("detail").asString()).as(raw.body()).contains("DELETE").contains("POST");
        carriesItsRequestId(raw);
    }

    /** Spring MVC's own refusals render as the service's: they used to lack a type and say "Bad Request". */
    @Test
    void aBodyOfAnotherMediaTypeOrAParameterOfAnotherTypeIsAProblemLikeAnyOther() throws Exception {
        Raw media = raw("POST", "/v1/sql", List.of(admin(), "Content-Type: text/plain".getBytes(
                StandardCharsets.ISO_8859_1)), "SELECT 1");
        assertThat(media.status()).isEqualTo(415);
        assertThat(media.json().path("code").asString()).isEqualTo("UNSUPPORTED_MEDIA_TYPE");
        // In the words the GraphQL route's 415 has (GraphqlRawHttpTests).
        assertThat(media.json().path("detail").asString()).contains("Content-Type 'text/plain", "send application/json");
        carriesItsRequestId(media);
        Raw limit = raw("GET", "/v1/commits?limit=abc", List.of(admin()), null);
        assertThat(limit.status()).isEqualTo(400);
        assertThat(limit.json().path("code").asString()).isEqualTo("INVALID_REQUEST");
        assertThat(limit.json().path("pointer").asString()).isEqualTo("limit");
        carriesItsRequestId(limit);
        Raw path = raw("GET", "/v1/no-such-resource", List.of(admin()), null);
        assertThat(path.status()).isEqualTo(404);
        carriesItsRequestId(path);
    }

    /**
     * The same refusal reads the same whichever layer makes it: a body too large for the JSON guard and for
     * the size filter, a method Tomcat refuses and one Spring MVC refuses.
     */
    @Test
    void aRefusalHasTheSameFieldsWhoeverMakesIt() throws Exception {
        String large = "x".repeat(16 * 1024 * 1024 + 1);
        Raw json = raw("POST", "/v1/sql", List.of(admin()), large);
        Raw plain = raw("POST", "/v1/sql", List.of(admin(), "Content-Type: text/plain".getBytes(
                StandardCharsets.ISO_8859_1)), large);
        assertThat(json.status()).isEqualTo(413);
        assertThat(withoutRequestId(plain)).isEqualTo(withoutRequestId(json));
        assertThat(json.json().path("pointer").asString()).isEqualTo("/");
        carriesItsRequestId(json);

        Raw tomcat = raw("GET", "/graphql?query=%7B__typename%7D", List.of(admin()), null);
        Raw mvc = raw("DELETE", "/v1/sql", List.of(admin()), null);
        assertThat(tomcat.json().propertyNames()).containsExactlyElementsOf(mvc.json().propertyNames());
        assertThat(tomcat.json().path("instance").asString()).isEqualTo("/graphql");
    }

    private static JsonNode withoutRequestId(Raw raw) {
        tools.jackson.databind.node.ObjectNode body = (tools.jackson.databind.node.ObjectNode) raw.json();
        body.remove("requestId");
        return body;
    }

    @Test
    void anApiKeyWithAControlCharacterIsRefusedNamingTheHeaderNotItsValue() throws Exception {
        byte[] key = (TestSecurity.HEADER + ": vk_secret\u007fpart").getBytes(StandardCharsets.ISO_8859_1);
        Raw raw = raw("POST", "/v1/sql", List.of(key), "{\"sql\": \"SHOW TABLES\"}");
        assertThat(raw.status()).as(raw.body()).isEqualTo(400);
        assertThat(raw.json().path("detail").asString()).contains("'" + TestSecurity.HEADER + "'");
        assertThat(raw.body()).doesNotContain("secret");
        carriesItsRequestId(raw);
    }

    @Test
    void anApiKeyOutsideAsciiIsAnUnknownKeyWithItsRequestId() throws Exception {
        byte[] key = (TestSecurity.HEADER + ": vk_cl\u00e9").getBytes(StandardCharsets.UTF_8);
        Raw raw = raw("POST", "/v1/sql", List.of(key), "{\"sql\": \"SHOW TABLES\"}");
        assertThat(raw.status()).as(raw.body()).isEqualTo(401);
        assertThat(raw.json().path("code").asString()).isEqualTo("UNAUTHENTICATED");
        assertThat(raw.body()).doesNotContain("vk_cl");
        carriesItsRequestId(raw);
    }

    @Test
    void aHeaderWithAControlCharacterIsRefusedNamingTheHeader() throws Exception {
        byte[] header = ("X-Trace: a\u0001b").getBytes(StandardCharsets.ISO_8859_1);
        Raw raw = raw("POST", "/v1/sql", List.of(admin(), header), "{\"sql\": \"SHOW TABLES\"}");
        assertThat(raw.status()).isEqualTo(400);
        assertThat(raw.json().path("code").asString()).isEqualTo("INVALID_REQUEST");
        assertThat(raw.json().path("detail").asString()).as(raw.body()).contains("'X-Trace'")
                .doesNotContain("a\u0001b");
        carriesItsRequestId(raw);
    }

    @Test
    void aSubscriptionSentAsAPlainPostIsRefusedNamingTheWebSocketEndpoint() throws Exception {
        String t = table("subscribed");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        Raw raw = raw("POST", "/graphql", List.of(admin()),
                "{\"query\": \"subscription { " + t + "_changes { commit } }\"}");
        assertThat(raw.status()).as(raw.body()).isEqualTo(400);
        assertThat(raw.json().path("code").asString()).isEqualTo("INVALID_REQUEST");
        assertThat(raw.json().path("detail").asString()).contains("/graphql-ws");
        carriesItsRequestId(raw);

        Raw named = raw("POST", "/graphql", List.of(admin()), "{\"query\": \"query Q { __typename } subscription S { "
                + t + "_changes { commit } }\", \"operationName\": \"S\"}");
        assertThat(named.status()).as(named.body()).isEqualTo(400);
        Raw query = raw("POST", "/graphql", List.of(admin()), "{\"query\": \"query Q { __typename } subscription S { "
                + t + "_changes { commit } }\", \"operationName\": \"Q\"}");
        assertThat(query.status()).as(query.body()).isEqualTo(200);
        assertThat(query.json().path("data").path("__typename").asString()).isEqualTo("Query");
    }

    @Test
    void aChangeStreamOpenedCaughtUpSendsItsHeadersAndAFirstCommentAtOnce() throws Exception {
        String t = table("caught_up");
        long commit = sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED; UPSERT INTO " + t
                + " VALUES (1, 1)");
        try (Socket socket = new Socket("localhost", port)) {
            // The heartbeat comes every 15 s: an answer within 5 s is the one sent on catching up.
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(("GET /v1/tables/" + t + "/changes?after=" + commit + " HTTP/1.1\r\n"
                    + "Host: localhost\r\nAccept: text/event-stream\r\n" + new String(admin(), StandardCharsets.ISO_8859_1)
                    + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            long started = System.nanoTime();
            List<String> lines = new ArrayList<>();
            String line;
            while ((line = in.readLine()) != null && !line.startsWith(":")) {
                lines.add(line);
            }
            assertThat(lines.get(0)).startsWith("HTTP/1.1 200");
            assertThat(lines).anyMatch(l -> l.toLowerCase().startsWith("content-type: text/event-stream"));
            assertThat(line).as("a first comment").isNotNull().startsWith(":");
            assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(5_000);
        }
    }
}
