package io.verso.security;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import io.verso.error.VersoException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Admission: requests are light (one-key reads, small writes, look-ups), heavy (arbitrary reads that may
 * run until the statement timeout: /v1/sql, /graphql, REST lists, history, diffs, change pages) or large
 * (a body over {@code verso.admission.large-body-bytes}, held in memory while it runs). Each class has its
 * own bounded number of places, so heavy requests can hold at most the connections left after the light
 * reserve and one-key reads keep answering; a request that finds its class full for its wait gets
 * {@code 503 OVERLOADED} with Retry-After. A caller over its rate limit (off by default) gets
 * {@code 429 RATE_LIMITED}. Rejections are counted by limit ({@code verso.admission.rejections}); places in
 * use are gauged ({@code verso.admission.in.use}). Health probes and the console's files are not admitted
 * here; a change stream is admitted like any change page, and holds its place only until its first page is read.
 * <p>
 * A {@code /v1/sql} body up to {@code verso.admission.light-sql-bytes} is classed by what its statements do,
 * not by its path: it enters without a place, and the controller takes a light or heavy one once the
 * statements are parsed ({@link Admission}, rule in {@code analyze.Weight}: one-key reads and small writes
 * are light), so a one-key UPSERT does not queue behind cartesian joins. A larger one is heavy at once.
 * <p>
 * A request waiting for a place holds a request thread, and a service may run with few of them (as many as
 * pool connections costs markedly less CPU per request: docs/deploying.md). So heavy and large requests,
 * running or waiting, hold at most the request threads ({@code server.tomcat.threads.max}) minus the
 * light reserve: one that finds its class full waits only while a thread within that bound is free for
 * it, else it gets 503 at once, and one-key reads always find threads.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 20)
class AdmissionFilter extends OncePerRequestFilter {

    enum Kind { LIGHT, HEAVY, LARGE }

    private static final String TABLES = "/v1/tables/";
    /** What {@link #admit} returns for a request admission leaves alone. */
    private static final Runnable NO_PLACE = () -> { };
    private static final Set<String> HEAVY_READS = Set.of("rows", "history", "diff", "changes");

    private final AdmissionProperties properties;
    private final Map<Kind, Semaphore> places = new EnumMap<>(Kind.class);
    private final Map<Kind, Integer> sizes = new EnumMap<>(Kind.class);
    private final Map<String, Counter> rejections = new ConcurrentHashMap<>();
    private final MeterRegistry registry;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    /** Heavy and large requests that may wait for a place: the threads left to them beyond their places. */
    private final Semaphore waiting;

    AdmissionFilter(AdmissionProperties properties, Environment environment, MeterRegistry registry) {
        this.properties = properties;
        this.registry = registry;
        int pool = environment.getProperty("spring.datasource.hikari.maximum-pool-size", Integer.class, 10);
        sizes.put(Kind.LIGHT, properties.lightConcurrency() > 0 ? properties.lightConcurrency() : 4 * pool);
        sizes.put(Kind.HEAVY, properties.heavyConcurrency() > 0 ? properties.heavyConcurrency()
                : Math.max(1, pool - properties.lightReserve() - properties.largeConcurrency()));
        sizes.put(Kind.LARGE, Math.max(1, properties.largeConcurrency()));
        int threads = environment.getProperty("server.tomcat.threads.max", Integer.class, 200);
        waiting = new Semaphore(Math.max(0, threads - properties.lightReserve() - sizes.get(Kind.HEAVY)
                - sizes.get(Kind.LARGE)));
        for (Kind kind : Kind.values()) {
            Semaphore semaphore = new Semaphore(sizes.get(kind), true);
            places.put(kind, semaphore);
            int size = sizes.get(kind);
            Gauge.builder("verso.admission.in.use", semaphore, s -> size - s.availablePermits())
                    .tag("class", name(kind)).description("requests of the class running").register(registry);
        }
        for (String limit : new String[] {"light", "heavy", "large", "rate"}) {
            rejection(limit);
        }
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI();
        if (!properties.enabled() || "OPTIONS".equals(request.getMethod())) {
            return true;
        }
        // Health, metrics, the console's files, GraphiQL and the GraphQL WebSocket handshake. Nothing a request
        // says of itself (Accept, Upgrade) exempts it: a change stream takes a heavy place for its first page,
        // given back once the response goes asynchronous, and is then bounded by FeedStreams' own limits.
        return !(path.startsWith("/v1/") || path.equals("/graphql"));
    }

