package io.verso.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import tools.jackson.databind.JsonNode;

/** The REST resources over real HTTP through RestAssured, every exchange checked against the contract. */
public final class RestClient {

    private final int port;

    public RestClient(int port) {
        this.port = port;
    }

    public RequestSpecification request() {
        return Contract.rest(port);
    }

    public RequestSpecification json(Object body) {
        return request().contentType("application/json")
                .body(body instanceof String s ? s : SqlClient.JSON.writeValueAsString(body));
    }

    /** The body of a response that must have the given status. */
    public static JsonNode expect(Response response, int status) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(status);
        return SqlClient.JSON.readTree(response.asString());
    }

    /** The problem of a response that must fail with the given status, code and pointer. */
    public static JsonNode problem(Response response, int status, String code, String pointer) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(status);
        assertThat(response.contentType()).startsWith("application/problem+json");
        JsonNode problem = SqlClient.JSON.readTree(response.asString());
        assertThat(problem.path("code").asString()).as(response.asString()).isEqualTo(code);
        if (pointer != null) {
            assertThat(problem.path("pointer").asString()).as(response.asString()).isEqualTo(pointer);
        }
        return problem;
    }
}
