package io.verso.ops;

import io.verso.config.StartupException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Prints a {@link StartupException} as Spring Boot's "APPLICATION FAILED TO START" description and action. */
class StartupFailureAnalyzer extends AbstractFailureAnalyzer<StartupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, StartupException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
