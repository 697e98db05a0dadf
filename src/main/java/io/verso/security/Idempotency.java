package io.verso.security;

import java.util.Optional;

/**
 * The Idempotency-Key claimed by the request running on this thread, if any: the engine marks it with
 * its commit inside the commit's transaction ({@code verso.idempotency_keys.commit_seq}), so a commit and
 * its key are durable together even when the service dies before storing the answer.
 */
public final class Idempotency {

    /** A claimed key, as stored. */
    public record Claim(String principal, String key) {
    }

    private static final ThreadLocal<Claim> CURRENT = new ThreadLocal<>();

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
