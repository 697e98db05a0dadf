package io.verso.security;

import io.verso.error.ErrorCode;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Problem details written by filters, before any controller runs (refused credentials, CORS,
 * idempotency): the same fields as {@code api.rest.ProblemAdvice} renders.
 */
public final class Problems {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Problems() {
    }

    public static void write(HttpServletResponse response, ErrorCode code, String detail) throws IOException {
        write(response, code, detail, null);
    }

    public static void write(HttpServletResponse response, ErrorCode code, String detail, String pointer)
            throws IOException {
        write(response, code.status(), code.name(), detail, pointer);
    }

    /** A problem whose status and code are not (only) an {@link ErrorCode}: container errors such as 404. */
    static void writeRaw(HttpServletResponse response, int status, String code, String detail) throws IOException {
        write(response, status, code, detail, null);
    }

    private static void write(HttpServletResponse response, int status, String code, String detail, String pointer)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        // The request id io.verso.ops.RequestIdFilter put in the MDC (security sits below ops).
        byte[] body = body(status, code, detail, pointer, org.slf4j.MDC.get("requestId"));
        response.setStatus(status);
        response.setContentType("application/problem+json");
        response.setCharacterEncoding("UTF-8");
        response.getOutputStream().write(body);
    }

    /** A 405's words: the method refused, where, and the methods the Allow header names. */
    public static String notAllowed(String method, String path, String allow) {
        return method + " is not allowed on " + path + (allow == null || allow.isBlank() ? ""
                : "; it takes " + String.join(" or ", allow.strip().split("\\s*,\\s*")) + " (the Allow header)");
    }

    /** A problem's {@code type}: the page of its code, the same for every surface that renders it. */
    public static URI type(String code) {
        return URI.create("https://verso.dev/problems/" + code.toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    /** A problem's {@code title}: its code in words. */
    public static String title(String code) {
        String words = code.replace('_', ' ').toLowerCase(Locale.ROOT);
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }

    /** The problem's JSON: the fields {@code api.rest.ProblemAdvice} renders, {@code requestId} when known. */
    static byte[] body(int status, String code, String detail, String pointer, String requestId) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", type(code).toString());
        problem.put("title", title(code));
        problem.put("status", status);
        problem.put("detail", detail);
        problem.put("code", code);
        if (pointer != null) {
            problem.put("pointer", pointer);
        }
        if (requestId != null) {
            problem.put("requestId", requestId);
        }
        return JSON.writeValueAsBytes(problem);
    }
}
