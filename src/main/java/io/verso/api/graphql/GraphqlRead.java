package io.verso.api.graphql;

import graphql.ExecutionInput;
import graphql.execution.ExecutionId;
import io.verso.api.HotRead;
import io.verso.ops.RequestIdFilter;
import io.verso.security.BodyRequest;
import io.verso.security.Doorkeeper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.graphql.ExecutionGraphQlResponse;
import org.springframework.graphql.MediaTypes;
import org.springframework.graphql.execution.ContextPropagationHelper;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A GraphQL read of one row by key over HTTP ({@link OneKeyReads}), answered without the DispatcherServlet and
 * Spring GraphQL's handler, by the front door or, for a request it passed on, by {@link OneKeyGraphqlFilter}: their
 * routing, reading of the body, reactive pipeline and asynchronous response were a quarter of such a read's CPU.
 * Only the plain form is taken: {@code POST /graphql} with a JSON body (UTF-8) of at most
 * {@link OneKeyReads#MAX_TEXT_CHARS} and some (no other fields than {@code query}, {@code operationName},
 * {@code variables} and {@code extensions}, as Spring GraphQL reads them), no Accept or one naming exactly one type
 * the handler serves, no Idempotency-Key. The answer is {@link CatalogCheckedExecution#oneKeyAnswer}'s, the same as
 * the handler gets, written as the handler's converter writes it, in the content type the handler chooses. Any
 * other request, and one the shortcut does not answer, goes on to the handler with its body, as it always has.
 */
@Component
class GraphqlRead implements HotRead {

    static final String PATH = "/graphql";
    /** The request attribute of a request tried here and passed on: not to be tried again. */
    static final String TRIED = GraphqlRead.class.getName() + ".TRIED";
    private static final int MAX_BODY_BYTES = 2 * OneKeyReads.MAX_TEXT_CHARS;
    private static final String GRAPHQL_RESPONSE = MediaTypes.APPLICATION_GRAPHQL_RESPONSE.toString();
    private static final Set<String> FIELDS = Set.of("query", "operationName", "variables", "extensions");

    private final CatalogCheckedExecution execution;
    private final Doorkeeper doorkeeper;
    private final JsonMapper json;
    private final AtomicLong answered = new AtomicLong();

    GraphqlRead(CatalogCheckedExecution execution, Doorkeeper doorkeeper, JsonMapper json) {
        this.execution = execution;
        this.doorkeeper = doorkeeper;
        this.json = json;
    }

    /** Requests answered here so far: what tests check the route against. */
    long answered() {
        return answered.get();
    }

    @Override
    public String route() {
        return PATH;
    }

    @Override
    public boolean takes(HttpServletRequest request) {
        long length = request.getContentLengthLong();
        return "POST".equals(request.getMethod()) && request.getContextPath().isEmpty()
                && PATH.equals(request.getRequestURI()) && request.getAttribute(TRIED) == null
                && request.getHeader("Idempotency-Key") == null && answerType(request.getHeader("Accept")) != null
                && json(request.getContentType()) && length >= 0 && length <= MAX_BODY_BYTES;
    }

    @Override
    public HttpServletRequest answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // The bytes the input guard read already, when it did (never more than the length takes checked).
        byte[] body = BodyRequest.read(request, MAX_BODY_BYTES);
        if (body == null) {
            return request;
        }
        if (!doorkeeper.plainBody(body)) {
            return BodyRequest.with(request, body);
        }
        ExecutionInput input = input(request, body);
        ExecutionGraphQlResponse answer = input == null ? null : execution.oneKeyAnswer(input);
        if (answer == null) {
            if (input != null) {
                request.setAttribute(TRIED, Boolean.TRUE);
            }
            return BodyRequest.with(request, body);
        }
        answered.incrementAndGet();
        // What the handler's converter writes (the type without a charset, the JSON of the same mapper), made
        // without its header negotiation through a wrapper of the response: a twentieth of such a read.
        byte[] bytes = json.writeValueAsBytes(answer.toMap());
        response.setContentType(answerType(request.getHeader("Accept")).toString());
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
        response.flushBuffer();
        return null;
    }

    /**
     * The request's id (its X-Request-Id) as the execution's, which correlates the two; a random one outside a
     * request. Not {@link UUID#randomUUID()}: its one shared SecureRandom was a fortieth of a read's CPU.
     */
    private static String executionId() {
        String id = RequestIdFilter.current();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return id != null ? id : new UUID(random.nextLong(), random.nextLong()).toString();
    }

    /** Whether a body of this Content-Type is JSON in UTF-8: {@code application/json}, with that charset or none. */
    private static boolean json(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.replace(" ", "").toLowerCase(java.util.Locale.ROOT);
        return type.equals(MediaType.APPLICATION_JSON_VALUE) || type.equals("application/json;charset=utf-8");
    }

    /**
     * The type the handler answers in for this Accept: the first it names of the types the handler serves, else
     * JSON; null for an Accept that names more than one type, whose order the handler decides by quality.
     */
    private static MediaType answerType(String accept) {
        if (accept == null || accept.equals("*/*") || accept.equals(MediaType.APPLICATION_JSON_VALUE)) {
            return MediaType.APPLICATION_JSON;
        }
        return accept.equals(GRAPHQL_RESPONSE) ? MediaTypes.APPLICATION_GRAPHQL_RESPONSE : null;
    }

    /**
     * The request as graphql-java takes it, as Spring GraphQL makes it (its locale the request's, as the chain's
     * RequestContextFilter gives it), or null for a body in another form.
     */
    @SuppressWarnings("unchecked")
    private ExecutionInput input(HttpServletRequest request, byte[] body) {
        Map<String, Object> fields;
        try {
            fields = json.readValue(body, Map.class);
        } catch (JacksonException e) {
            return null;
        }
        Object query = fields.get("query");
        Object operationName = fields.get("operationName");
        Object variables = fields.get("variables");
        Object extensions = fields.get("extensions");
        if (!FIELDS.containsAll(fields.keySet()) || !(query instanceof String)
                || operationName != null && !(operationName instanceof String)
                || variables != null && !(variables instanceof Map)
                || extensions != null && !(extensions instanceof Map)) {
            return null;
        }
        ExecutionInput input = ExecutionInput.newExecutionInput()
                .query((String) query)
                .operationName((String) operationName)
                .variables(variables == null ? Map.of() : (Map<String, Object>) variables)
                .extensions(extensions == null ? Map.of() : (Map<String, Object>) extensions)
                .locale(request.getLocale())
                .executionId(ExecutionId.from(executionId()))
                .build();
        // The thread's context (the HTTP request's observation, the parent of the request's own), as the handler's.
        ContextPropagationHelper.selectInstance(null).captureAll().updateContext(input.getGraphQLContext());
        return input;
    }
}
