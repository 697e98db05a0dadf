package io.verso.security;

import io.verso.config.VersoProperties;
import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Timestamp;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;
import org.springframework.web.util.WebUtils;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code Idempotency-Key} on every write (any POST or DELETE: /v1/sql, REST, GraphQL): the first request
 * with a key claims it for its principal in {@code verso.idempotency_keys} (its own small transaction,
 * so the claim survives a restart), runs, and its response is stored; a retry with the same key and the
 * same method, path and body gets that response again (header {@code Idempotency-Replayed: true})
 * without running, so without a second commit. The same key with another request is 422; a retry while
 * the first is still running is 409, until the database session that claimed the key is gone: a service or
 * PostgreSQL that died takes its sessions along, and the next retry takes the claim over and runs (the
 * in-flight time remains the bound for a session PostgreSQL believes alive). A failure on our side (5xx, or a GraphQL answer whose errors carry a
 * 5xx status) that made no commit releases the key, so a retry runs. A request answered asynchronously
 * (GraphQL may complete on another thread) keeps its claim across the async dispatch and is stored when
 * its answer is complete, never as the empty answer of the first dispatch. Keys are kept
 * {@code verso.security.idempotency.retention}. The engine marks the claim with its commit in the commit's
 * own transaction ({@link Idempotency}, carried to whichever thread runs it): if the service dies after
 * committing and before storing the answer, a retry gets {@code 409 IDEMPOTENT_REQUEST_COMMITTED} naming
 * the commit, not a second commit.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 10)
class IdempotencyFilter extends OncePerRequestFilter {

    static final String HEADER = "Idempotency-Key";
    /**
     * This database session as (pid, started): the owner of a claim it makes. pid and backend_start together
     * name one session; pid alone is reused.
     */
    private static final String THIS_SESSION = "SELECT a.pid, a.backend_start AS started FROM "
            + "pg_stat_get_activity(pg_backend_pid()) a";
    /** The claim of a request that went asynchronous, for the async dispatch that completes it. */
    private static final String PENDING = IdempotencyFilter.class.getName() + ".claim";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern KEY = Pattern.compile("[\\x21-\\x7e]{1,255}");

    private final JdbcTemplate jdbc;
    private final SecurityProperties properties;
    private final VersoProperties limits;
    private final AtomicLong claims = new AtomicLong();

