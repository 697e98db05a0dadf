package io.verso.error;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * A refusal as every HTTP surface answers it, an RFC 9457 {@code application/problem+json}: the one place its
 * fields are chosen and written, whoever refuses (a controller through {@code api.rest.ProblemAdvice}, a filter,
 * the container), so the same mistake reads the same wherever it is caught. GraphQL puts the same code, position
 * and pointer in an error's extensions ({@code api.graphql.GraphqlErrors}).
 *
 * @param status    the HTTP status: the code's own, or the framework's for a refusal it made ({@link #ofStatus})
 * @param detail    what was wrong, in words the caller can act on
 * @param instance  the path asked for, or null
 * @param line      for statement text, the 1-based line of the error; 0 when not located in text
 * @param column    for statement text, the 1-based column; 0 when not located in text
 * @param pointer   the offending input (a JSON pointer into the body, a parameter's name), or null
 * @param requestId the request's id (also its X-Request-Id header), or null
 */
public record Problem(int status, ErrorCode code, String detail, String instance, int line, int column,
                      String pointer, String requestId) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** {@code ops.RequestIdFilter.MDC_KEY}: ops sits above every package that refuses a request. */
    private static final String REQUEST_ID = "requestId";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public static Problem of(VersoException e) {
        if (e instanceof VersoException.UserError user) {
            return new Problem(e.code().status(), e.code(), e.getMessage(), null, user.line(), user.column(),
                    user.pointer(), currentRequestId());
        }
        return of(e.code(), e.getMessage());
    }

    public static Problem of(ErrorCode code, String detail) {
        return of(code, detail, null);
    }

    public static Problem of(ErrorCode code, String detail, String pointer) {
        return new Problem(code.status(), code, detail, null, 0, 0, pointer, currentRequestId());
    }

    /** A refusal of the framework or the container, which give a status and words but no code of ours. */
    public static Problem ofStatus(int status, String detail, String pointer) {
        ErrorCode code = switch (status) {
            case 401 -> ErrorCode.UNAUTHENTICATED;
            case 403 -> ErrorCode.FORBIDDEN;
            case 404 -> ErrorCode.NOT_FOUND;
            case 405 -> ErrorCode.METHOD_NOT_ALLOWED;
            case 406 -> ErrorCode.NOT_ACCEPTABLE;
            case 413 -> ErrorCode.PAYLOAD_TOO_LARGE;
            case 415 -> ErrorCode.UNSUPPORTED_MEDIA_TYPE;
            // What the container answers 503 for is the database gone (the pool found no connection).
            case 503 -> ErrorCode.DATABASE_UNAVAILABLE;
            default -> status >= 500 ? ErrorCode.INTERNAL_ERROR : ErrorCode.INVALID_REQUEST;
        };
        return new Problem(status, code, detail, null, 0, 0, pointer, currentRequestId());
    }

    /** A body over verso.max-request-bytes, whichever filter reads it first. */
    public static Problem tooLarge(long maxBytes) {
        return of(ErrorCode.PAYLOAD_TOO_LARGE, "the request body is larger than " + maxBytes + " bytes", "/");
    }

    /** A 405: the method refused, where, and the methods the Allow header names. */
    public static Problem notAllowed(String method, String path, String allow) {
        return of(ErrorCode.METHOD_NOT_ALLOWED, method + " is not allowed on " + path
                + (allow == null || allow.isBlank() ? ""
                : "; it takes " + String.join(" or ", allow.strip().split("\\s*,\\s*")) + " (the Allow header)"));
    }

    /**
     * A 415: the Content-Type sent (bounded: it is echoed, and Jackson escapes it) and what to send instead, the
     * types the endpoint reads.
     */
    public static Problem unsupportedMediaType(String sent, String accepted) {
        String type = sent == null || sent.isBlank() ? "no Content-Type"
                : "Content-Type '" + (sent.length() > 100 ? sent.substring(0, 100) + "…" : sent) + "'";
        return of(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "this endpoint does not read a body of " + type + ": send "
                + (accepted == null || accepted.isBlank() ? "application/json" : accepted));
    }

    public Problem at(String instance) {
        return new Problem(status, code, detail, instance, line, column, pointer, requestId);
    }

    public Problem withRequestId(String requestId) {
        return new Problem(status, code, detail, instance, line, column, pointer, requestId);
    }

    /** The page of its code, the same for every surface that renders it. */
    public URI type() {
        return URI.create("https://verso.dev/problems/" + code.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    /** Its code in words. */
    public String title() {
        String words = code.name().replace('_', ' ').toLowerCase(Locale.ROOT);
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }

    /** The problem's JSON, absent members left out. */
    public byte[] json() {
        // The order Spring's ProblemDetail came out in when controllers rendered it (its own members sorted, then
        // ours): most answers read as they did.
        Map<String, Object> body = new LinkedHashMap<>();
        put(body, "detail", detail);
        put(body, "instance", instance);
        body.put("status", status);
        body.put("title", title());
        body.put("type", type().toString());
        body.put("code", code.name());
        put(body, "requestId", requestId);
        if (line > 0) {
            body.put("line", line);
            body.put("column", column);
        }
        put(body, "pointer", pointer);
        return JSON.writeValueAsBytes(body);
    }

    /**
     * Answers {@code request} with this problem, at the path it asked for (the original one on an error
     * dispatch); nothing when the response has already started.
     */
    public void write(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        Object original = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        byte[] body = (instance != null ? this : at(original != null ? original.toString() : request.getRequestURI()))
                .json();
        response.setStatus(status);
        response.setContentType(MEDIA_TYPE);
        response.setCharacterEncoding("UTF-8");
        response.getOutputStream().write(body);
    }

    private static void put(Map<String, Object> body, String name, Object value) {
        if (value != null) {
            body.put(name, value);
        }
    }

    private static String currentRequestId() {
        return org.slf4j.MDC.get(REQUEST_ID);
    }
}
