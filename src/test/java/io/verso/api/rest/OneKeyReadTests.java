package io.verso.api.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletRequest;
import tools.jackson.databind.node.ObjectNode;

/**
 * One-key reads answered by {@link RowRead} (at the front door, or by {@link OneKeyReadFilter} for a request it
 * passed on) answer exactly as MVC's {@link RowsController} does:
 * each request is sent as is (served by the filter) and with its table name percent-encoded (which the
 * filter leaves to MVC), and the two answers must agree in status, headers and body (but for the request id
 * and the path echoed as the problem's instance).
 */
class OneKeyReadTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Autowired
    RowRead row;

    @Test
    void everyAnswerIsTheControllersOwn() throws Exception {
        String t = table("onekey");
        String secret = table("onekey_secret");
        String role = table("onekey_reader");
        sql.run("CREATE TABLE " + t + " (id BIGINT, region TEXT, name TEXT, PRIMARY KEY (id, region)) VERSIONED; "
                + "CREATE TABLE " + secret + " (id BIGINT PRIMARY KEY, v TEXT); CREATE ROLE " + role
                + "; GRANT SELECT ON TABLE " + t + " TO " + role);
        String first = commit("UPSERT INTO " + t + " VALUES (1, 'eu', 'a'), (2, 'us', 'b')");
        String second = commit("UPSERT INTO " + t + " VALUES (1, 'eu', 'c')");
        sql.run("UPSERT INTO " + secret + " VALUES (1, 's')");
        String admin = TestSecurity.HEADER + ": " + TestSecurity.ADMIN_KEY;
        String reader = "Authorization: Bearer " + TestSecurity.jwt("rita", role);
        double routedBefore = routed();

        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {t, "key=1&key=eu", admin});
        cases.add(new String[] {t, "key=1&key=eu&asOfCommit=" + first, admin});
        cases.add(new String[] {t, "key=1&key=eu&atLeastCommit=" + second, admin});
        cases.add(new String[] {t, "key=1&key=eu&asOfTime=2000-01-01T00:00:00Z", admin});
        cases.add(new String[] {t, "key=3&key=eu", admin});
        cases.add(new String[] {t, "key=1", admin});
        cases.add(new String[] {t, "key=x&key=eu", admin});
        cases.add(new String[] {t, "key=1&key=eu&asOfCommit=later", admin});
        cases.add(new String[] {t, "key=1&key=eu&asOfCommit=1&asOfTime=2000-01-01T00:00:00Z", admin});
        cases.add(new String[] {table("onekey_none"), "key=1", admin});
        cases.add(new String[] {t, "key=2&key=us", reader});
        cases.add(new String[] {secret, "key=1", reader});
        cases.add(new String[] {t, "key=1&key=eu", null});
        for (String[] c : cases) {
            HttpResponse<String> lean = get("/v1/tables/" + c[0] + "/row?" + c[1], c[2]);
            HttpResponse<String> mvc = get("/v1/tables/%" + Integer.toHexString(c[0].charAt(0)) + c[0].substring(1)
                    + "/row?" + c[1], c[2]);
            String what = c[0] + "?" + c[1] + ": " + lean.body();
            assertThat(lean.statusCode()).as(what).isEqualTo(mvc.statusCode());
            for (String header : List.of("Content-Type", "Verso-Commit", "X-Content-Type-Options", "WWW-Authenticate",
                    "ETag", "Cache-Control")) {
                assertThat(lean.headers().firstValue(header)).as(what + " " + header)
                        .isEqualTo(mvc.headers().firstValue(header));
            }
            assertThat(comparable(lean.body())).as(what).isEqualTo(comparable(mvc.body()));
        }
        assertThat(get("/v1/tables/" + t + "/row?key=1&key=eu", admin).body()).contains("\"name\":\"c\"");
        // Every case but the last (refused before any route) is counted under the route, served either way.
        assertThat(routed()).as("requests of the route in http.server.requests").isGreaterThanOrEqualTo(
                routedBefore + 2 * (cases.size() - 1));
    }

    @Test
    void onlyThePlainFormIsTaken() {
        assertThat(row.takes(withKey(new MockHttpServletRequest("GET", "/v1/tables/t/row")))).isTrue();
        for (MockHttpServletRequest other : List.of(new MockHttpServletRequest("POST", "/v1/tables/t/row"),
                new MockHttpServletRequest("GET", "/v1/tables/t/rows"), new MockHttpServletRequest("GET", "/v1/tables//row"),
                new MockHttpServletRequest("GET", "/v1/tables/%74/row"), new MockHttpServletRequest("GET", "/v1/tables/t/row/"),
                new MockHttpServletRequest("GET", "/v1/tables/a/b/row"))) {
            assertThat(row.takes(withKey(other))).as(other.getMethod() + " " + other.getRequestURI()).isFalse();
        }
        MockHttpServletRequest twice = withKey(new MockHttpServletRequest("GET", "/v1/tables/t/row"));
        twice.addParameter("asOfCommit", "1", "2");
        MockHttpServletRequest xml = withKey(new MockHttpServletRequest("GET", "/v1/tables/t/row"));
        xml.addHeader("Accept", "application/xml");
        for (MockHttpServletRequest other : List.of(new MockHttpServletRequest("GET", "/v1/tables/t/row"), twice, xml)) {
            assertThat(row.takes(other)).as(other.getParameterMap() + " " + other.getHeader("Accept")).isFalse();
        }
    }

    private static MockHttpServletRequest withKey(MockHttpServletRequest request) {
        request.addParameter("key", "1");
        return request;
    }

    private String commit(String statement) {
        return sql.run(statement).path("commit").asString();
    }

    private HttpResponse<String> get(String pathAndQuery, String header) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery));
        if (header != null) {
            int colon = header.indexOf(':');
            request.header(header.substring(0, colon), header.substring(colon + 2));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The body without what differs between any two requests (request id) or paths (instance). */
    private static String comparable(String body) {
        if (!body.startsWith("{")) {
            return body;
        }
        ObjectNode json = (ObjectNode) SqlClient.JSON.readTree(body);
        json.remove("requestId");
        json.remove("instance");
        return json.toString();
    }

    /** Requests of the one-key route counted by http.server.requests (Prometheus). */
    private double routed() throws Exception {
        String scrape = get("/actuator/prometheus", TestSecurity.HEADER + ": " + TestSecurity.ADMIN_KEY).body();
        Matcher m = Pattern.compile("(?m)^http_server_requests_seconds_count\\{(.*)} (\\S+)$").matcher(scrape);
        double sum = 0;
        while (m.find()) {
            if (m.group(1).contains("uri=\"/v1/tables/{table}/row\"")) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }
}