    IdempotencyFilter(JdbcTemplate jdbc, SecurityProperties properties, VersoProperties limits) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.limits = limits;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return request.getHeader(HEADER) == null
                || !("POST".equals(request.getMethod()) || "DELETE".equals(request.getMethod()));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (isAsyncDispatch(request)) {
            if (asyncDispatchOfClaim(request)) {
                proceed(request, response, (Idempotency.Claim) request.getAttribute(PENDING), chain);
            } else {
                chain.doFilter(request, response);
            }
            return;
        }
        String key = request.getHeader(HEADER);
        if (!KEY.matcher(key).matches()) {
            Problem.of(ErrorCode.INVALID_IDEMPOTENCY_KEY,
                    "Idempotency-Key must be 1 to 255 visible ASCII characters").write(request, response);
            return;
        }
        byte[] body = BodyRequest.read(request, limits.maxRequestBytes());
        if (body == null) {
            Problem.tooLarge(limits.maxRequestBytes()).write(request, response);
            return;
        }
        VersoPrincipal caller = Caller.current();
        String principal = caller.name() == null ? "-" : caller.name();
        String hash = hash(request, body);
        Idempotency.Claim claim;
        try {
            claim = claim(principal, key, hash, request, response);
            if (claim == null) {
                return;
            }
        } catch (DataAccessException e) {
            response.setHeader("Retry-After", "1");
            Problem.of(ErrorCode.DATABASE_UNAVAILABLE, "the database is unavailable; retry shortly")
                    .write(request, response);
            return;
        }
        proceed(BodyRequest.with(request, body), new ContentCachingResponseWrapper(response), claim, chain);
    }

    /**
     * Runs the request with its claim on this thread; its answer is stored once it is complete: at the end
     * of this dispatch, or, when the request went asynchronous (a handler answering from another thread, as
     * Spring GraphQL may), at the end of the async dispatch that writes the answer.
     */
    private void proceed(HttpServletRequest request, HttpServletResponse response, Idempotency.Claim claim,
                         FilterChain chain) throws ServletException, IOException {
        boolean ran = false;
        Idempotency.set(claim);
        try {
            chain.doFilter(request, response);
            ran = true;
        } finally {
            Idempotency.set(null);
            if (request.isAsyncStarted()) {
                request.setAttribute(PENDING, claim);
            } else {
                request.removeAttribute(PENDING);
                answered(request, WebUtils.getNativeResponse(response, ContentCachingResponseWrapper.class), claim, ran);
            }
        }
    }

    /** The async dispatch of a claimed request: the same claim, and the answer stored when it is complete. */
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    private boolean asyncDispatchOfClaim(HttpServletRequest request) {
        return isAsyncDispatch(request) && request.getAttribute(PENDING) instanceof Idempotency.Claim;
    }

    /**
     * Stores a complete answer, or releases the key when the request failed on our side without committing
     * (a 5xx, or a GraphQL answer whose errors say so; a claim its commit marked stays: a retry is told).
     */
    private void answered(HttpServletRequest request, ContentCachingResponseWrapper recorded, Idempotency.Claim claim,
                          boolean ran) throws IOException {
        boolean stored = false;
        try {
            if (ran && recorded.getStatus() < 500 && !serverErrorIn(request, recorded)) {
                jdbc.update("UPDATE verso.idempotency_keys SET status = ?, content_type = ?, body = ? "
                                + "WHERE principal = ? AND key = ?" + Idempotency.OWNED, recorded.getStatus(),
                        recorded.getContentType(), recorded.getContentAsByteArray(), claim.principal(), claim.key(),
                        claim.ownerPid(), claim.ownerStarted());
                stored = true;
            }
        } finally {
            if (!stored) {
                release(claim);
            }
            recorded.copyBodyToResponse();
        }
    }

    /**
     * GraphQL answers 200 with errors: one with a 5xx status (api.graphql.GraphqlErrors puts the code's status
     * in each error's extensions), or with none at all (graphql-java's own), failed on our side.
     */
    private static boolean serverErrorIn(HttpServletRequest request, ContentCachingResponseWrapper recorded) {
        if (!request.getRequestURI().equals("/graphql") || recorded.getContentSize() == 0) {
            return false;
        }
        try {
            JsonNode errors = JSON.readTree(recorded.getContentAsByteArray()).path("errors");
            for (JsonNode error : errors) {
                JsonNode status = error.path("extensions").path("status");
                JsonNode classification = error.path("extensions").path("classification");
                if (status.isNumber() ? status.asInt() >= 500
                        : classification.isString() && "INTERNAL_ERROR".equals(classification.asString())) {
                    return true;
                }
            }
            return false;
        } catch (JacksonException e) {
            return false; // not JSON: nothing to look into
        }
    }

    /**
     * The claim of this request as the owner of the key (this database session), or null when the request
     * was answered from its first run or refused. An unanswered claim whose session is gone (its service or
     * PostgreSQL died while it ran) is taken over at once, as is one older than the in-flight time (a session
     * PostgreSQL still believes alive though its machine is gone, or a claim from before owners were kept).
     */
    private Idempotency.Claim claim(String principal, String key, String hash, HttpServletRequest request,
                                    HttpServletResponse response) throws IOException {
        if (claims.incrementAndGet() % 1000 == 0) {
            jdbc.update("DELETE FROM verso.idempotency_keys WHERE created_at < now() - CAST(? AS interval)",
                    properties.idempotency().retention().toSeconds() + " seconds");
        }
        for (int attempt = 0; attempt < 3; attempt++) {
            List<Idempotency.Claim> claimed = jdbc.query("INSERT INTO verso.idempotency_keys (principal, key, "
                            + "request_hash, owner_pid, owner_started) SELECT ?, ?, ?, s.pid, s.started FROM (" + THIS_SESSION
                            + ") s ON CONFLICT DO NOTHING "
                            + "RETURNING owner_pid, CAST(owner_started AS text)",
                    (rs, n) -> new Idempotency.Claim(principal, key, rs.getInt(1), rs.getString(2)),
                    principal, key, hash);
            if (!claimed.isEmpty()) {
                return claimed.get(0);
            }
            List<Object[]> rows = jdbc.query("SELECT request_hash, status, content_type, body, created_at, "
                            + "created_at < now() - CAST(? AS interval), created_at < now() - CAST(? AS interval), "
                            + "commit_seq, owner_pid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
                            + "pg_stat_get_activity(owner_pid) a WHERE a.backend_start = owner_started) "
                            + "FROM verso.idempotency_keys WHERE principal = ? AND key = ?",
                    (rs, n) -> new Object[] {rs.getString(1), (Integer) rs.getObject(2), rs.getString(3),
                            rs.getBytes(4), rs.getTimestamp(5), rs.getBoolean(6), rs.getBoolean(7),
                            (Long) rs.getObject(8), rs.getBoolean(9)},
                    properties.idempotency().retention().toSeconds() + " seconds",
                    properties.idempotency().inFlight().toSeconds() + " seconds", principal, key);
            if (rows.isEmpty()) {
                continue; // released meanwhile: claim again
            }
            Object[] row = rows.get(0);
            Timestamp created = (Timestamp) row[4];
            if ((Boolean) row[5]) {
                // Kept past its retention: forget it, then claim afresh.
                jdbc.update("DELETE FROM verso.idempotency_keys WHERE principal = ? AND key = ? AND created_at = ?",
                        principal, key, created);
                continue;
            }
            if (!hash.equals(row[0])) {
                Problem.of(ErrorCode.IDEMPOTENCY_KEY_REUSED, "Idempotency-Key '" + key
                        + "' was used with another request (method, path or body); use a new key for a new request")
                        .write(request, response);
                return null;
            }
            if (row[1] == null && row[7] != null) {
                // Committed, but the answer was never stored (the service died in between): never run it again.
                Problem.of(ErrorCode.IDEMPOTENT_REQUEST_COMMITTED, "the request with Idempotency-Key '"
                        + key + "' made commit " + row[7] + ", but its answer was lost (the service stopped before "
                        + "storing it); it is not run again").write(request, response);
                return null;
            }
            if (row[1] == null) {
                // Still unanswered: running, or its session died with its service or database. A takeover waits
                // for a commit of the first request that is under way (its mark holds the row) and then finds
                // commit_seq set: the retry is told of that commit on its next attempt.
                if ((Boolean) row[8] || (Boolean) row[6]) {
                    List<Idempotency.Claim> taken = jdbc.query("UPDATE verso.idempotency_keys k SET created_at = now(), "
                                    + "owner_pid = s.pid, owner_started = s.started FROM (" + THIS_SESSION + ") s "
                                    + "WHERE principal = ? AND key = ? AND status IS NULL AND commit_seq IS NULL "
                                    + "AND created_at = ? RETURNING k.owner_pid, CAST(k.owner_started AS text)",
                            (rs, n) -> new Idempotency.Claim(principal, key, rs.getInt(1), rs.getString(2)),
                            principal, key, created);
                    if (!taken.isEmpty()) {
                        return taken.get(0);
                    }
                    continue; // committed or taken over meanwhile: look again
                }
                response.setHeader("Retry-After", "1");
                Problem.of(ErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT, "a request with Idempotency-Key '" + key
                        + "' is still running; retry when it has answered").write(request, response);
                return null;
            }
            response.setStatus((Integer) row[1]);
            if (row[2] != null) {
                response.setContentType((String) row[2]);
            }
            response.setHeader("Idempotency-Replayed", "true");
            byte[] stored = (byte[]) row[3];
            if (stored != null) {
                response.getOutputStream().write(stored);
            }
            return null;
        }
        response.setHeader("Retry-After", "1");
        Problem.of(ErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT, "Idempotency-Key '" + key
                + "' is contended; retry").write(request, response);
        return null;
    }

    private void release(Idempotency.Claim claim) {
        try {
            // A claim whose request committed stays: a retry must learn of the commit, not make another. A claim
            // a retry took over is the retry's.
            jdbc.update("DELETE FROM verso.idempotency_keys WHERE principal = ? AND key = ? AND status IS NULL "
                    + "AND commit_seq IS NULL" + Idempotency.OWNED, claim.principal(), claim.key(), claim.ownerPid(),
                    claim.ownerStarted());
        } catch (DataAccessException e) {
            // The database is away: the claim stays, and its session is gone with the database, so a retry
            // takes it over once PostgreSQL is back.
        }
    }

    private static String hash(HttpServletRequest request, byte[] body) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update((request.getMethod() + " " + request.getRequestURI() + "?"
                    + (request.getQueryString() == null ? "" : request.getQueryString()) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            digest.update(body);
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
