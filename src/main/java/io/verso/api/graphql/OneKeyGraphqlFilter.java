package io.verso.api.graphql;

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
 * The GraphQL read by key ({@link GraphqlRead}) of a request the front door passed on (a
 * cross-origin request, text the firewall looks at twice), answered as the last filter instead of by the
 * DispatcherServlet and Spring GraphQL's handler: every filter before this one (request id, security, admission,
 * size) has run, and the request's metric carries the same route.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE)
class OneKeyGraphqlFilter extends OncePerRequestFilter {

    private final GraphqlRead read;

    OneKeyGraphqlFilter(GraphqlRead read) {
        this.read = read;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !read.takes(request);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        HttpServletRequest passOn = read.answer(request, response);
        if (passOn != null) {
            chain.doFilter(passOn, response);
            return;
        }
        ServerHttpObservationFilter.findObservationContext(request).ifPresent(c -> c.setPathPattern(GraphqlRead.PATH));
    }
}