    /** A small {@code /v1/sql} request: its class is decided by its statements, once parsed ({@link Admission}). */
    static boolean byStatements(HttpServletRequest request, long lightSqlBytes) {
        long length = request.getContentLengthLong();
        return "POST".equals(request.getMethod()) && request.getRequestURI().equals("/v1/sql")
                && length >= 0 && length <= lightSqlBytes;
    }

    static Kind classify(HttpServletRequest request, long largeBodyBytes) {
        String method = request.getMethod();
        boolean body = "POST".equals(method) || "PUT".equals(method) || "PATCH".equals(method);
        long length = request.getContentLengthLong();
        if (body && (length > largeBodyBytes || length < 0 && request.getHeader("Transfer-Encoding") != null)) {
            return Kind.LARGE;
        }
        String path = request.getRequestURI();
        // Creating a derived table waits for (the start of) its build over the sources' history.
        if (path.equals("/v1/sql") || path.equals("/graphql") || path.equals("/v1/derived-tables")
                || "GET".equals(method) && heavyRead(path)) {
            return Kind.HEAVY;
        }
        return Kind.LIGHT;
    }

    /**
     * {@code /v1/tables/{table}/rows}, {@code …/history}, {@code …/diff} or {@code …/changes}, with or without a
     * trailing slash: the reads that may return many rows. A plain test, not a pattern: it runs on every GET.
     */
    static boolean heavyRead(String path) {
        if (!path.startsWith(TABLES) || path.length() == TABLES.length()) {
            return false;
        }
        String rest = path.substring(TABLES.length(), path.endsWith("/") ? path.length() - 1 : path.length());
        int slash = rest.indexOf('/');
        return slash > 0 && rest.indexOf('/', slash + 1) < 0 && HEAVY_READS.contains(rest.substring(slash + 1));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (rateLimited(request, response)) {
            return;
        }
        if (byStatements(request, properties.lightSqlBytes().toBytes())) {
            Deferred deferred = new Deferred();
            Admission.set(deferred);
            try {
                chain.doFilter(request, response);
            } finally {
                Admission.set(null);
                deferred.release();
            }
            return;
        }
        Runnable leave = place(request, response);
        if (leave == null) {
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            leave.run();
        }
    }

    /**
     * Admits a request as this filter would, for the front door, which answers hot reads before the chain (a
     * {@code /v1/sql} request is never one of them): what gives its place back, or null when it is refused, its
     * refusal written.
     */
    Runnable admit(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (shouldNotFilter(request)) {
            return NO_PLACE;
        }
        return rateLimited(request, response) ? null : place(request, response);
    }

    /** Whether the caller is over its rate: then the refusal is written. */
    private boolean rateLimited(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (properties.rateLimit().requestsPerSecond() <= 0) {
            return false;
        }
        long waitMillis = bucket(request).take(properties.rateLimit());
        if (waitMillis <= 0) {
            return false;
        }
        rejection("rate").increment();
        response.setHeader("Retry-After", Long.toString(Math.max(1, (waitMillis + 999) / 1000)));
        Problem.of(ErrorCode.RATE_LIMITED, rateLimited(callerName(request)) + "; retry after Retry-After")
                .write(request, response);
        return true;
    }

    /** The place of the request's class, given back by what this returns; null when the class is full (503 written). */
    private Runnable place(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Kind kind = classify(request, properties.largeBodyBytes().toBytes());
        if (!acquire(kind)) {
            rejection(name(kind)).increment();
            response.setHeader("Retry-After", "1");
            if (kind == Kind.LARGE) {
                response.setHeader("Connection", "close"); // its unread body is not worth draining
            }
            Problem.of(ErrorCode.OVERLOADED, overloaded(kind)).write(request, response);
            return null;
        }
        return places.get(kind)::release;
    }

