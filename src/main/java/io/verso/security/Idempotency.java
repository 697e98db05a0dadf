package io.verso.security;

import io.micrometer.context.ContextRegistry;
import java.util.Optional;

/**
 * The Idempotency-Key claimed by the request running on this thread, if any: the engine marks it with
 * its commit inside the commit's transaction ({@code verso.idempotency_keys.commit_seq}), so a commit and
 * its key are durable together even when the service dies before storing the answer. Every commit of the
 * request marks it (the last one is named to a retry). The claim is registered with Micrometer's context
 * propagation, as Spring Security's context is: Spring GraphQL captures it on the HTTP thread and restores
 * it on whichever thread runs a data fetcher or the batch loader, so a mutation executed elsewhere still
 * marks the key.
 */
public final class Idempotency {

    /** A claimed key, as stored. */
    public record Claim(String principal, String key) {
    }

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
