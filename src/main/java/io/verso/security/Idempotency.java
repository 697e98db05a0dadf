package io.verso.security;

import io.micrometer.context.ContextRegistry;
import java.util.List;
import java.util.Optional;

/**
 * The Idempotency-Key claimed by the request running on this thread, if any: the engine marks it with
 * its commit inside the commit's transaction ({@code verso.idempotency_keys.commit_seq}), so a commit and
 * its key are durable together even when the service dies before storing the answer. Every commit of the
 * request marks it (the last one is named to a retry). A claim lives with the database session that
 * made it: when that session is gone (its service or PostgreSQL died) a retry takes the claim over. The claim is registered with Micrometer's context
 * propagation, as Spring Security's context is: Spring GraphQL captures it on the HTTP thread and restores
 * it on whichever thread runs a data fetcher or the batch loader, so a mutation executed elsewhere still
 * marks the key.
 */
public final class Idempotency {

    /**
     * A claimed key, as stored, with the database session that claimed it ({@code ownerPid} and
     * {@code ownerStarted}, PostgreSQL's text of the session's backend_start): the claim's identity. A
     * retry takes over a claim whose session is gone and names itself the owner; every later update of
     * the claim by the first request names the owner it claimed with ({@link #OWNED}), so it changes
     * nothing once the key is someone else's.
     */
    public record Claim(String principal, String key, int ownerPid, String ownerStarted) {

        /** The binds of {@link #MARK} for this claim and {@code commit}. */
        public List<Object> markBinds(long commit) {
            return List.of(commit, principal, key, ownerPid, ownerStarted);
        }
    }

    /**
     * The condition, after {@code WHERE principal = ? AND key = ?}, that the claim is still this request's:
     * binds {@link Claim#ownerPid()}, then {@link Claim#ownerStarted()}.
     */
    static final String OWNED = " AND owner_pid = ? AND owner_started = CAST(? AS timestamptz)";

    /**
     * Marks the claim with a commit of its request, inside that commit's transaction ({@link Claim#markBinds});
     * no row is marked when a retry took the claim over, and then the request must not commit.
     */
    public static final String MARK = "UPDATE verso.idempotency_keys SET commit_seq = ? WHERE principal = ? AND key = ?"
            + OWNED;

    private static final ThreadLocal<Claim> CURRENT = new ThreadLocal<>();

    /** The key under which the claim travels in context snapshots. */
    static final String CONTEXT_KEY = "io.verso.idempotency";

    static {
        ContextRegistry.getInstance().registerThreadLocalAccessor(CONTEXT_KEY, CURRENT::get, CURRENT::set,
                CURRENT::remove);
    }

    private Idempotency() {
    }

    public static Optional<Claim> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    static void set(Claim claim) {
        if (claim == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(claim);
        }
    }
}
