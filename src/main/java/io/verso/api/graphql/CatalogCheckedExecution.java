package io.verso.api.graphql;

import graphql.GraphQL;
import graphql.GraphQLContext;
import graphql.schema.GraphQLSchema;
import java.util.Set;
import org.springframework.graphql.ExecutionGraphQlRequest;
import org.springframework.graphql.ExecutionGraphQlResponse;
import org.springframework.graphql.ExecutionGraphQlService;
import org.springframework.graphql.execution.BatchLoaderRegistry;
import org.springframework.graphql.execution.DefaultExecutionGraphQlService;
import org.springframework.graphql.execution.GraphQlSource;
import reactor.core.publisher.Mono;

/**
 * Runs a GraphQL request on the schema of the newest catalog version this instance has seen, and checks
 * afterwards that it was the catalog the request's reads saw, instead of asking the database for the
 * catalog's version before every request ({@link RefreshingGraphQlSource}): that was a round trip of its
 * own, beside the read, and it doubled what a one-key read cost PostgreSQL.
 *
 * <p>The catalog version only grows, and every engine read returns the version its snapshot held. So a
 * query's answer stands when its reads all held the version of the schema it was validated and run on,
 * and it had no error; else when the version is still that one now (one query, as before: a request that
 * read nothing, such as an introspection, or one that failed). Otherwise (the catalog changed, or the
 * database is away) the request runs again, as it always did, on the schema of the version it reads first.
 * A mutation or subscription never runs on an unchecked schema ({@link AssumedCatalog}): it is stopped
 * before it starts and run the checked way.
 */
final class CatalogCheckedExecution implements ExecutionGraphQlService {

    private final RefreshingGraphQlSource source;
    private final ExecutionGraphQlService assumed;
    private final ExecutionGraphQlService checked;

    CatalogCheckedExecution(RefreshingGraphQlSource source, BatchLoaderRegistry loaders) {
        this.source = source;
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
        return assumed.execute(request).flatMap(response -> stands(response)
                ? Mono.just(response) : checked.execute(request));
    }

    private boolean stands(ExecutionGraphQlResponse response) {
        GraphQLContext context = response.getExecutionInput().getGraphQLContext();
        AssumedCatalog assumption = context.get(AssumedCatalog.class);
        if (assumption == null) {
            return true; // it ran on a checked schema
        }
        if (context.hasKey(AssumedCatalog.NotAQuery.class)) {
            return false;
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
