package io.verso.api.rest;

import io.verso.config.VersoProperties;
import io.verso.error.Problem;
import io.verso.security.BodyRequest;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies over {@code verso.max-request-bytes} with a 413 problem before anything
 * is parsed, whether the size is announced (Content-Length) or the body is chunked.
 */
/* Before OneKeyReadFilter, the last filter, which answers one-key reads itself. */
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 1)
class RequestSizeFilter extends OncePerRequestFilter {

    private final long maxBytes;

    RequestSizeFilter(VersoProperties properties) {
        this.maxBytes = properties.maxRequestBytes();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            reject(request, response);
            return;
        }
        if (request.getContentLengthLong() < 0 && hasBody(request)) {
            byte[] body = BodyRequest.read(request, maxBytes);
            if (body == null) {
                reject(request, response);
                return;
            }
            chain.doFilter(BodyRequest.with(request, body), response);
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean hasBody(HttpServletRequest request) {
        String method = request.getMethod();
        return "POST".equals(method) || "PUT".equals(method) || "PATCH".equals(method);
    }

    private void reject(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("Connection", "close");
        Problem.tooLarge(maxBytes).write(request, response);
    }
}
