package io.verso.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Service settings, from {@code verso.*} in application.yml or VERSO_* environment variables.
 *
 * @param statementTimeout longest a request's statements may run before PostgreSQL cancels them
 * @param maxRequestBytes  largest request body accepted; larger ones get 413
 * @param maxStatements    most statements in one request
 * @param maxResultRows    most rows one read returns; larger results are refused, not truncated
 * @param maxResultChars   most characters of values one read returns (about its size in memory, halved)
 */
@ConfigurationProperties("verso")
public record VersoProperties(@DefaultValue("30s") Duration statementTimeout,
                              @DefaultValue("16777216") long maxRequestBytes,
                              @DefaultValue("100") int maxStatements,
                              @DefaultValue("100000") int maxResultRows,
                              @DefaultValue("33554432") long maxResultChars) {
}
