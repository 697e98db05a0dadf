package io.verso.engine;

import java.util.List;

/**
 * The outcome of one request.
 *
 * @param commit     the commit the request made, or null when it wrote nothing
 * @param readCommit the latest commit its reads saw (its own commit when it wrote)
 */
public record ExecutionResult(Long commit, long readCommit, List<StatementResult> results, boolean readPast) {

    /** {@code readPast}: some statement read a relation at a fixed commit (AS OF), for the metrics. */
    public ExecutionResult(Long commit, long readCommit, List<StatementResult> results) {
        this(commit, readCommit, results, false);
    }
}
