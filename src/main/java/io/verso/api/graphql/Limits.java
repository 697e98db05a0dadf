package io.verso.api.graphql;

import graphql.ExecutionResult;
import graphql.analysis.MaxQueryComplexityInstrumentation;
import graphql.analysis.MaxQueryDepthInstrumentation;
import graphql.analysis.QueryTraverser;
import graphql.analysis.QueryVisitorFieldEnvironment;
import graphql.analysis.QueryVisitorStub;
import graphql.execution.AbortExecutionException;
import graphql.execution.ExecutionContext;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.SimpleInstrumentationContext;
import graphql.execution.instrumentation.parameters.InstrumentationExecuteOperationParameters;
import graphql.language.Field;
import io.verso.error.ErrorCode;
import java.util.Map;

/**
 * Depth and complexity limits (graphql-java's instrumentations) with errors a client can branch
 * on: code {@code INVALID_REQUEST} and the name of the limit. Operations that only introspect
 * ({@code __schema}, {@code __type}) are exempt, so GraphiQL's deep introspection query works;
 * graphql-java's own good-faith introspection checks guard those.
 */
final class Limits {

    private Limits() {
    }

    static MaxQueryDepthInstrumentation depth(int max) {
        return new MaxQueryDepthInstrumentation(max) {
            @Override
            public InstrumentationContext<ExecutionResult> beginExecuteOperation(
                    InstrumentationExecuteOperationParameters parameters, InstrumentationState state) {
                return introspectionOnly(parameters.getExecutionContext()) ? SimpleInstrumentationContext.noOp()
                        : super.beginExecuteOperation(parameters, state);
            }

            @Override
            protected AbortExecutionException mkAbortException(int depth, int maxDepth) {
                return new LimitExceeded("the query is " + depth + " levels deep; at most " + maxDepth
                        + " are allowed (verso.graphql.max-depth)", "maxDepth");
            }
        };
    }

    /**
     * The complexity graphql-java's default calculator gives (each field 1 plus its children, {@code __typename}
     * 0: the number of fields selected, aliases counted), counted without its calculator, which keys a map by
     * each field's environment and so hashes every argument value, a whole batch of rows per mutation field.
     */
    static MaxQueryComplexityInstrumentation complexity(int max) {
        return new MaxQueryComplexityInstrumentation(max) {
            @Override
            public InstrumentationContext<ExecutionResult> beginExecuteOperation(
                    InstrumentationExecuteOperationParameters parameters, InstrumentationState state) {
                ExecutionContext context = parameters.getExecutionContext();
                if (introspectionOnly(context)) {
                    return SimpleInstrumentationContext.noOp();
                }
                int[] fields = {0};
                QueryTraverser.newQueryTraverser()
                        .schema(context.getGraphQLSchema())
                        .document(context.getDocument())
                        .operationName(context.getExecutionInput().getOperationName())
                        .coercedVariables(context.getCoercedVariables())
                        .build()
                        .visitPostOrder(new QueryVisitorStub() {
                            @Override
                            public void visitField(QueryVisitorFieldEnvironment env) {
                                if (!env.isTypeNameIntrospectionField()) {
                                    fields[0]++;
                                }
                            }
                        });
                if (fields[0] > max) {
                    throw mkAbortException(fields[0], max);
                }
                return SimpleInstrumentationContext.noOp();
            }

            @Override
            protected AbortExecutionException mkAbortException(int complexity, int maxComplexity) {
                return new LimitExceeded("the query selects " + complexity + " fields (aliases counted); at most "
                        + maxComplexity + " are allowed (verso.graphql.max-complexity)", "maxComplexity");
            }
        };
    }

    static boolean introspectionOnly(ExecutionContext context) {
        return context.getOperationDefinition().getSelectionSet().getSelections().stream()
                .allMatch(s -> s instanceof Field f && f.getName().startsWith("__"));
    }

    /** A refused operation: nothing ran. */
    static final class LimitExceeded extends AbortExecutionException {
        private final String limit;

        LimitExceeded(String message, String limit) {
            super(message);
            this.limit = limit;
        }

        @Override
        public Map<String, Object> getExtensions() {
            return Map.of("code", ErrorCode.INVALID_REQUEST.name(), "limit", limit);
        }
    }
}
