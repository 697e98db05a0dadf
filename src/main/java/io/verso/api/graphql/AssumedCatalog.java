package io.verso.api.graphql;

import graphql.ExecutionResult;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.SimpleInstrumentationContext;
import graphql.execution.instrumentation.SimplePerformantInstrumentation;
import graphql.execution.instrumentation.parameters.InstrumentationExecutionParameters;

/**
 * The mark of an execution on the schema of the newest catalog version this instance has seen, taken
 * without asking the database whether it is still the newest ({@link CatalogCheckedExecution}, which runs
 * only queries so). Put in the request's GraphQLContext before the document is parsed, so the answer of
 * every such execution can be checked afterwards, one that failed validation included.
 */
final class AssumedCatalog extends SimplePerformantInstrumentation {

    private final long version;

    AssumedCatalog(long version) {
        this.version = version;
    }

    /** The catalog version of the schema the execution ran on. */
    long version() {
        return version;
    }

    @Override
    public InstrumentationContext<ExecutionResult> beginExecution(InstrumentationExecutionParameters parameters,
                                                                  InstrumentationState state) {
        parameters.getGraphQLContext().put(AssumedCatalog.class, this);
        return SimpleInstrumentationContext.noOp();
    }
}
