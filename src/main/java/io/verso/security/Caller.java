package io.verso.security;

import java.util.Set;
import java.util.function.Supplier;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The principal of the running request, as the engine asks for it. With security on, a request
 * that carries no credentials reaches the engine as {@link #NOBODY} (no roles: every table unknown),
 * never as an administrator; the service's own work runs {@link #asSystem}.
 */
public final class Caller {

    /** No credentials: no role, no table. */
    public static final VersoPrincipal NOBODY = new VersoPrincipal("anonymous", Set.of(), false);

    private static volatile boolean securityOn = true;
    private static final ThreadLocal<VersoPrincipal> OVERRIDE = new ThreadLocal<>();

    private Caller() {
    }

    static void securityOn(boolean on) {
        securityOn = on;
    }

    public static VersoPrincipal current() {
        VersoPrincipal override = OVERRIDE.get();
        if (override != null) {
            return override;
        }
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof VersoPrincipal principal) {
            return principal;
        }
        return securityOn ? NOBODY : VersoPrincipal.SYSTEM;
    }

    /**
     * Acts for {@code principal} on this thread until the scope is closed: for a request answered before the
     * security filters (the front door's hot reads), which sets no security context.
     */
    public static Scope acting(VersoPrincipal principal) {
        VersoPrincipal previous = OVERRIDE.get();
        OVERRIDE.set(principal);
        return () -> {
            if (previous == null) {
                OVERRIDE.remove();
            } else {
                OVERRIDE.set(previous);
            }
        };
    }

    /** What {@link #acting} returns: closing it ends the acting. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** Runs the service's own work (retention) with every privilege. */
    public static <T> T asSystem(Supplier<T> work) {
        return as(VersoPrincipal.SYSTEM, work);
    }

    /**
     * Runs {@code work} for {@code principal} on this thread: for work a request hands to another
     * thread (a change stream), which carries no security context of its own.
     */
    public static <T> T as(VersoPrincipal principal, Supplier<T> work) {
        VersoPrincipal previous = OVERRIDE.get();
        OVERRIDE.set(principal);
        try {
            return work.get();
        } finally {
            if (previous == null) {
                OVERRIDE.remove();
            } else {
                OVERRIDE.set(previous);
            }
        }
    }
}
