package io.verso.security;

import io.verso.error.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own error pages as problem details rather than HTML: a request it refuses before any filter
 * runs (a bad escape, %00 or an invalid UTF-8 sequence in the path, a header with a character HTTP does
 * not allow, a header too large) and an empty error response of a handler (405 and 415 from the GraphQL route).
 * Each says what was wrong in words a caller can act on and carries a requestId: the one
 * {@code ops.RequestIdFilter} gave the request, else a fresh one, also sent as X-Request-Id.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    /** {@code ops.RequestIdFilter.HEADER}, which security cannot import (ops sits above it). */
    static final String REQUEST_ID = "X-Request-Id";

    /** Tomcat's refusal of a header line (httpHeaderParser.invalidHeader): the name, never the value. */
    private static final Pattern REFUSED_HEADER = Pattern.compile("^The HTTP header line \\[([!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}):");

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        String requestId = response.getHeader(REQUEST_ID);
        if (requestId == null) {
            // Refused before any filter ran; a rare path, so the shared SecureRandom costs nothing here.
            requestId = UUID.randomUUID().toString();
        }
        try {
            response.setHeader(REQUEST_ID, requestId);
            response.setContentType(Problem.MEDIA_TYPE);
            response.setCharacterEncoding("UTF-8");
            var writer = response.getReporter();
            if (writer != null) {
                writer.write(new String(problem(request, response, status, throwable).at(request.getRequestURI())
                        .withRequestId(requestId).json(), StandardCharsets.UTF_8));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The connection is gone or the response already committed: nothing more to say.
        }
    }

    private static Problem problem(Request request, Response response, int status, Throwable throwable) {
        if (status >= 500) {
            return Problem.ofStatus(status, "internal error", null);
        }
        if (status == 405) {
            return Problem.notAllowed(request.getMethod(), path(request), response.getHeader("Allow"));
        }
        if (status == 415) {
            // The same words as a 415 Spring MVC answers through api/rest/ProblemAdvice; Spring sets Accept to
            // the types the route reads.
            return Problem.unsupportedMediaType(request.getContentType(), response.getHeader("Accept"));
        }
        Matcher header = throwable == null || throwable.getMessage() == null ? null
                : REFUSED_HEADER.matcher(throwable.getMessage());
        if (header != null && header.find()) {
            return Problem.ofStatus(status, "the request header '" + header.group(1) + "' holds a character HTTP does "
                    + "not allow in a header value (a control character or a byte outside ASCII): send it as printable "
                    + "ASCII", null);
        }
        if (throwable != null && String.valueOf(throwable.getMessage()).contains("too large")) {
            return Problem.ofStatus(status, "the request line or its headers are too large", null);
        }
        return Problem.ofStatus(status, "the server refused the request (HTTP " + status + "): check the path's "
                + "escapes, that it is UTF-8 without NUL characters, and the size of the request line and headers",
                null);
    }

    /** The path as asked, bounded: it is echoed into the problem, which Jackson escapes. */
    private static String path(Request request) {
        String uri = request.getRequestURI();
        if (uri == null) {
            return "this path";
        }
        return uri.length() > 200 ? uri.substring(0, 200) + "…" : uri;
    }
}
