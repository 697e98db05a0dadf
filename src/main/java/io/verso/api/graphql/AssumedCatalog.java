package io.verso.api.graphql;

import graphql.ExecutionResult;
import graphql.execution.AbortExecutionException;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.SimpleInstrumentationContext;
import graphql.execution.instrumentation.SimplePerformantInstrumentation;
import graphql.execution.instrumentation.parameters.InstrumentationExecuteOperationParameters;
import graphql.execution.instrumentation.parameters.InstrumentationExecutionParameters;
import graphql.language.OperationDefinition;

/**
 * The mark of an execution on the schema of the newest catalog version this instance has seen, taken
 * without asking the database whether it is still the newest ({@link CatalogCheckedExecution}). Put in
 * the request's GraphQLContext before the document is parsed, so the answer of every such execution can
 * be checked afterwards, a refused one included. Only a query may run so: it stops any other operation
 * before it runs, since a mutation's writes could not be taken back, nor a subscription's stream.
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

    @Override
    public InstrumentationContext<ExecutionResult> beginExecuteOperation(
            InstrumentationExecuteOperationParameters parameters, InstrumentationState state) {
        if (parameters.getExecutionContext().getOperationDefinition().getOperation()
                != OperationDefinition.Operation.QUERY) {
            parameters.getExecutionContext().getGraphQLContext().put(NotAQuery.class, Boolean.TRUE);
            throw new NotAQuery();
        }
        return SimpleInstrumentationContext.noOp();
    }

    /** A mutation or subscription stopped before it ran: it runs again on a checked schema. */
    static final class NotAQuery extends AbortExecutionException {
        NotAQuery() {
            super("only a query runs on an unchecked schema");
        }
    }
}
