package io.verso.api.rest;

import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import io.verso.replica.ClientCommit;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Read-your-writes across instances and replicas: a request's {@code Verso-Min-Commit} header (the
 * latest commit its caller has seen) is what its current reads must see, wherever they run; every
 * response that made or read a commit carries it back in {@code Verso-Commit}, for the caller to
 * send on its next request. See docs/replicas.md.
 */
/* Before OneKeyReadFilter, the last filter, which answers one-key reads itself. */
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 1)
class CommitHeaderFilter extends OncePerRequestFilter {

    static final String MIN_COMMIT = "Verso-Min-Commit";
    static final String COMMIT = "Verso-Commit";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader(MIN_COMMIT);
        long minCommit = -1;
        if (header != null && !header.isBlank()) {
            try {
                minCommit = Long.parseLong(header.trim());
            } catch (NumberFormatException e) {
                minCommit = -2;
            }
            if (minCommit < 0) {
                Problem.of(ErrorCode.INVALID_REQUEST, "header " + MIN_COMMIT
                        + " must be a commit sequence (a non-negative integer), not '" + header + "'")
                        .write(request, response);
                return;
            }
        }
        ClientCommit.begin(minCommit);
        try {
            chain.doFilter(request, new Stamped(response));
        } finally {
            ClientCommit.end();
        }
    }

    /** Adds Verso-Commit just before the body starts, when the request has made or read a commit. */
    private static final class Stamped extends HttpServletResponseWrapper {
        private boolean stamped;

        Stamped(HttpServletResponse response) {
            super(response);
        }

        private void stamp() {
            if (!stamped && !isCommitted()) {
                stamped = true;
                long seen = ClientCommit.seen();
                if (seen > 0) {
                    setHeader(COMMIT, Long.toString(seen));
                }
            }
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            stamp();
            return super.getOutputStream();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            stamp();
            return super.getWriter();
        }

        @Override
        public void flushBuffer() throws IOException {
            stamp();
            super.flushBuffer();
        }
    }
}