    /**
     * Runs a request that arrived outside HTTP ({@code pgwire}) as a {@code /v1/sql} body of {@code bytes} is
     * admitted: within its caller's rate limit (the principal's, else {@code address}'s), then large or heavy by
     * its size, else classed by its statements once parsed ({@link Admission#admit}).
     */
    <T> T admitStatements(long bytes, String address, java.util.function.Supplier<T> work) {
        if (!properties.enabled()) {
            return work.get();
        }
        if (properties.rateLimit().requestsPerSecond() > 0) {
            String caller = Caller.current().name() != null ? Caller.current().name() : address;
            if (bucket(caller).take(properties.rateLimit()) > 0) {
                rejection("rate").increment();
                throw new VersoException.ServerError(ErrorCode.RATE_LIMITED, rateLimited(caller) + "; retry shortly",
                        null);
            }
        }
        Deferred deferred = new Deferred();
        Admission.set(deferred);
        try {
            if (bytes > properties.lightSqlBytes().toBytes()) {
                deferred.take(bytes > properties.largeBodyBytes().toBytes() ? Kind.LARGE : Kind.HEAVY);
            }
            return work.get();
        } finally {
            Admission.set(null);
            deferred.release();
        }
    }

    /** A place of the class, waiting for one if the class is full and the request may hold its thread meanwhile. */
    private boolean acquire(Kind kind) {
        Semaphore semaphore = places.get(kind);
        try {
            if (semaphore.tryAcquire(0, TimeUnit.MILLISECONDS)) {
                return true;
            }
            boolean counted = kind != Kind.LIGHT;
            if (counted && !waiting.tryAcquire()) {
                return false;
            }
            try {
                return semaphore.tryAcquire(properties.maxWait().toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                if (counted) {
                    waiting.release();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A caller over its rate: how a retry is timed is the transport's to say (HTTP has Retry-After). */
    private String rateLimited(String caller) {
        return "more than " + properties.rateLimit().requestsPerSecond() + " requests per second from " + caller
                + " (verso.admission.rate-limit)";
    }

    private String overloaded(Kind kind) {
        return "too many " + describe(kind) + " are running (" + sizes.get(kind) + " at once, verso.admission."
                + name(kind) + "-concurrency); retry shortly";
    }

    /** The place of a /v1/sql request, taken once its statements say which class it is. */
    private final class Deferred implements Admission.Ticket {
        private Semaphore held;

        @Override
        public void admit(boolean light) {
            take(light ? Kind.LIGHT : Kind.HEAVY);
        }

        void take(Kind kind) {
            if (held != null) {
                return;
            }
            if (!acquire(kind)) {
                rejection(name(kind)).increment();
                throw new VersoException.ServerError(ErrorCode.OVERLOADED, overloaded(kind), null);
            }
            held = places.get(kind);
        }

        void release() {
            if (held != null) {
                held.release();
                held = null;
            }
        }
    }

    /** The places of a class: what a test holds to fill it. */
    Semaphore places(Kind kind) {
        return places.get(kind);
    }

    private static String name(Kind kind) {
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String describe(Kind kind) {
        return switch (kind) {
            case LIGHT -> "requests";
            case HEAVY -> "queries (/v1/sql beyond one-key reads and small writes, /graphql, row lists, history, diffs)";
            case LARGE -> "requests with large bodies";
        };
    }

    private Counter rejection(String limit) {
        return rejections.computeIfAbsent(limit, l -> Counter.builder("verso.admission.rejections").tag("limit", l)
                .description("requests refused by admission: OVERLOADED (a class full) or RATE_LIMITED")
                .register(registry));
    }

    private static String callerName(HttpServletRequest request) {
        String name = Caller.current().name();
        return name != null ? name : request.getRemoteAddr();
    }

    private Bucket bucket(HttpServletRequest request) {
        return bucket(callerName(request));
    }

    private Bucket bucket(String caller) {
        if (buckets.size() > 100_000) {
            buckets.clear(); // a flood of distinct callers: start afresh rather than grow
        }
        return buckets.computeIfAbsent(caller, k -> new Bucket());
    }

    /** A token bucket: {@code requestsPerSecond} tokens a second, at most {@code burst} saved. */
    private static final class Bucket {
        private double tokens = -1;
        private long last = System.nanoTime();

        synchronized long take(AdmissionProperties.RateLimit limit) {
            double rate = limit.requestsPerSecond();
            double burst = limit.burst() > 0 ? limit.burst() : Math.max(1, rate);
            long now = System.nanoTime();
            tokens = tokens < 0 ? burst : Math.min(burst, tokens + (now - last) / 1e9 * rate);
            last = now;
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - tokens) / rate * 1000);
        }
    }
}
