package io.verso.api.rest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * The one-key read ({@link RowRead}) of a request the front door passed on (a cross-origin request,
 * text the firewall looks at twice), answered as the last filter instead of by the DispatcherServlet: every filter
 * before this one (request id, security, admission, Verso-Commit) has run, and the request's metric carries the
 * same route.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE)
class OneKeyReadFilter extends OncePerRequestFilter {

    private final RowRead row;

    OneKeyReadFilter(RowRead row) {
        this.row = row;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !row.takes(request);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ServerHttpObservationFilter.findObservationContext(request).ifPresent(c -> c.setPathPattern(RowRead.ROUTE));
        row.answer(request, response);
    }
}
