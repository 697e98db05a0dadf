package io.verso.api.graphql;

import graphql.execution.instrumentation.Instrumentation;
import io.micrometer.common.KeyValue;
import io.verso.catalog.Catalog;
import io.verso.security.AccessControl;
import io.verso.security.Caller;
import io.verso.security.VersoPrincipal;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.graphql.execution.BatchLoaderRegistry;
import org.springframework.graphql.execution.DataFetcherExceptionResolver;
import org.springframework.graphql.observation.DefaultExecutionRequestObservationConvention;
import org.springframework.graphql.observation.ExecutionRequestObservationContext;
import org.springframework.graphql.observation.ExecutionRequestObservationConvention;
import org.springframework.graphql.observation.GraphQlObservationDocumentation;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.graphql.server.webmvc.GraphQlHttpHandler;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import reactor.core.publisher.Flux;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires the programmatic schema into Spring GraphQL: our {@link RefreshingGraphQlSource} replaces Boot's
 * file-based one and our {@link CatalogCheckedExecution} Boot's execution service; Boot's HTTP endpoint,
 * GraphiQL and batch loader registry stay as they are.
 */
@Configuration(proxyBeanMethods = false)
class GraphqlConfiguration {

    /** Boot configures GraphQL only when it sees schema files or a customizer; the schema here is built in code. */
    @Bean
    GraphQlSourceBuilderCustomizer versoProgrammaticSchema() {
        return builder -> {
        };
    }

    @Bean
    RefreshingGraphQlSource graphQlSource(JdbcTemplate jdbc, PlatformTransactionManager transactions, Catalog catalog,
                                GraphqlProperties properties, ObjectProvider<DataFetcherExceptionResolver> resolvers,
                                ObjectProvider<Instrumentation> instrumentations, AccessControl access,
                                FeedSubscriptions subscriptions) {
        RefreshingGraphQlSource.Audience audience = new RefreshingGraphQlSource.Audience() {
            @Override
            public String key() {
                VersoPrincipal caller = Caller.current();
                return caller.admin() ? null : new java.util.TreeSet<>(caller.roles()).toString();
            }

            @Override
            public java.util.List<io.verso.catalog.TableDef> visible(java.util.List<io.verso.catalog.TableDef> all) {
                VersoPrincipal caller = Caller.current();
                return all.stream().filter(t -> access.readable(caller, t)).toList();
            }
        };
        return new RefreshingGraphQlSource(jdbc, transactions, catalog, properties,
                resolvers.orderedStream().toList(), instrumentations.orderedStream().toList(), audience,
                subscriptions);
    }

    /** Queries run on the newest schema this instance has seen, checked once run: no catalog query before each. */
    @Bean
    CatalogCheckedExecution executionGraphQlService(RefreshingGraphQlSource source, BatchLoaderRegistry loaders,
                                                    BatchRunner runner) {
        return new CatalogCheckedExecution(source, loaders, runner);
    }

    /**
     * The HTTP endpoint reading and writing JSON with the application's mapper directly: Boot's handler goes through
     * MVC's whole list of message converters for every request, trying each in turn to read the body and again to
     * write the answer. The JSON is the same; the WebSocket handler (SocketSessions) uses the same converter.
     */
    @Bean
    GraphQlHttpHandler graphQlHttpHandler(WebGraphQlHandler handler, JsonMapper json) {
        return new GraphQlHttpHandler(handler, new JacksonJsonHttpMessageConverter(json));
    }

    /**
     * Spring GraphQL's request observation, telling the operation type of a read answered without graphql-java's
     * execution ({@link OneKeyReads}) too: the default convention takes it from the execution context, which
     * such a read has none of, and would say {@code operation}. It is a query.
     */
    @Bean
    ExecutionRequestObservationConvention graphqlRequestObservations() {
        KeyValue query = KeyValue.of(GraphQlObservationDocumentation.ExecutionRequestLowCardinalityKeyNames.OPERATION_TYPE,
                "query");
        return new DefaultExecutionRequestObservationConvention() {
            @Override
            protected KeyValue operationType(ExecutionRequestObservationContext context) {
                return context.getExecutionContext() == null
                        && OneKeyReads.answering(context.getExecutionInput().getGraphQLContext())
                        ? query : super.operationType(context);
            }
        };
    }

    /** One loader for every field: all jobs dispatched together become one engine call. */
    @Bean
    Object versoBatchLoader(BatchLoaderRegistry registry, BatchRunner runner) {
        registry.<Job, Outcome>forName(SchemaFactory.LOADER)
                .withOptions(options -> options.setCachingEnabled(false))
                .registerBatchLoader((jobs, environment) -> Flux.fromIterable(runner.run(jobs)));
        return SchemaFactory.LOADER;
    }
}
