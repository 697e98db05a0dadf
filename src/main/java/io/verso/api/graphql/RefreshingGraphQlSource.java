package io.verso.api.graphql;

import graphql.GraphQL;
import graphql.execution.AsyncExecutionStrategy;
import graphql.execution.instrumentation.ChainedInstrumentation;
import graphql.execution.instrumentation.Instrumentation;
import graphql.schema.GraphQLSchema;
import io.verso.catalog.Catalog;
import io.verso.catalog.TableDef;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.support.DataAccessUtils;
import org.springframework.graphql.execution.DataFetcherExceptionResolver;
import org.springframework.graphql.execution.GraphQlSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SingleColumnRowMapper;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The GraphQL schema of the current catalog, rebuilt when the catalog changes, without a restart.
 *
 * <p>Spring GraphQL asks {@link #graphQl()} once per request and runs the whole request on the
 * instance it gets. Each instance is immutable and fully built before it is published through an
 * {@link AtomicReference}, so a request sees either the old schema or the new one, never a
 * half-built one, and keeps it to the end even if a newer one is published meanwhile.
 *
 * <p>A query runs on the schema of the newest fingerprint a request has read ({@link #assumed}), checked
 * once it has run ({@link CatalogCheckedExecution}). Before any other request, and before a query that did
 * not stand that check, one cheap query takes the catalog's fingerprint: verso.catalog_version, which
 * every catalog change increments in its own transaction. When it
 * matches the published schema, that schema is used and nothing waits. When it does not, the first
 * request to notice builds the new schema on its own thread, reading the fingerprint and the
 * catalog in one snapshot, and requests that need that same new schema wait for that one build
 * instead of starting their own; a request never waits for a build it does not need.
 */
final class RefreshingGraphQlSource implements GraphQlSource {

    private static final Logger log = LoggerFactory.getLogger(RefreshingGraphQlSource.class);

    private static final String FINGERPRINT = "SELECT CAST(version AS text) FROM verso.catalog_version";
    /** Derived tables: written only from their sources' commits, so they get no mutations. */
    private static final String DERIVED = "SELECT t.name FROM verso.derived_tables d JOIN verso.user_tables t"
            + " ON t.id = d.table_id";

    /**
     * A schema and the GraphQL that runs it; {@code assuming}, the same with {@link AssumedCatalog} first, for
     * requests that run on it unchecked.
     */
    private record Built(String fingerprint, GraphQL graphQl, GraphQLSchema schema, GraphQL assuming,
                         Assumed shortcut) {
    }

    /**
     * The newest schema, for a request that runs on it unchecked without graphql-java: its catalog version, the
     * instrumentations every execution on it goes through, and the one-key reads it answers.
     */
    record Assumed(long version, GraphQLSchema schema, DirectInstrumentation instrumentation,
                   OneKeyReads oneKeyReads) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate snapshot;
    private final Catalog catalog;
    private final GraphqlProperties properties;
    private final List<DataFetcherExceptionResolver> resolvers;
    private final List<Instrumentation> instrumentations;
    private final AtomicReference<Built> current = new AtomicReference<>();
    /** Schemas of callers who see fewer tables than the whole catalog, by fingerprint and audience. */
    private final ConcurrentMap<String, Built> narrowed = new ConcurrentHashMap<>();
    private final Audience audience;
    private final ConcurrentMap<String, CompletableFuture<Built>> building = new ConcurrentHashMap<>();
    private final FeedSubscriptions subscriptions;
    private final AtomicLong catalogChecks = new AtomicLong();
    /** The newest fingerprint a request has read, null before the first. */
    private final AtomicReference<String> newest = new AtomicReference<>();

    RefreshingGraphQlSource(JdbcTemplate jdbc, PlatformTransactionManager transactions, Catalog catalog,
                            GraphqlProperties properties, List<DataFetcherExceptionResolver> resolvers,
                            List<Instrumentation> instrumentations, Audience audience,
                            FeedSubscriptions subscriptions) {
        this.audience = audience;
        this.subscriptions = subscriptions;
        this.jdbc = jdbc;
        this.snapshot = new TransactionTemplate(transactions);
        snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        snapshot.setReadOnly(true);
        this.catalog = catalog;
        this.properties = properties;
        this.resolvers = resolvers;
        this.instrumentations = instrumentations;
    }

    @Override
    public GraphQL graphQl() {
        return fresh().graphQl();
    }

    @Override
    public GraphQLSchema schema() {
        return fresh().schema();
    }

    /**
     * Who the schema is built for: callers with the same key see the same tables. Each caller's schema
     * holds only the tables it may read (spec: Access control), so others' tables are not even named.
     */
    interface Audience {
        /** The calling audience's key; null for a caller who sees every table. */
        String key();

        List<TableDef> visible(List<TableDef> all);
    }

    /**
     * The GraphQL of the newest catalog version a request of this instance has read, for the calling audience,
     * with no query; null when this instance has not built it (then a request asks, through {@link #graphQl}).
     */
    GraphQL assumed() {
        Built built = newestBuilt();
        return built == null ? null : built.assuming();
    }

    /** {@link #assumed()}'s schema for the calling audience, to answer without graphql-java; null when unbuilt. */
    Assumed assumedShortcut() {
        Built built = newestBuilt();
        return built == null ? null : built.shortcut();
    }

    private Built newestBuilt() {
        String fingerprint = newest.get();
        if (fingerprint == null) {
            return null;
        }
        String key = audience.key();
        Built built = key == null ? current.get() : narrowed.get(fingerprint + "|" + key);
        return built != null && built.fingerprint().equals(fingerprint) ? built : null;
    }

    /** Queries of the catalog's fingerprint made so far: what tests check a request's round trips against. */
    long catalogChecks() {
        return catalogChecks.get();
    }

    /** Whether the catalog is still at {@code version}, false when the database cannot say. */
    boolean stillCurrent(long version) {
        try {
            return fingerprint().equals(Long.toString(version));
        } catch (org.springframework.dao.DataAccessException e) {
            return false;
        }
    }

    private Built fresh() {
        String fingerprint;
        try {
            fingerprint = fingerprint();
            newest.accumulateAndGet(fingerprint, (seen, read) -> seen == null
                    || Long.parseLong(read) > Long.parseLong(seen) ? read : seen);
        } catch (org.springframework.dao.DataAccessException e) {
            // The database is away: serve the last schema, so each field answers DATABASE_UNAVAILABLE
            // as a GraphQL error, rather than failing the whole request before execution.
            Built last = current.get();
            if (last == null || audience.key() != null) {
                throw e;
            }
            return last;
        }
        String key = audience.key();
        if (key != null) {
            String slot = fingerprint + "|" + key;
            Built mine = narrowed.get(slot);
            if (mine == null) {
                narrowed.keySet().removeIf(k -> !k.startsWith(fingerprint + "|"));
                mine = build();
                narrowed.put(slot, mine);
            }
            return mine;
        }
        Built published = current.get();
        if (published != null && published.fingerprint().equals(fingerprint)) {
            return published;
        }
        CompletableFuture<Built> mine = new CompletableFuture<>();
        CompletableFuture<Built> inFlight = building.putIfAbsent(fingerprint, mine);
        if (inFlight != null) {
            return inFlight.join();
        }
        try {
            Built built = build();
            current.set(built);
            mine.complete(built);
            return built;
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            building.remove(fingerprint, mine);
        }
    }

    /**
     * The catalog's fingerprint, read through a prepared statement: the connection keeps it prepared, where a
     * plain statement (JdbcTemplate's without arguments) was parsed afresh on every request.
     */
    private String fingerprint() {
        catalogChecks.incrementAndGet();
        return DataAccessUtils.requiredSingleResult(jdbc.query(connection -> connection.prepareStatement(FINGERPRINT),
                SingleColumnRowMapper.newInstance(String.class)));
    }

    private Built build() {
        long start = System.nanoTime();
        record Snapshot(String fingerprint, List<TableDef> tables, java.util.Set<String> derived) {
        }
        Snapshot read = snapshot.execute(status -> new Snapshot(fingerprint(),
                audience.visible(catalog.all()), java.util.Set.copyOf(jdbc.queryForList(DERIVED, String.class))));
        SchemaFactory factory = new SchemaFactory(properties, read.derived(), subscriptions);
        GraphQLSchema schema = factory.build(read.tables());
        if (!factory.skipped().isEmpty()) {
            log.warn("tables left out of the GraphQL schema: {}", factory.skipped());
        }
        List<Instrumentation> all = new ArrayList<>(instrumentations);
        all.add(Limits.depth(properties.maxDepth()));
        all.add(Limits.complexity(properties.maxComplexity()));
        all.add(new CommitExtension());
        GraphQlSource source = GraphQlSource.builder(schema)
                .exceptionResolvers(resolvers)
                .subscriptionExceptionResolvers(List.of(subscriptions))
                .instrumentation(all)
                // Mutation fields run like query fields, so graphql-java dispatches them to the batch
                // loader together and they become one engine call: one commit, all or nothing, applied
                // in document order (the order of the statements), as serial execution would.
                .configureGraphQl(b -> b.mutationExecutionStrategy(
                        new AsyncExecutionStrategy(DataFetcherExceptionResolver.createExceptionHandler(resolvers)))
                        .preparsedDocumentProvider(new DocumentCache()))
                .build();
        log.info("GraphQL schema built for {} table(s) in {} ms, catalog fingerprint {}", read.tables().size(),
                (System.nanoTime() - start) / 1_000_000, read.fingerprint());
        GraphQL graphQl = source.graphQl();
        long version = Long.parseLong(read.fingerprint());
        GraphQL assuming = graphQl.transform(b -> b.instrumentation(new ChainedInstrumentation(
                new AssumedCatalog(version), graphQl.getInstrumentation())));
        Assumed shortcut = new Assumed(version, source.schema(),
                new DirectInstrumentation(graphQl.getInstrumentation()),
                new OneKeyReads(source.schema(), factory.byKeyFields(), properties));
        return new Built(read.fingerprint(), graphQl, source.schema(), assuming, shortcut);
    }
}
