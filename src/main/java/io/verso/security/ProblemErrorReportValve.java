package io.verso.security;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own error pages (a request it refuses before any filter runs: a bad escape, %00 or an
 * invalid UTF-8 sequence in the path, a header too large) as problem details rather than HTML.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        String code = switch (status) {
            case 404 -> "NOT_FOUND";
            case 405 -> "METHOD_NOT_ALLOWED";
            case 413 -> "PAYLOAD_TOO_LARGE";
            case 415 -> "UNSUPPORTED_MEDIA_TYPE";
            default -> status >= 500 ? "INTERNAL_ERROR" : "INVALID_REQUEST";
        };
        String detail = status >= 500 ? "internal error"
                : "the server refused the request (HTTP " + status + "): check the path's escapes, that it is UTF-8 "
                        + "without NUL characters, and the size of the request line and headers";
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"type\":\"https://verso.dev/problems/" + code.toLowerCase(Locale.ROOT).replace('_', '-')
                        + "\",\"title\":\"" + code + "\",\"status\":" + status + ",\"detail\":\"" + detail
                        + "\",\"code\":\"" + code + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The connection is gone or the response already committed: nothing more to say.
        }
    }
}
