package io.verso.api.rest;

import io.verso.api.CommitHeaders;
import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import io.verso.engine.ClientCommit;
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
 * Read-your-writes across instances and replicas: a request's {@code Verso-Min-Commit} header (the
 * latest commit its caller has seen) is what its current reads must see, wherever they run; every
 * response that made or read a commit carries it back in {@code Verso-Commit}, for the caller to
 * send on its next request. See docs/replicas.md.
 */
/* Before OneKeyReadFilter, the last filter, which answers one-key reads itself. */
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 1)
class CommitHeaderFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long minCommit = CommitHeaders.minCommit(request);
        if (minCommit == CommitHeaders.INVALID) {
            Problem.of(ErrorCode.INVALID_REQUEST, "header " + CommitHeaders.MIN_COMMIT
                    + " must be a commit sequence (a non-negative integer), not '"
                    + request.getHeader(CommitHeaders.MIN_COMMIT) + "'").write(request, response);
            return;
        }
        ClientCommit.begin(minCommit);
        try {
            chain.doFilter(request, CommitHeaders.stamped(response));
        } finally {
            ClientCommit.end();
        }
    }
}
