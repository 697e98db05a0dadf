package io.verso.api.graphql;

import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementResult;
import io.verso.sql.ast.Statement;
import io.verso.surface.ReadBuilder;
import java.util.List;

/**
 * The work one GraphQL field hands to the request's batch: syntax trees of statements, and how to
 * turn their results into the field's value. Jobs compare by identity, so two aliases asking the
 * same thing are two jobs and two identical mutations write twice.
 */
interface Job {

    RequestState state();

    /** True for mutations: a batch is all writes (one commit) or all reads (one snapshot). */
    default boolean writes() {
        return false;
    }

    /**
     * The statements to run, their values bound through {@code b} (which every job of the batch
     * shares) and their nodes placed with {@link ReadBuilder#at}, so an error names this job's input.
     * {@code pinned} is the commit this request already reads at, when an earlier engine call fixed
     * it: reads of VERSIONED and APPEND tables without an asOfCommit of their own are then made AS OF
     * it, so every part of the response shows one commit.
     */
    List<Statement> statements(ReadBuilder b, Long pinned);

    /** The field's value from the results of its statements, in order. */
    Object complete(List<StatementResult> results, ExecutionResult execution);
}
