package io.verso.config;

/**
 * Why the service refuses to start, worded for the operator reading the log, with what to do
 * about it. {@link StartupFailureAnalyzer} prints both instead of a stack trace.
 */
public class StartupException extends RuntimeException {

    private final String action;

    public StartupException(String message, String action, Throwable cause) {
        super(message, cause);
        this.action = action;
    }

    public String action() {
        return action;
    }
}
