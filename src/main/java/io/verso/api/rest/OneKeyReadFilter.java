package io.verso.api.rest;

import io.verso.surface.ReadService;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * The one-key read, {@code GET /v1/tables/{table}/row} (operation getRow of {@link RowsController}), answered
 * as the last filter instead of by the DispatcherServlet. It is the request clients send most, and most of its
 * CPU was Spring MVC's: finding its handler among every mapping, resolving arguments, choosing a converter by
 * content negotiation. Everything that makes the answer stays the same: the read is
 * {@link ReadService#row} (through {@link ConditionalReads}, which adds its ETag and may answer it from the
 * cache of pinned answers or with 304), its JSON the same mapper's, a failure is rendered by {@link ProblemAdvice} through
 * MVC's own exception resolvers, the request's metric carries the same route, and every filter before this
 * one (request id, security, admission, Verso-Commit) has run. Only the plain form is served here: no
 * context path, nothing percent-encoded in the path, each of asOfCommit, asOfTime and atLeastCommit at
 * most once, no empty value, no Accept or one that takes JSON as is. Any other request goes on to MVC,
 * which answers it as it always has.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE)
class OneKeyReadFilter extends OncePerRequestFilter {

    static final String ROUTE = "/v1/tables/{table}/row";
    private static final String PREFIX = "/v1/tables/";
    private static final String SUFFIX = "/row";
    private static final String[] OPTIONAL = {"asOfCommit", "asOfTime", "atLeastCommit"};

    private final ConditionalReads reads;
    private final HandlerExceptionResolver errors;

    OneKeyReadFilter(ConditionalReads reads, @Qualifier("handlerExceptionResolver") HandlerExceptionResolver errors) {
        this.reads = reads;
        this.errors = errors;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return table(request) == null;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Query query = query(request);
        if (query == null || !acceptsJson(request.getHeader("Accept"))) {
            chain.doFilter(request, response);
            return;
        }
        ServerHttpObservationFilter.findObservationContext(request).ifPresent(c -> c.setPathPattern(ROUTE));
        try {
            reads.row(response, table(request), query.key(), query.asOfCommit(), query.asOfTime(),
                    query.atLeastCommit(), request.getHeader(HttpHeaders.IF_NONE_MATCH));
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            fail(request, response, e);
        }
    }

    /** Renders a failure as the DispatcherServlet would: by the exception resolvers, hence ProblemAdvice. */
    private void fail(HttpServletRequest request, HttpServletResponse response, Exception e)
            throws ServletException, IOException {
        ModelAndView handled = errors.resolveException(request, response, null, e);
        if (handled == null) {
            if (e instanceof IOException io) {
                throw io;
            }
            throw e instanceof ServletException servlet ? servlet : new ServletException(e);
        }
        request.setAttribute(DispatcherServlet.EXCEPTION_ATTRIBUTE, e);
    }

    /** The table a plain one-key read names, or null for any other request. */
    private static String table(HttpServletRequest request) {
        if (!"GET".equals(request.getMethod()) || !request.getContextPath().isEmpty()) {
            return null;
        }
        String path = request.getRequestURI();
        int end = path.length() - SUFFIX.length();
        if (end <= PREFIX.length() || !path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) {
            return null;
        }
        String table = path.substring(PREFIX.length(), end);
        return table.indexOf('/') < 0 && table.indexOf('%') < 0 && table.indexOf(';') < 0 ? table : null;
    }

    private record Query(List<String> key, String asOfCommit, String asOfTime, String atLeastCommit) {
    }

    /**
     * The parameters of a plain one-key read, or null when one is missing, empty or given twice (a
     * {@code String} parameter given twice is joined with commas by MVC's binding: MVC decides those).
     */
    private static Query query(HttpServletRequest request) {
        String[] key = request.getParameterValues("key");
        if (key == null || key.length == 0 || Arrays.asList(key).contains("")) {
            return null;
        }
        String[] optional = new String[OPTIONAL.length];
        for (int i = 0; i < OPTIONAL.length; i++) {
            String[] values = request.getParameterValues(OPTIONAL[i]);
            if (values != null) {
                if (values.length != 1 || values[0].isEmpty()) {
                    return null;
                }
                optional[i] = values[0];
            }
        }
        return new Query(List.of(key), optional[0], optional[1], optional[2]);
    }

    private static boolean acceptsJson(String accept) {
        return accept == null || accept.equals("*/*") || accept.equals(MediaType.APPLICATION_JSON_VALUE);
    }
}
