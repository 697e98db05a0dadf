package io.verso.api.graphql;

import graphql.ExecutionInput;
import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.GraphQLContext;
import graphql.GraphqlErrorBuilder;
import graphql.schema.GraphQLSchema;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.graphql.ExecutionGraphQlRequest;
import org.springframework.graphql.ExecutionGraphQlResponse;
import org.springframework.graphql.ExecutionGraphQlService;
import org.springframework.graphql.execution.BatchLoaderRegistry;
import org.springframework.graphql.execution.ContextPropagationHelper;
import org.springframework.graphql.execution.DefaultExecutionGraphQlService;
import org.springframework.graphql.execution.GraphQlSource;
import org.springframework.graphql.server.WebGraphQlRequest;
import org.springframework.graphql.support.DefaultExecutionGraphQlResponse;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Runs a GraphQL request on the schema of the newest catalog version this instance has seen, and checks
 * afterwards that it was the catalog the request's reads saw, instead of asking the database for the
 * catalog's version before every request ({@link RefreshingGraphQlSource}): that was a round trip of its
 * own, a second statement beside the read's.
 *
 * <p>The catalog version only grows, and every engine read returns the version its snapshot held. So a
 * query's answer stands when its reads all held the version of the schema it was validated and run on,
 * and it had no error; else when the version is still that one now (one query, as before: a request that
 * read nothing, such as an introspection, or one that failed). Otherwise (the catalog changed, or the
 * database is away) the request runs again, as it always did, on the schema of the version it reads first.
 * A mutation or subscription never runs on an unchecked schema: a document that may hold one runs checked
 * ({@link #onlyQueries}), decided before it starts.
 * A query that runs again is observed twice ({@code graphql.request}): that happens after a catalog change,
 * not at every request.
 *
 * <p>A read of one row by key is answered without graphql-java ({@link OneKeyReads}), on the same newest schema and
 * under the same check, its execution instrumented as graphql-java's would be (the request's observation, the
 * commit extension), its fields' data fetchers not (there are none). One that the check or its read turns down
 * runs again as any other query, and is observed twice.
 */
final class CatalogCheckedExecution implements ExecutionGraphQlService {

    private final RefreshingGraphQlSource source;
    private final ExecutionGraphQlService assumed;
    private final ExecutionGraphQlService checked;
    private final BatchRunner runner;
    private final AtomicLong shortcuts = new AtomicLong();

    CatalogCheckedExecution(RefreshingGraphQlSource source, BatchLoaderRegistry loaders, BatchRunner runner) {
        this.source = source;
        this.runner = runner;
        this.checked = service(source, loaders);
        this.assumed = service(new GraphQlSource() {
            @Override
            public GraphQL graphQl() {
                GraphQL newest = source.assumed();
                return newest != null ? newest : source.graphQl();
            }

            @Override
            public GraphQLSchema schema() {
                return source.schema();
            }
        }, loaders);
    }

    private static ExecutionGraphQlService service(GraphQlSource source, BatchLoaderRegistry loaders) {
        DefaultExecutionGraphQlService service = new DefaultExecutionGraphQlService(source);
        service.addDataLoaderRegistrar(loaders);
        return service;
    }

    @Override
    public Mono<ExecutionGraphQlResponse> execute(ExecutionGraphQlRequest request) {
        if (!onlyQueries(request.getDocument())) {
            return checked.execute(request);
        }
        if (source.assumedShortcut() == null || request instanceof WebGraphQlRequest web
                && web.getAttributes().containsKey(GraphqlRead.TRIED)) {
            return unchecked(request); // none to answer on, or the filter tried already
        }
        return Mono.deferContextual(view -> {
            Shortcut taken = shortcut(input(request, view));
            return switch (taken.fate()) {
                case ANSWERED -> Mono.just(taken.response());
                case CATALOG_CHANGED -> checked.execute(request);
                case NOT_ANSWERED -> unchecked(request);
            };
        });
    }

    /**
     * The answer to a read of one row by key given without graphql-java ({@link OneKeyReads}), or null when
     * {@code input} is not one, or its answer does not stand: then it is for {@link #execute}.
     */
    ExecutionGraphQlResponse oneKeyAnswer(ExecutionInput input) {
        return shortcut(input).response();
    }

    private Shortcut shortcut(ExecutionInput input) {
        RefreshingGraphQlSource.Assumed newest = source.assumedShortcut();
        OneKeyReads.Read read = newest == null ? null : newest.oneKeyReads().read(input);
        return read == null ? new Shortcut(Fate.NOT_ANSWERED, null) : answer(read, input, newest);
    }

    /** Requests answered without graphql-java so far: what tests check the shortcut against. */
    long shortcuts() {
        return shortcuts.get();
    }

    private Mono<ExecutionGraphQlResponse> unchecked(ExecutionGraphQlRequest request) {
        return assumed.execute(request).flatMap(response -> stands(response)
                ? Mono.just(response) : checked.execute(request));
    }

    /** The request's input, with the Reactor context's thread-local values, as Spring's execution service makes it. */
    private static ExecutionInput input(ExecutionGraphQlRequest request, ContextView view) {
        ExecutionInput input = request.toExecutionInput();
        ContextSnapshotFactory factory = ContextPropagationHelper.getInstance(view);
        ContextPropagationHelper.saveInstance(factory, input.getGraphQLContext());
        factory.captureFrom(view).updateContext(input.getGraphQLContext());
        return input;
    }

    private enum Fate { ANSWERED, NOT_ANSWERED, CATALOG_CHANGED }

    private record Shortcut(Fate fate, ExecutionGraphQlResponse response) {
    }

    /**
     * Runs the read under the instrumentation of an execution; its answer stands when the read held the schema's
     * catalog version and gave a value graphql-java would answer as is.
     */
    private Shortcut answer(OneKeyReads.Read read, ExecutionInput input, RefreshingGraphQlSource.Assumed newest) {
        DirectInstrumentation.Execution execution = newest.instrumentation().begin(input, newest.schema());
        Outcome outcome = runner.run(List.of(read.job())).get(0);
        boolean sameCatalog = read.job().state().catalogVersions().equals(Set.of(newest.version()));
        Map<String, Object> data = outcome.error() != null || !sameCatalog ? null
                : read.data((Row) outcome.value(), input.getGraphQLContext(), input.getLocale());
        if (data == null) {
            // Observed as what it was, an attempt that does not stand; the request runs again.
            String why = outcome.error() != null ? outcome.error().getMessage()
                    : !sameCatalog ? "the catalog changed" : "a value graphql-java reports";
            execution.completed(ExecutionResult.newExecutionResult()
                    .addError(GraphqlErrorBuilder.newError().message("run again: " + why).build()).build());
            return new Shortcut(outcome.error() == null && !sameCatalog ? Fate.CATALOG_CHANGED : Fate.NOT_ANSWERED,
                    null);
        }
        ExecutionResult result = ExecutionResult.newExecutionResult().data(data).build();
        execution.completed(result);
        result = execution.instrumented(result);
        shortcuts.incrementAndGet();
        return new Shortcut(Fate.ANSWERED, new DefaultExecutionGraphQlResponse(input, result));
    }

    /**
     * Whether every operation of {@code document} is a query, told without parsing it: an operation of another
     * type begins with the name {@code mutation} or {@code subscription}, and neither occurs as a name in it.
     * A document that holds either word anywhere (a string, a comment) runs checked, so nothing but a query is
     * ever started on an unchecked schema: a mutation would count as a failed request in the metrics first.
     */
    static boolean onlyQueries(String document) {
        return document != null && !holdsName(document, "mutation") && !holdsName(document, "subscription");
    }

    private static boolean holdsName(String text, String name) {
        for (int at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
            int end = at + name.length();
            if ((at == 0 || !nameChar(text.charAt(at - 1))) && (end == text.length() || !nameChar(text.charAt(end)))) {
                return true;
            }
        }
        return false;
    }

    /** A character of a GraphQL name after its first: {@code [_0-9A-Za-z]}. */
    private static boolean nameChar(char c) {
        return c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
    }

    private boolean stands(ExecutionGraphQlResponse response) {
        GraphQLContext context = response.getExecutionInput().getGraphQLContext();
        AssumedCatalog assumption = context.get(AssumedCatalog.class);
        if (assumption == null) {
            return true; // it ran on a checked schema
        }
        RequestState state = context.get(RequestState.class);
        Set<Long> read = state == null ? Set.of() : state.catalogVersions();
        long version = assumption.version();
        if (read.stream().anyMatch(v -> v != version && v != RequestState.UNKNOWN_VERSION)) {
            return false;
        }
        return read.equals(Set.of(version)) && response.getErrors().isEmpty() || source.stillCurrent(version);
    }
}
