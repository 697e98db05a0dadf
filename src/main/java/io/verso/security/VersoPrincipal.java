package io.verso.security;

import java.util.Set;

/**
 * Who is calling: a name (recorded with every commit it makes) and its roles. {@code admin} holds
 * every privilege on every table, present and future, and may manage roles, grants and keys.
 */
public record VersoPrincipal(String name, Set<String> roles, boolean admin) {

    /** The caller when security is off, and the service itself (retention): may do everything. */
    public static final VersoPrincipal SYSTEM = new VersoPrincipal(null, Set.of(), true);

    public VersoPrincipal {
        roles = Set.copyOf(roles);
    }
}
