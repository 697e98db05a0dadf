package io.verso.security;

import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * Admission for statement requests that do not come over HTTP (the PostgreSQL wire protocol): the same
 * classes, places and rules as a {@code /v1/sql} request of the same size ({@link AdmissionFilter}), so a
 * connection of another protocol cannot run more heavy queries at once than HTTP callers may.
 */
@Component
public class StatementAdmission {

    private final AdmissionFilter filter;

    StatementAdmission(AdmissionFilter filter) {
        this.filter = filter;
    }

    /**
     * Runs {@code work}, a request of {@code bytes} bytes of statement text from {@code address}, once admitted;
     * it calls {@link Admission#admit} after parsing, as the {@code /v1/sql} controller does. Throws RATE_LIMITED
     * over the caller's rate limit, OVERLOADED when its class stays full.
     */
    public <T> T run(long bytes, String address, Supplier<T> work) {
        return filter.admitStatements(bytes, address, work);
    }
}
