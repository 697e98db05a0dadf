package io.verso.api;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.http.Outcome;
import io.verso.ops.RequestIdFilter;
import io.verso.engine.ClientCommit;
import io.verso.security.Caller;
import io.verso.security.Doorkeeper;
import io.verso.security.VersoPrincipal;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * The short way in for the reads clients send most ({@link HotRead}: the REST row, GraphQL by key), ahead of the
 * filter chain. Each filter of the chain costs a hot read a little, and together with Spring Security's chain and the
 * request's observation they were about a third of its CPU (docs/benchmark.md). So the front door makes the same
 * decisions itself, in one place and in the chain's order, from the same parts:
 * <ol>
 *   <li>the request id ({@link RequestIdFilter});</li>
 *   <li>the caller and the headers every answer carries ({@link Doorkeeper}: the chain's API keys and its cache);</li>
 *   <li>admission and the rate limit, under that caller;</li>
 *   <li>Verso-Min-Commit and Verso-Commit ({@link CommitHeaders});</li>
 *   <li>the request's timer, {@code http.server.requests} with the tags the observation gives it.</li>
 * </ol>
 * Whatever the chain would refuse, or decides by machinery of its own, is passed on to it untouched: a request that
 * is not a hot read's plain form, one without credentials or with credentials the chain refuses, a cross-origin
 * request while CORS is configured, an invalid Verso-Min-Commit, text the firewall or input guard would look at
 * twice. The answers are the chain's to the byte but for the request id; {@code FrontDoorTests} compares them.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class FrontDoor implements Filter {

    private static final String METRIC = "http.server.requests";

    private final List<HotRead> reads;
    private final Doorkeeper doorkeeper;
    private final MeterRegistry registry;
    /** The timers of the answers given here, by method, route, status and failure: the observation's tags. */
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final LongAdder answered = new LongAdder();

    FrontDoor(List<HotRead> reads, Doorkeeper doorkeeper, MeterRegistry registry) {
        this.reads = List.copyOf(reads);
        this.doorkeeper = doorkeeper;
        this.registry = registry;
    }

    /** Requests answered here so far: what tests check the way a request took against. */
    long answered() {
        return answered.sum();
    }

    @Override
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
            throws IOException, ServletException {
        if (servletRequest instanceof HttpServletRequest request
                && servletResponse instanceof HttpServletResponse response
                && request.getDispatcherType() == DispatcherType.REQUEST) {
            HotRead read;
            try {
                read = hotRead(request);
            } catch (IllegalStateException unparsable) {
                chain.doFilter(new Unparsable(request, unparsable), response);
                return;
            }
            VersoPrincipal caller = read == null ? null : doorkeeper.caller(request);
            long minCommit = caller == null ? CommitHeaders.INVALID : CommitHeaders.minCommit(request);
            if (minCommit != CommitHeaders.INVALID) {
                HttpServletRequest passOn = answer(read, caller, minCommit, request, response);
                if (passOn != null) {
                    chain.doFilter(passOn, response);
                }
                return;
            }
        }
        chain.doFilter(servletRequest, servletResponse);
    }

    private HotRead hotRead(HttpServletRequest request) {
        for (HotRead read : reads) {
            if (read.takes(request)) {
                return read;
            }
        }
        return null;
    }

    /**
     * A request whose query the container could not parse (bytes that are not UTF-8): the container parses a query
     * once, so the chain sees the same failure where it first reads a parameter, as it would have.
     */
    private static final class Unparsable extends HttpServletRequestWrapper {
        private final IllegalStateException failure;

        Unparsable(HttpServletRequest request, IllegalStateException failure) {
            super(request);
            this.failure = failure;
        }

        @Override
        public String getParameter(String name) {
            throw failure;
        }

        @Override
        public Map<String, String[]> getParameterMap() {
            throw failure;
        }

        @Override
        public Enumeration<String> getParameterNames() {
            throw failure;
        }

        @Override
        public String[] getParameterValues(String name) {
            throw failure;
        }
    }

    /**
     * Answers the request as the chain would, or returns what to pass on to it. What a request passed on carries
     * already (its id, the headers of every answer) the chain keeps or writes alike.
     */
    private HttpServletRequest answer(HotRead read, VersoPrincipal caller, long minCommit, HttpServletRequest request,
                                      HttpServletResponse response) throws IOException, ServletException {
        long started = System.nanoTime();
        RequestIdFilter.assign(request, response);
        String failure = "none";
        HttpServletRequest passOn = null;
        try (Caller.Scope acting = Caller.acting(caller)) {
            doorkeeper.headers(request, response);
            Runnable leave = doorkeeper.admit(request, response);
            if (leave != null) {
                ClientCommit.begin(minCommit);
                answered.increment(); // before the answer, which its client may have in hand before it returns
                try {
                    passOn = read.answer(request, CommitHeaders.stamped(response));
                    if (passOn != null) {
                        answered.decrement();
                    }
                } finally {
                    ClientCommit.end();
                    leave.run();
                }
            }
            return passOn;
        } catch (IOException | ServletException | RuntimeException e) {
            failure = e.getClass().getSimpleName();
            throw e;
        } finally {
            if (passOn == null) {
                timer(read.route(), request.getMethod(), response.getStatus(), failure)
                        .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            }
            RequestIdFilter.finish(request, response, started);
        }
    }

    private Timer timer(String route, String method, int status, String failure) {
        String name = method + ' ' + route + ' ' + status + ' ' + failure;
        Timer timer = timers.get(name);
        if (timer == null) {
            timer = timers.computeIfAbsent(name, n -> Timer.builder(METRIC)
                    .tags(Tags.of("error", failure, "exception", failure, "method", method,
                            "outcome", Outcome.forStatus(status).name(), "status", Integer.toString(status),
                            "uri", route))
                    .register(registry));
        }
        return timer;
    }
}
