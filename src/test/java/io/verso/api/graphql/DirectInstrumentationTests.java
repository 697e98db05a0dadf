package io.verso.api.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphqlErrorBuilder;
import graphql.execution.instrumentation.ChainedInstrumentation;
import graphql.execution.instrumentation.Instrumentation;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.SimplePerformantInstrumentation;
import graphql.execution.instrumentation.parameters.InstrumentationCreateStateParameters;
import graphql.execution.instrumentation.parameters.InstrumentationExecutionParameters;
import graphql.schema.GraphQLSchema;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@link DirectInstrumentation} calls each instrumentation as graphql-java's chain does for an execution: the same
 * calls, in the same order, each with its own state and the input and schema of the execution, and the result as
 * the last instrumentation makes it.
 */
class DirectInstrumentationTests {

    private static final GraphQLSchema SCHEMA = new SchemaGenerator().makeExecutableSchema(
            new SchemaParser().parse("type Query { a: Int }"), RuntimeWiring.newRuntimeWiring().build());

    /** Writes down every call it gets, with the state it was given; adds itself to the result's extensions. */
    private static final class Recording extends SimplePerformantInstrumentation {
        private final String name;
        private final List<String> calls;
        private final boolean context;
        private final boolean state;

        Recording(String name, List<String> calls, boolean context, boolean state) {
            this.name = name;
            this.calls = calls;
            this.context = context;
            this.state = state;
        }

        @Override
        public CompletableFuture<InstrumentationState> createStateAsync(InstrumentationCreateStateParameters parameters) {
            calls.add(name + " state " + parameters.getExecutionInput().getQuery() + " " + (parameters.getSchema() == SCHEMA));
            return state ? CompletableFuture.completedFuture(new Named(name)) : null;
        }

        @Override
        public InstrumentationContext<ExecutionResult> beginExecution(InstrumentationExecutionParameters parameters,
                                                                      InstrumentationState given) {
            calls.add(name + " begin " + given + " " + parameters.getQuery() + " " + (parameters.getSchema() == SCHEMA));
            if (!context) {
                return null;
            }
            return new InstrumentationContext<>() {
                @Override
                public void onDispatched() {
                    calls.add(name + " dispatched");
                }

                @Override
                public void onCompleted(ExecutionResult result, Throwable t) {
                    calls.add(name + " completed " + result.getData() + " " + result.getErrors().size() + " " + t);
                }
            };
        }

        @Override
        public CompletableFuture<ExecutionResult> instrumentExecutionResult(ExecutionResult result,
                                                                            InstrumentationExecutionParameters parameters,
                                                                            InstrumentationState given) {
            calls.add(name + " result " + given + " " + result.getExtensions());
            Map<Object, Object> extensions = new LinkedHashMap<>();
            if (result.getExtensions() != null) {
                extensions.putAll(result.getExtensions());
            }
            extensions.put(name, extensions.size());
            return CompletableFuture.completedFuture(result.transform(b -> b.extensions(extensions)));
        }
    }

    private record Named(String name) implements InstrumentationState {
        @Override
        public String toString() {
            return "state of " + name;
        }
    }

    /**
     * Instrumentations of every kind (with and without state or context), two of them inside a chain of their own,
     * one inside a subclass of the chain, which adds a call of its own.
     */
    private static Instrumentation instrumentations(List<String> calls) {
        Instrumentation subclass = new ChainedInstrumentation(new Recording("e", calls, true, true)) {
            @Override
            public InstrumentationContext<ExecutionResult> beginExecution(InstrumentationExecutionParameters parameters,
                                                                          InstrumentationState state) {
                calls.add("subclass begin");
                return super.beginExecution(parameters, state);
            }
        };
        return new ChainedInstrumentation(new Recording("a", calls, true, true),
                new ChainedInstrumentation(new Recording("b", calls, false, true), new Recording("c", calls, true, false)),
                new Recording("d", calls, true, true), subclass);
    }

    @Test
    void eachInstrumentationIsCalledAsTheChainCallsItForAnExecution() {
        for (ExecutionResult completed : List.of(ExecutionResult.newExecutionResult().data(Map.of("a", 1)).build(),
                ExecutionResult.newExecutionResult().addError(GraphqlErrorBuilder.newError().message("no").build()).build())) {
            ExecutionInput input = ExecutionInput.newExecutionInput().query("{ a }").build();

            List<String> chained = new ArrayList<>();
            Instrumentation chain = instrumentations(chained);
            InstrumentationState state = chain.createStateAsync(new InstrumentationCreateStateParameters(SCHEMA, input)).join();
            InstrumentationExecutionParameters parameters = new InstrumentationExecutionParameters(input, SCHEMA);
            InstrumentationContext<ExecutionResult> context = chain.beginExecution(parameters, state);
            context.onDispatched();
            context.onCompleted(completed, null);
            ExecutionResult byChain = chain.instrumentExecutionResult(completed, parameters, state).join();

            List<String> direct = new ArrayList<>();
            DirectInstrumentation.Execution execution = new DirectInstrumentation(instrumentations(direct)).begin(input, SCHEMA);
            execution.completed(completed);
            ExecutionResult byDirect = execution.instrumented(completed);

            assertThat(direct).isEqualTo(chained).hasSize(5 + 6 + 4 + 4 + 5);
            assertThat(byDirect.toSpecification()).isEqualTo(byChain.toSpecification());
            assertThat(byDirect.getExtensions()).containsExactly(Map.entry("a", 0), Map.entry("b", 1), Map.entry("c", 2),
                    Map.entry("d", 3), Map.entry("e", 4));
        }
    }

    @Test
    void noInstrumentationIsNothingToCall() {
        ExecutionResult result = ExecutionResult.newExecutionResult().data(Map.of("a", 1)).build();
        DirectInstrumentation.Execution execution = new DirectInstrumentation(null)
                .begin(ExecutionInput.newExecutionInput().query("{ a }").build(), SCHEMA);
        execution.completed(result);
        assertThat(execution.instrumented(result)).isSameAs(result);
    }
}
