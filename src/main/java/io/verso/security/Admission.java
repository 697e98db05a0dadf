package io.verso.security;

import java.util.function.BooleanSupplier;

/**
 * Admission of a {@code /v1/sql} request by what its statements do: {@link AdmissionFilter} lets a small
 * one through without a place, and the controller, once it has parsed the statements, asks for a light or a
 * heavy place here ({@code analyze.Weight} says which). A full class throws {@code 503 OVERLOADED}; the
 * place is given back when the request ends. Outside such a request (admission off, any other path, a
 * request already admitted by its path) asking is a no-op.
 */
public final class Admission {

    /** The place a request still has to take, and gives back at its end. */
    interface Ticket {
        void admit(boolean light);
    }

    private static final ThreadLocal<Ticket> CURRENT = new ThreadLocal<>();

    private Admission() {
    }

    /**
     * Takes a light or a heavy place for the running request, waiting at most the admission wait. {@code light}
     * is asked only when a place is still to take: judging a large request's statements would be wasted work.
     */
    public static void admit(BooleanSupplier light) {
        Ticket ticket = CURRENT.get();
        if (ticket != null) {
            ticket.admit(light.getAsBoolean());
        }
    }

    static void set(Ticket ticket) {
        if (ticket == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(ticket);
        }
    }
}
