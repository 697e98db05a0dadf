package io.verso.api.graphql;

import graphql.ExecutionResult;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.SimplePerformantInstrumentation;
import graphql.execution.instrumentation.parameters.InstrumentationExecutionParameters;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Reports in {@code extensions.verso.commit} the commit the response was served at: the one its
 * reads saw, or the one its mutations made. A string, like every commit sequence on the wire.
 */
final class CommitExtension extends SimplePerformantInstrumentation {

    @Override
    public CompletableFuture<ExecutionResult> instrumentExecutionResult(ExecutionResult result,
                                                                        InstrumentationExecutionParameters parameters,
                                                                        InstrumentationState state) {
        RequestState request = parameters.getGraphQLContext().get(RequestState.class);
        if (request == null) {
            return CompletableFuture.completedFuture(result);
        }
        Long commit = request.writeCommit() != null ? request.writeCommit() : request.readCommit();
        if (commit == null) {
            return CompletableFuture.completedFuture(result);
        }
        Map<Object, Object> extensions = new LinkedHashMap<>();
        if (result.getExtensions() != null) {
            extensions.putAll(result.getExtensions());
        }
        extensions.put("verso", Map.of("commit", commit.toString()));
        return CompletableFuture.completedFuture(result.transform(b -> b.extensions(extensions)));
    }
}
