package io.verso.engine;

import java.util.List;

/**
 * The outcome of one request.
 *
 * @param commit     the commit the request made, or null when it wrote nothing
 * @param readCommit the latest commit its reads saw (its own commit when it wrote)
 * @param catalogVersion the catalog version a read-only request's snapshot held, null when not known
 * @param lastChanged of a read of current rows in one statement, the latest commit that changed a key it
 *        names (compile.SelectCompiler#keysLastChanged), or else wrote a table it read (0 when none did; null
 *        when not known): its answer changes only with a later such commit or catalog version, which is what
 *        lets a conditional GET be answered without rendering it (api.rest)
 */
public record ExecutionResult(Long commit, long readCommit, List<StatementResult> results, boolean readPast,
                              Long catalogVersion, Long lastChanged) {

    public ExecutionResult(Long commit, long readCommit, List<StatementResult> results, boolean readPast) {
        this(commit, readCommit, results, readPast, null, null);
    }

    /** {@code readPast}: some statement read a relation at a fixed commit (AS OF), for the metrics. */
    public ExecutionResult(Long commit, long readCommit, List<StatementResult> results) {
        this(commit, readCommit, results, false);
    }
}
