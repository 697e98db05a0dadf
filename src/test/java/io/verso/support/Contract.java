package io.verso.support;

import static io.restassured.RestAssured.given;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The REST contract, openapi/verso.yaml, as a RestAssured filter: every request a test sends
 * through {@link #rest(int)} has its response checked against the contract (status, media type,
 * body schema); successful exchanges have their request checked too. A mismatch fails the test.
 */
public final class Contract {

    public static final Path SPEC = Path.of("openapi", "verso.yaml");

    private static final OpenApiInteractionValidator VALIDATOR = OpenApiInteractionValidator
            .createForSpecificationUrl(SPEC.toAbsolutePath().toUri().toString())
            .build();

    private Contract() {
    }

    /** RestAssured against the running service, every exchange checked against the contract. */
    public static RequestSpecification rest(int port) {
        return given().port(port).filter(new ContractFilter());
    }

    private static final class ContractFilter implements Filter {
        @Override
        public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification responseSpec,
                               FilterContext context) {
            Response response = context.next(request, responseSpec);
            URI uri = URI.create(request.getURI());
            Request.Method method = Request.Method.valueOf(request.getMethod().toUpperCase());
            SimpleResponse.Builder out = SimpleResponse.Builder.status(response.statusCode())
                    .withBody(response.asString());
            if (response.contentType() != null && !response.contentType().isEmpty()) {
                out.withContentType(response.contentType());
            }
            ValidationReport report;
            if (response.statusCode() < 300) {
                SimpleRequest.Builder in = new SimpleRequest.Builder(method, uri.getRawPath());
                Map<String, List<String>> query = new LinkedHashMap<>();
                if (uri.getRawQuery() != null) {
                    for (String pair : uri.getRawQuery().split("&")) {
                        int eq = pair.indexOf('=');
                        query.computeIfAbsent(decode(eq < 0 ? pair : pair.substring(0, eq)), k -> new ArrayList<>())
                                .add(eq < 0 ? "" : decode(pair.substring(eq + 1)));
                    }
                }
                query.forEach(in::withQueryParam);
                if (request.getBody() != null) {
                    in.withBody(request.getBody().toString()).withContentType("application/json");
                }
                report = VALIDATOR.validate(in.build(), out.build());
            } else {
                report = VALIDATOR.validateResponse(uri.getRawPath(), method, out.build());
            }
            if (report.hasErrors()) {
                throw new AssertionError("exchange breaks the contract " + SPEC + ": " + request.getMethod() + " "
                        + uri + " -> " + response.statusCode() + " " + response.asString() + "\n"
                        + report.getMessages().stream().map(Object::toString).collect(Collectors.joining("\n")));
            }
            return response;
        }

        private static String decode(String text) {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        }
    }
}
