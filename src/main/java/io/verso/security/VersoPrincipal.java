package io.verso.security;

import java.time.Instant;
import java.util.Set;

/**
 * Who is calling: a name (recorded with every commit it makes) and its roles. {@code admin} holds
 * every privilege on every table, present and future, and may manage roles, grants and keys.
 * <p>
 * Names live in one namespace whose prefixes cannot collide (docs/security.md, "Principals"): a bearer
 * token's is {@code jwt:<claim>}, an API key's {@code key:<name>} (names hold no colon), the configured
 * admin key's {@code admin-api-key}, and the service's own work (and every caller while security is off)
 * {@code system}. {@code expires} is when the credential behind it runs out (a token's {@code exp}), or null;
 * open streams and sockets end then ({@link Credentials#valid}).
 */
public record VersoPrincipal(String name, Set<String> roles, boolean admin, Instant expires) {

    /** What a commit made with no principal of its own records: the service itself, or any caller with security off. */
    public static final String SYSTEM_NAME = "system";

    /** The caller when security is off, and the service itself (retention): may do everything. */
    public static final VersoPrincipal SYSTEM = new VersoPrincipal(null, Set.of(), true);

    public VersoPrincipal {
        roles = Set.copyOf(roles);
    }

    /** A principal whose credential does not run out by itself (an API key, the admin key). */
    public VersoPrincipal(String name, Set<String> roles, boolean admin) {
        this(name, roles, admin, null);
    }

    /** Whether its credential ran out by {@code now}. */
    public boolean expired(Instant now) {
        return expires != null && !now.isBefore(expires);
    }
}
