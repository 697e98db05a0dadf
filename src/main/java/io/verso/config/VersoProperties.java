package io.verso.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Service settings, from {@code verso.*} in application.yml or VERSO_* environment variables.
 *
 * @param statementTimeout longest a request's statements may run before PostgreSQL cancels them
 * @param maxRequestBytes  largest request body accepted; larger ones get 413
 * @param maxStatements    most statements in one request
 * @param maxResultRows    most result rows one request returns, over all its statements; more are refused, not
 *                         truncated
 * @param maxResultChars   most characters of values one request returns, over all its statements (about their
 *                         size in memory, halved)
 * @param workMem          PostgreSQL's work_mem for a request's transaction: memory of one sort or hash
 *                         before it spills to temporary files
 * @param tempFileLimit    PostgreSQL's temp_file_limit for a request's transaction: most temporary file
 *                         space one backend may use (a sort of a cartesian join); 0 leaves the server's
 * @param maxConcatBytes   most bytes a statement's guarded values ({@code ||} chains, concat, replace, lpad,
 *                         rpad) may build together in a row, results and intermediate results (PostgreSQL keeps
 *                         every value of a row until the row is done); each gets an equal share
 * @param maxRecursiveRows most rows the recursive steps of WITH RECURSIVE may make in one request; past it the
 *                         statement is refused (RECURSION_LIMIT) instead of running to the statement timeout
 */
@ConfigurationProperties("verso")
public record VersoProperties(@DefaultValue("30s") Duration statementTimeout,
                              @DefaultValue("16777216") long maxRequestBytes,
                              @DefaultValue("100") int maxStatements,
                              @DefaultValue("100000") int maxResultRows,
                              @DefaultValue("33554432") long maxResultChars,
                              @DefaultValue("16MB") DataSize workMem,
                              @DefaultValue("1GB") DataSize tempFileLimit,
                              @DefaultValue("128MB") DataSize maxConcatBytes,
                              @DefaultValue("1000000") long maxRecursiveRows) {
}
