package io.verso.ops;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every HTTP request an id: the caller's {@code X-Request-Id} when it is a plausible id, else
 * a fresh UUID. The id is echoed in the {@code X-Request-Id} response header, put in the logging MDC
 * as {@code requestId} (so every log line of the request carries it, in text and JSON logs alike)
 * and added to every problem response. Runs before every other filter, so even a 413 from the
 * size filter carries it, and again on the container's error dispatch.
 * <p>
 * A fresh id is a random (version 4) UUID drawn from {@link ThreadLocalRandom}, not
 * {@link UUID#randomUUID()}: that one draws from one SecureRandom shared by every request thread, a
 * lock each request queued on, and an id that correlates log lines needs no unpredictability.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestIdFilter extends OncePerRequestFilter {

    public static final String HEADER = "X-Request-Id";
    public static final String MDC_KEY = "requestId";

    /** What an incoming id may look like: anything else (log injection, huge values) is replaced. */
    private static final Pattern ACCEPTED = Pattern.compile("[A-Za-z0-9._:/+=-]{1,128}");

    private static final Logger log = LoggerFactory.getLogger(RequestIdFilter.class);

    /** The id of the request this thread serves, or null outside a request. */
    public static String current() {
        return MDC.get(MDC_KEY);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        assign(request, response);
        long started = System.nanoTime();
        try {
            chain.doFilter(request, response);
        } finally {
            finish(request, response, started);
        }
    }

    /**
     * Gives the request its id: in the response's header and the thread's MDC, until {@link #finish}. The error
     * dispatch of a response refused with sendError, and a request the front door passed on, keep the id they
     * were given.
     */
    public static void assign(HttpServletRequest request, HttpServletResponse response) {
        String given = response.getHeader(HEADER);
        String incoming = request.getHeader(HEADER);
        String id = given != null ? given : incoming != null && ACCEPTED.matcher(incoming).matches() ? incoming
                : freshId();
        response.setHeader(HEADER, id);
        MDC.put(MDC_KEY, id);
    }

    /** Ends the request {@link #assign} began at {@code started} (its {@link System#nanoTime()}). */
    public static void finish(HttpServletRequest request, HttpServletResponse response, long started) {
        if (log.isDebugEnabled()) {
            log.debug("{} {} -> {} in {} ms", request.getMethod(), request.getRequestURI(), response.getStatus(),
                    (System.nanoTime() - started) / 1_000_000);
        }
        MDC.remove(MDC_KEY);
    }

    /** Also the container's error dispatch (a sendError's problem, ContainerErrors): its problem carries the id. */
    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    /** A random version 4 UUID (RFC 9562), as {@link UUID#randomUUID()} gives, without its shared lock. */
    static String freshId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong() & ~0xF000L | 0x4000L; // version 4
        long low = random.nextLong() & ~(0xC000L << 48) | 0x8000L << 48; // variant 10
        return new UUID(high, low).toString();
    }
}
