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
        if (!onlyQueries(request.getDocument())) {
            return checked.execute(request);
        }
        return assumed.execute(request).flatMap(response -> stands(response)
                ? Mono.just(response) : checked.execute(request));
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
