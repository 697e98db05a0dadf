package io.verso.api.rest;

import io.verso.api.HotRead;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * The one-key read, {@code GET /v1/tables/{table}/row} (operation getRow of {@link RowsController}), answered
 * without the DispatcherServlet, by the front door or, for a request it passed on, by {@link OneKeyReadFilter}.
 * Everything that makes the answer is MVC's answer's: the read is {@link ConditionalReads#row} (its ETag, the
 * cache of pinned answers, 304), its JSON the same mapper's, and a failure is rendered by {@link ProblemAdvice}
 * through MVC's own exception resolvers. Only the plain form is taken: no context path, nothing percent-encoded in
 * the path, each of asOfCommit, asOfTime and atLeastCommit at most once, no empty value, no Accept or one that
 * takes JSON as is. Any other request goes on to MVC, which answers it as it always has.
 */
@Component
class RowRead implements HotRead {

    static final String ROUTE = "/v1/tables/{table}/row";
    private static final String PREFIX = "/v1/tables/";
    private static final String SUFFIX = "/row";
    private static final String[] OPTIONAL = {"asOfCommit", "asOfTime", "atLeastCommit"};

    private final ConditionalReads reads;
    private final HandlerExceptionResolver errors;

    RowRead(ConditionalReads reads, @Qualifier("handlerExceptionResolver") HandlerExceptionResolver errors) {
        this.reads = reads;
        this.errors = errors;
    }

    @Override
    public String route() {
        return ROUTE;
    }

    @Override
    public boolean takes(HttpServletRequest request) {
        return table(request) != null && query(request) != null && acceptsJson(request.getHeader("Accept"));
    }

    @Override
    public HttpServletRequest answer(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        Query query = query(request);
        try {
            reads.row(response, table(request), query.key(), query.asOfCommit(), query.asOfTime(),
                    query.atLeastCommit(), request.getHeader(HttpHeaders.IF_NONE_MATCH));
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            fail(request, response, e);
        }
        return null;
    }

    /** Renders a failure as the DispatcherServlet would: by the exception resolvers, hence ProblemAdvice. */
    private void fail(HttpServletRequest request, HttpServletResponse response, Exception e)
            throws ServletException, IOException {
        ModelAndView handled = errors.resolveException(request, response, null, e);
        if (handled == null) {
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
