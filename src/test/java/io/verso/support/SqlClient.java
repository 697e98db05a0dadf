package io.verso.support;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** POST /v1/sql over real HTTP, as any client would. */
public final class SqlClient {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private final int port;

    public SqlClient(int port) {
        this.port = port;
    }

    public Response post(String sql, Object... params) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sql", sql);
        body.put("params", Arrays.asList(params));
        return postRaw(JSON.writeValueAsString(body));
    }

    public Response postRaw(String body) {
        return given().port(port).contentType("application/json").body(body).when().post("/v1/sql");
    }

    /** Runs statements that must succeed; returns the whole response. */
    public JsonNode run(String sql, Object... params) {
        Response response = post(sql, params);
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        return JSON.readTree(response.asString());
    }

    /** The commit a writing request made. */
    public long write(String sql, Object... params) {
        JsonNode result = run(sql, params);
        assertThat(result.get("commit").isNull()).as("request made a commit").isFalse();
        return Long.parseLong(result.get("commit").asString());
    }

    /** Rows of the last statement's result, each value as its JSON text form (strings unquoted). */
    public List<List<String>> rows(String sql, Object... params) {
        JsonNode results = run(sql, params).get("results");
        JsonNode last = results.get(results.size() - 1);
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode row : last.get("rows")) {
            List<String> values = new ArrayList<>();
            for (JsonNode value : row) {
                values.add(value.isNull() ? null : value.isValueNode() ? value.asString() : value.toString());
            }
            rows.add(values);
        }
        return rows;
    }

    /** Runs statements that must fail; returns the problem details after checking status and code. */
    public JsonNode fails(int status, String code, String sql, Object... params) {
        Response response = post(sql, params);
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(status);
        assertThat(response.contentType()).startsWith("application/problem+json");
        JsonNode problem = JSON.readTree(response.asString());
        assertThat(problem.path("code").asString()).as(response.asString()).isEqualTo(code);
        return problem;
    }

    public long latestCommit() {
        return Long.parseLong(run("SHOW TABLES").get("readCommit").asString());
    }
}
