package io.verso.api.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import io.verso.support.Contract;
import io.verso.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The served endpoints and openapi/verso.yaml agree: the same operations (path and method), each
 * with the same path and query parameters, the same required flags and a request body exactly
 * when the contract has one. Response bodies are checked against the contract's schemas on every
 * exchange of the other REST tests ({@link Contract}).
 */
class RestContractTests extends IntegrationTest {

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    private static OpenAPI contract() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readLocation(Contract.SPEC.toString(), null, options);
        assertThat(result.getMessages()).as("the contract parses cleanly").isEmpty();
        return result.getOpenAPI();
    }

    /** "METHOD path" to a description of its parameters, for the operations Verso serves under /v1. */
    private Map<String, String> served() {
        Map<String, String> served = new TreeMap<>();
        for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mappings.getHandlerMethods().entrySet()) {
            String owner = e.getValue().getBeanType().getPackageName();
            if (!owner.startsWith("io.verso.api.rest") && !owner.startsWith("io.verso.security")) {
                continue;
            }
            for (String path : e.getKey().getPatternValues()) {
                for (RequestMethod method : e.getKey().getMethodsCondition().getMethods()) {
                    Set<String> params = new TreeSet<>();
                    for (MethodParameter p : e.getValue().getMethodParameters()) {
                        RequestParam query = p.getParameterAnnotation(RequestParam.class);
                        PathVariable pathVariable = p.getParameterAnnotation(PathVariable.class);
                        org.springframework.web.bind.annotation.RequestHeader header =
                                p.getParameterAnnotation(org.springframework.web.bind.annotation.RequestHeader.class);
                        if (header != null) {
                            String name = header.name().isEmpty() ? p.getParameterName() : header.name();
                            params.add("header " + name + (header.required() ? " required" : ""));
                        } else if (query != null) {
                            String name = query.name().isEmpty() ? p.getParameterName() : query.name();
                            params.add("query " + name + (query.required() ? " required" : ""));
                        } else if (pathVariable != null) {
                            params.add("path " + (pathVariable.name().isEmpty() ? p.getParameterName()
                                    : pathVariable.name()) + " required");
                        } else if (p.hasParameterAnnotation(RequestBody.class)) {
                            params.add("body");
                        }
                    }
                    served.put(method.name() + " " + path, String.join(", ", params));
                }
            }
        }
        return served;
    }

    @Test
    void servedEndpointsAndContractHaveTheSameOperationsAndParameters() {
        Map<String, String> documented = new TreeMap<>();
        for (Map.Entry<String, PathItem> path : contract().getPaths().entrySet()) {
            for (Map.Entry<PathItem.HttpMethod, Operation> op : path.getValue().readOperationsMap().entrySet()) {
                Set<String> params = new TreeSet<>();
                java.util.List<Parameter> all = new java.util.ArrayList<>();
                if (path.getValue().getParameters() != null) {
                    all.addAll(path.getValue().getParameters());
                }
                if (op.getValue().getParameters() != null) {
                    all.addAll(op.getValue().getParameters());
                }
                for (Parameter p : all) {
                    params.add(p.getIn() + " " + p.getName() + (Boolean.TRUE.equals(p.getRequired()) ? " required" : ""));
                }
                if (op.getValue().getRequestBody() != null) {
                    params.add("body");
                }
                documented.put(op.getKey().name() + " " + path.getKey(), String.join(", ", params));
            }
        }
        assertThat(served()).isEqualTo(documented);
    }

    @Test
    void everyOperationHasAnIdAndDocumentsItsErrorsAsProblems() {
        OpenAPI contract = contract();
        Set<String> ids = new TreeSet<>();
        contract.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, op) -> {
            assertThat(op.getOperationId()).as(method + " " + path + " operationId").isNotBlank();
            assertThat(ids.add(op.getOperationId())).as("unique operationId " + op.getOperationId()).isTrue();
            assertThat(op.getResponses()).as(method + " " + path).containsKey("default");
            op.getResponses().forEach((status, response) -> {
                if (status.startsWith("4") || status.equals("default")) {
                    assertProblem(contract, response, method + " " + path + " " + status);
                }
            });
        }));
        assertThat(ids).contains("executeSql", "listTables", "createTable", "describeTable", "dropTable", "listRows",
                "writeRows", "deleteRows", "getRow", "getKeyHistory", "diffTable", "listCommits", "getLatestCommit",
                "getCommit");
    }

    /** Every operation that reads a body refuses one of another type with the 415 its contract documents. */
    @Test
    void aBodyOfAnotherTypeIsRefusedAsTheContractSays() {
        OpenAPI contract = contract();
        List<String> checked = new ArrayList<>();
        contract.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, op) -> {
            if (op.getRequestBody() == null) {
                return;
            }
            String where = method + " " + path;
            assertThat(op.getResponses()).as(where).containsKey("415");
            io.restassured.response.Response response = io.restassured.RestAssured.given().port(port)
                    .contentType("text/plain").body("x").when()
                    .request(method.name(), path.replaceAll("\\{[^}]+}", "contract_t"));
            assertThat(response.statusCode()).as(where).isEqualTo(415);
            assertThat(response.jsonPath().getString("code")).as(where).isEqualTo("UNSUPPORTED_MEDIA_TYPE");
            assertThat(response.jsonPath().getString("detail")).as(where).contains("'text/plain", "application/json");
            checked.add(where);
        }));
        assertThat(checked).hasSize(6);
    }

    private static void assertProblem(OpenAPI contract, ApiResponse response, String where) {
        if (response.get$ref() != null) {
            response = contract.getComponents().getResponses().get(response.get$ref().replace("#/components/responses/", ""));
        }
        assertThat(response.getContent()).as(where).containsOnlyKeys("application/problem+json");
        Schema<?> schema = response.getContent().get("application/problem+json").getSchema();
        if (schema.get$ref() != null) {
            schema = contract.getComponents().getSchemas().get(schema.get$ref().replace("#/components/schemas/", ""));
        }
        assertThat(schema.getRequired()).as(where).contains("code");
        assertThat(schema.getProperties()).as(where).containsKeys("code", "pointer", "status", "title", "detail");
    }
}
