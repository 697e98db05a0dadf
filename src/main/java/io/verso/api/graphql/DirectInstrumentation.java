package io.verso.api.graphql;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.execution.instrumentation.ChainedInstrumentation;
import graphql.execution.instrumentation.Instrumentation;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.parameters.InstrumentationCreateStateParameters;
import graphql.execution.instrumentation.parameters.InstrumentationExecutionParameters;
import graphql.schema.GraphQLSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The instrumentations of a schema's executions, called for a read answered without graphql-java's execution
 * ({@link OneKeyReads}): each in its turn with its own state, in the order and with the arguments graphql-java's
 * {@link ChainedInstrumentation} calls them for an execution (its state created, the execution begun, dispatched
 * and completed, its result instrumented by each in turn), without the chain's lists and futures, which cost a
 * tenth of such a read's CPU. Only the calls an execution makes before and after its operation are made: there is
 * no document, operation or field to instrument.
 */
final class DirectInstrumentation {

    private final List<Instrumentation> instrumentations;

    /**
     * The instrumentations of {@code instrumentation}, a chain of them taken apart, in the chain's order. A subclass
     * of the chain is called as it is: what it adds to the chain's calls is its own.
     */
    DirectInstrumentation(Instrumentation instrumentation) {
        List<Instrumentation> flat = new ArrayList<>();
        flatten(instrumentation, flat);
        this.instrumentations = List.copyOf(flat);
    }

    private static void flatten(Instrumentation instrumentation, List<Instrumentation> into) {
        if (instrumentation instanceof ChainedInstrumentation chain
                && chain.getClass() == ChainedInstrumentation.class) {
            chain.getInstrumentations().forEach(i -> flatten(i, into));
        } else if (instrumentation != null) {
            into.add(instrumentation);
        }
    }

    /** The execution of {@code input} on {@code schema}, begun and dispatched. */
    Execution begin(ExecutionInput input, GraphQLSchema schema) {
        InstrumentationCreateStateParameters created = new InstrumentationCreateStateParameters(schema, input);
        InstrumentationExecutionParameters parameters = new InstrumentationExecutionParameters(input, schema);
        int count = instrumentations.size();
        InstrumentationState[] states = new InstrumentationState[count];
        List<InstrumentationContext<ExecutionResult>> contexts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            CompletableFuture<InstrumentationState> state = instrumentations.get(i).createStateAsync(created);
            states[i] = state == null ? null : state.join();
        }
        for (int i = 0; i < count; i++) {
            InstrumentationContext<ExecutionResult> context =
                    instrumentations.get(i).beginExecution(parameters, states[i]);
            if (context != null) {
                contexts.add(context);
            }
        }
        contexts.forEach(InstrumentationContext::onDispatched);
        return new Execution(parameters, states, contexts);
    }

    /** One execution under way. */
    final class Execution {
        private final InstrumentationExecutionParameters parameters;
        private final InstrumentationState[] states;
        private final List<InstrumentationContext<ExecutionResult>> contexts;

        private Execution(InstrumentationExecutionParameters parameters, InstrumentationState[] states,
                          List<InstrumentationContext<ExecutionResult>> contexts) {
            this.parameters = parameters;
            this.states = states;
            this.contexts = contexts;
        }

        /** The execution completed with {@code result} (before it is instrumented). */
        void completed(ExecutionResult result) {
            for (InstrumentationContext<ExecutionResult> context : contexts) {
                context.onCompleted(result, null);
            }
        }

        /** {@code result} as each instrumentation in turn makes it. */
        ExecutionResult instrumented(ExecutionResult result) {
            for (int i = 0; i < instrumentations.size(); i++) {
                result = instrumentations.get(i).instrumentExecutionResult(result, parameters, states[i]).join();
            }
            return result;
        }
    }
}
