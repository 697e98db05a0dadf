package io.verso.api.graphql;

import static graphql.Scalars.GraphQLBoolean;
import static graphql.Scalars.GraphQLInt;
import static graphql.Scalars.GraphQLString;
import static graphql.schema.GraphQLArgument.newArgument;
import static graphql.schema.GraphQLFieldDefinition.newFieldDefinition;
import static graphql.schema.GraphQLInputObjectField.newInputObjectField;
import static graphql.schema.GraphQLList.list;
import static graphql.schema.GraphQLNonNull.nonNull;
import static graphql.schema.GraphQLTypeReference.typeRef;

import graphql.Scalars;
import graphql.schema.DataFetcher;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.FieldCoordinates;
import graphql.schema.GraphQLArgument;
import graphql.schema.GraphQLCodeRegistry;
import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLInputObjectType;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLOutputType;
import graphql.schema.GraphQLScalarType;
import graphql.schema.GraphQLSchema;
import io.verso.api.graphql.ReadJobs.Aggregate;
import io.verso.api.graphql.ReadJobs.Page;
import io.verso.api.graphql.WriteJobs.Receipt;
import io.verso.api.graphql.WriteJobs.RowOutcome;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.Origin;
import io.verso.error.VersoException;
import io.verso.sql.ast.Pos;
import io.verso.catalog.ColumnType;
import io.verso.surface.Cursor;
import io.verso.surface.Filter;
import io.verso.surface.ReadBuilder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.dataloader.DataLoader;

/**
 * Builds the GraphQL schema of one catalog snapshot. For each table {@code t} (see {@link TableShape}
 * for which tables and columns are shown):
 * <pre>
 * Query    t(where, orderBy, limit, offset, after, asOfCommit): t_page
 *          t_by_key(&lt;key columns&gt;, asOfCommit): t            (keyed tables)
 *          t_history(&lt;key columns&gt;, group, asOfCommit, limit, offset): [t_version!]   (VERSIONED)
 *          t_aggregate(where, asOfCommit): t_aggregate
 * Mutation upsert_t(rows, group): t_receipt  insert_t(rows): t_receipt  delete_t(keys, at): t_receipt
 *          (none for derived tables: only their sources' commits write them)
 * Subscription t_changes(after): t_commit_changes   (VERSIONED and APPEND tables: the change feed, one event per commit)
 * </pre>
 * Root fields are nullable, so one failing field leaves the others' data in the response.
 * asOfCommit is offered only where the dialect allows AS OF (not on UPSERT tables). A new instance
 * per build: it is not shared between threads.
 */
final class SchemaFactory {

    static final String LOADER = "verso";

    private static final Set<String> SHARED_TYPES = Set.of("Query", "Mutation", "Subscription", "PageInfo", "SortDirection",
            "NullsOrder", "String", "Int", "Float", "Boolean", "ID");

    private final GraphqlProperties properties;
    private final GraphQLCodeRegistry.Builder code = GraphQLCodeRegistry.newCodeRegistry();
    private final Set<String> takenTypes = new HashSet<>(SHARED_TYPES);
    private final Set<String> takenFields = new HashSet<>();
    private final Map<String, GraphQLInputObjectType> comparisons = new LinkedHashMap<>();
    private final List<String> skipped = new ArrayList<>();
    private final Map<String, TableShape> byKeyFields = new LinkedHashMap<>();
    private final Set<String> derived;
    private final FeedSubscriptions subscriptions;

    SchemaFactory(GraphqlProperties properties) {
        this(properties, Set.of(), null);
    }

    /** {@code derived}: the derived tables (read-only); {@code subscriptions}: the change feeds, or null for none. */
    SchemaFactory(GraphqlProperties properties, Set<String> derived, FeedSubscriptions subscriptions) {
        this.properties = properties;
        this.derived = derived;
        this.subscriptions = subscriptions;
        VersoScalars.ALL.forEach(s -> takenTypes.add(s.getName()));
        for (ColumnType.Base base : ColumnType.Base.values()) {
            // Types that share a scalar share their operators (Filter.Op.appliesTo), so the first one builds it.
            GraphQLScalarType s = TableShape.scalar(base);
            if (!comparisons.containsKey(s.getName())) {
                comparisons.put(s.getName(), comparison(s, base));
                takenTypes.add(s.getName() + "_comparison");
            }
        }
    }

    /** The table each {@code t_by_key} field of the last build reads, by field name. */
    Map<String, TableShape> byKeyFields() {
        return byKeyFields;
    }

    /** Tables left out of the last build, with the reason. */
    List<String> skipped() {
        return skipped;
    }

    GraphQLSchema build(List<TableDef> tables) {
        GraphQLObjectType.Builder query = GraphQLObjectType.newObject().name("Query")
                .description("Reads. Every field of one request is served at one commit: see _commit and "
                        + "extensions.verso.commit.");
        GraphQLObjectType.Builder mutation = GraphQLObjectType.newObject().name("Mutation")
                .description("Writes. All mutation fields of one request make one commit, in document order; "
                        + "if one fails, nothing is written.");
        query.field(newFieldDefinition().name("_commit").type(nonNull(VersoScalars.COMMIT_SEQ))
                .description("The commit this response's reads are served at."));
        code.dataFetcher(FieldCoordinates.coordinates("Query", "_commit"),
                (DataFetcher<?>) env -> load(env, new CommitJob(RequestState.of(env.getGraphQlContext()))));
        GraphQLObjectType.Builder subscription = GraphQLObjectType.newObject().name("Subscription")
                .description("Change feeds: one event per commit that changed the table, from after the commit "
                        + "given (0: from the beginning), then live. The same changes as GET /v1/tables/{t}/changes.");
        boolean anyMutation = false;
        boolean anySubscription = false;
        for (TableDef def : tables) {
            TableShape table = TableShape.of(def);
            if (table == null) {
                skipped.add(def.name() + ": its name or a key column's name is not a GraphQL name, or a key column "
                        + "is named like an argument (" + TableShape.KEY_CLASHES + ")");
                continue;
            }
            List<String> types = typeNames(table);
            List<String> fields = fieldNames(table);
            String clash = types.stream().filter(takenTypes::contains).findFirst()
                    .or(() -> fields.stream().filter(takenFields::contains).findFirst()).orElse(null);
            if (clash != null) {
                skipped.add(def.name() + ": generated name '" + clash + "' is taken by an earlier table");
                continue;
            }
            takenTypes.addAll(types);
            takenFields.addAll(fields);
            addTable(table, query, mutation);
            anyMutation |= !derived.contains(def.name());
            anySubscription |= addSubscription(table, subscription);
        }
        GraphQLSchema.Builder schema = GraphQLSchema.newSchema().query(query.build())
                .additionalType(pageInfo()).additionalType(sortDirection()).additionalType(nullsOrder());
        comparisons.values().forEach(schema::additionalType);
        if (anyMutation) {
            schema.mutation(mutation.build());
        }
        if (anySubscription) {
            schema.subscription(subscription.build());
        }
        return schema.codeRegistry(code.build()).build();
    }

    private static List<String> typeNames(TableShape t) {
        String n = t.name();
        return List.of(n, n + "_version", n + "_page", n + "_where", n + "_order_by", n + "_column", n + "_aggregate",
                n + "_min", n + "_max", n + "_sum", n + "_avg", n + "_input", n + "_key", n + "_at", n + "_group",
                n + "_receipt", n + "_outcome", n + "_commit_changes", n + "_change");
    }

    private static List<String> fieldNames(TableShape t) {
        String n = t.name();
        return List.of("Query." + n, "Query." + n + "_by_key", "Query." + n + "_history", "Query." + n + "_aggregate",
                "Mutation.upsert_" + n, "Mutation.insert_" + n, "Mutation.delete_" + n, "Subscription." + n + "_changes");
    }

    // ---- shared types ----------------------------------------------------------------------

    private static GraphQLObjectType pageInfo() {
        return GraphQLObjectType.newObject().name("PageInfo")
                .field(newFieldDefinition().name("hasNextPage").type(nonNull(GraphQLBoolean)))
                .field(newFieldDefinition().name("endCursor").type(GraphQLString)
                        .description("Pass as `after` for the next page; it keeps the page's commit."))
                .build();
    }

    private static GraphQLEnumType sortDirection() {
        return GraphQLEnumType.newEnum().name("SortDirection").value("ASC").value("DESC").build();
    }

    private static GraphQLEnumType nullsOrder() {
        return GraphQLEnumType.newEnum().name("NullsOrder").value("FIRST").value("LAST").build();
    }

    /**
     * The comparison input of a scalar: one field per filter word that applies to its columns' type
     * ({@link Filter.Op}, the vocabulary REST's filters share); the null tests are one boolean, {@code isNull}.
     */
    private static GraphQLInputObjectType comparison(GraphQLScalarType scalar, ColumnType.Base base) {
        GraphQLInputObjectType.Builder b = GraphQLInputObjectType.newInputObject()
                .name(scalar.getName() + "_comparison");
        for (Filter.Op op : Filter.Op.values()) {
            if (!op.appliesTo(base) || op == Filter.Op.NOT_NULL) {
                continue;
            }
            b.field(newInputObjectField().name(op.word()).type(switch (op) {
                case IN, NOT_IN -> list(nonNull(scalar));
                case IS_NULL -> GraphQLBoolean;
                default -> scalar;
            }));
        }
        return b.build();
    }

    // ---- one table -------------------------------------------------------------------------

    private void addTable(TableShape t, GraphQLObjectType.Builder query, GraphQLObjectType.Builder mutation) {
        String n = t.name();
        GraphQLObjectType row = rowType(t, false);
        GraphQLEnumType columnEnum = columnEnum(t);
        GraphQLInputObjectType where = whereType(t);
        GraphQLInputObjectType orderBy = GraphQLInputObjectType.newInputObject().name(n + "_order_by")
                .field(newInputObjectField().name("column").type(nonNull(columnEnum)))
                .field(newInputObjectField().name("direction").type(sortDirectionRef()).defaultValueProgrammatic("ASC"))
                .field(newInputObjectField().name("nulls").type(nullsOrderRef()))
                .build();
        GraphQLEnumType groupEnum = groupEnum(t);

        // t(where, orderBy, limit, offset, after, asOfCommit): t_page
        GraphQLObjectType page = GraphQLObjectType.newObject().name(n + "_page")
                .field(newFieldDefinition().name("nodes").type(nonNull(list(nonNull(row)))))
                .field(newFieldDefinition().name("asOfCommit").type(nonNull(VersoScalars.COMMIT_SEQ))
                        .description("The commit these rows were read at."))
                .field(newFieldDefinition().name("pageInfo").type(nonNull(typeRef("PageInfo"))))
                .build();
        fetch(page.getName(), "nodes", s -> ((Page) s).nodes());
        fetch(page.getName(), "asOfCommit", s -> ((Page) s).asOfCommit());
        fetch(page.getName(), "pageInfo", s -> s);
        fetch("PageInfo", "hasNextPage", s -> ((Page) s).hasNextPage());
        fetch("PageInfo", "endCursor", s -> ((Page) s).endCursor());
        GraphQLFieldDefinition.Builder list = newFieldDefinition().name(n).type(page)
                .description("Rows of " + n + " (" + t.mode() + "), " + properties.defaultLimit() + " unless limit says"
                        + " otherwise (at most " + properties.maxLimit() + ").")
                .argument(arg("where", where))
                .argument(arg("orderBy", list(nonNull(orderBy))))
                .argument(arg("limit", GraphQLInt))
                .argument(arg("offset", GraphQLInt))
                .argument(arg("after", GraphQLString));
        asOfArgument(t, list);
        query.field(list);
        code.dataFetcher(FieldCoordinates.coordinates("Query", n), (DataFetcher<?>) env -> listRows(env, t));

        if (t.keyed() || t.systemKeyed()) {
            GraphQLFieldDefinition.Builder byKey = newFieldDefinition().name(n + "_by_key").type(row)
                    .description("The row of one key, or null when it has none.");
            keyArguments(t, byKey);
            asOfArgument(t, byKey);
            query.field(byKey);
            byKeyFields.put(n + "_by_key", t);
            code.dataFetcher(FieldCoordinates.coordinates("Query", n + "_by_key"), (DataFetcher<?>) env ->
                    load(env, new ReadJobs.KeyJob(state(env), t, keyArgs(env, t), asOf(env), asOfTime(env),
                            properties.maxResultRows())));
        }
        if (t.versioned() || t.systemKeyed()) {
            GraphQLObjectType version = rowType(t, true);
            GraphQLFieldDefinition.Builder history = newFieldDefinition().name(n + "_history")
                    .type(list(nonNull(version)))
                    .description("Every retained version of one key, by commit.");
            keyArguments(t, history);
            history.argument(arg("group", GraphQLString));
            asOfArgument(t, history);
            history.argument(arg("limit", GraphQLInt)).argument(arg("offset", GraphQLInt));
            query.field(history);
            code.dataFetcher(FieldCoordinates.coordinates("Query", n + "_history"), (DataFetcher<?>) env ->
                    load(env, new ReadJobs.HistoryJob(state(env), t, keyArgs(env, t), env.getArgument("group"),
                            asOf(env), asOfTime(env), limit(env), offset(env), properties.maxResultRows())));
        }
        GraphQLFieldDefinition.Builder aggregate = newFieldDefinition().name(n + "_aggregate")
                .type(aggregateType(t)).argument(arg("where", where));
        asOfArgument(t, aggregate);
        query.field(aggregate);
        code.dataFetcher(FieldCoordinates.coordinates("Query", n + "_aggregate"), (DataFetcher<?>) env ->
                load(env, new ReadJobs.AggregateJob(state(env), t, env.getArgument("where"), asOf(env), asOfTime(env))));

        if (!derived.contains(n)) {
            addMutations(t, mutation, groupEnum);
        }
    }

    /** {@code t_changes(after)}: the table's change feed, for tables that have one. */
    private boolean addSubscription(TableShape t, GraphQLObjectType.Builder subscription) {
        if (subscriptions == null || (t.mode() != io.verso.catalog.TableMode.VERSIONED
                && t.mode() != io.verso.catalog.TableMode.APPEND)) {
            return false;
        }
        String n = t.name();
        GraphQLObjectType change = GraphQLObjectType.newObject().name(n + "_change")
                .description("One change of a current row of " + n + ", as the REST feed gives it.")
                .field(newFieldDefinition().name("commit").type(nonNull(VersoScalars.COMMIT_SEQ)))
                .field(newFieldDefinition().name("op").type(nonNull(GraphQLString))
                        .description("insert, update or delete"))
                .field(newFieldDefinition().name("key").type(nonNull(VersoScalars.JSON_TYPE))
                        .description("The key columns (every column of an APPEND table)."))
                .field(newFieldDefinition().name("row").type(VersoScalars.JSON_TYPE)
                        .description("The row after the change; null after a delete."))
                .field(newFieldDefinition().name("before").type(VersoScalars.JSON_TYPE)
                        .description("The row before the change; null for an insert."))
                .build();
        GraphQLObjectType event = GraphQLObjectType.newObject().name(n + "_commit_changes")
                .description("The changes one commit made to " + n + ".")
                .field(newFieldDefinition().name("commit").type(nonNull(VersoScalars.COMMIT_SEQ))
                        .description("Resume after it (argument after) to lose and repeat nothing."))
                .field(newFieldDefinition().name("changes").type(nonNull(list(nonNull(change)))))
                .build();
        subscription.field(newFieldDefinition().name(n + "_changes").type(nonNull(event))
                .description("Every change of " + n + " after commit `after` (default 0), one event per commit, "
                        + "then each new commit as it becomes visible.")
                .argument(arg("after", VersoScalars.BIG_INT).description("The commit to resume after: 0 (the "
                        + "default) replays from the beginning; the last event's commit loses and repeats nothing.")));
        code.dataFetcher(FieldCoordinates.coordinates("Subscription", n + "_changes"),
                (DataFetcher<?>) env -> subscriptions.subscribe(env, n));
        return true;
    }

    private GraphQLObjectType rowType(TableShape t, boolean version) {
        String name = version ? t.name() + "_version" : t.name();
        GraphQLObjectType.Builder b = GraphQLObjectType.newObject().name(name)
                .description(version ? "One retained version of a row of " + t.name() + ": the key, its group's "
                        + "columns (the others null) and when it was current." : "A row of " + t.name() + ".");
        DataFetcher<?> column = env -> ((Row) env.getSource()).values().get(env.getFieldDefinition().getName());
        for (ColumnDef c : t.columns()) {
            GraphQLOutputType type = TableShape.scalar(c.type());
            b.field(newFieldDefinition().name(c.name()).type(c.isKey() ? nonNull(type) : type));
            code.dataFetcher(FieldCoordinates.coordinates(name, c.name()), column);
        }
        if (version) {
            b.field(newFieldDefinition().name("_group").type(nonNull(GraphQLString)));
            b.field(newFieldDefinition().name("_commit").type(nonNull(VersoScalars.COMMIT_SEQ))
                    .description("The commit that wrote this version."));
            b.field(newFieldDefinition().name("_current_from").type(VersoScalars.COMMIT_SEQ)
                    .description("First commit it was current at; null if it never was."));
            b.field(newFieldDefinition().name("_current_to").type(VersoScalars.COMMIT_SEQ)
                    .description("Commit it stopped being current at; null while it still is (as of the read)."));
            b.field(newFieldDefinition().name("_deleted").type(nonNull(GraphQLBoolean)));
            for (String pseudo : List.of("_group", "_commit", "_current_from", "_current_to", "_deleted")) {
                code.dataFetcher(FieldCoordinates.coordinates(name, pseudo), column);
            }
            if (t.systemKeyed()) {
                // The version's period, under the table's period column names (row_start/row_end when implicit).
                var period = t.def().period();
                for (String p : List.of(period.start(), period.end())) {
                    if (TableShape.validName(p) && t.columns().stream().noneMatch(c -> c.name().equals(p))) {
                        b.field(newFieldDefinition().name(p).type(nonNull(VersoScalars.TIMESTAMP))
                                .description(p.equals(period.start()) ? "The commit time that wrote this version."
                                        : "The commit time that replaced or deleted it; 2038-01-19 03:14:07.999999 "
                                        + "while current (as of the read)."));
                        code.dataFetcher(FieldCoordinates.coordinates(name, p), column);
                    }
                }
            }
        } else {
            b.field(newFieldDefinition().name("_asOfCommit").type(nonNull(VersoScalars.COMMIT_SEQ))
                    .description("The commit this row was read at."));
            fetch(name, "_asOfCommit", s -> ((Row) s).commit());
            if (t.versioned()) {
                b.field(newFieldDefinition().name("_history").type(nonNull(list(nonNull(typeRef(t.name() + "_version")))))
                        .description("Every retained version of this row's key as of the commit the row was read "
                                + "at, by commit. Batched: one read per table for all rows of a response level."));
                code.dataFetcher(FieldCoordinates.coordinates(name, "_history"), (DataFetcher<?>) env ->
                        load(env, new ReadJobs.NestedHistoryJob(state(env), t, env.getSource())));
            }
        }
        return b.build();
    }

    private static GraphQLEnumType columnEnum(TableShape t) {
        GraphQLEnumType.Builder b = GraphQLEnumType.newEnum().name(t.name() + "_column");
        t.columns().forEach(c -> b.value(c.name(), c.name()));
        return b.build();
    }

    private static GraphQLEnumType groupEnum(TableShape t) {
        List<String> groups = t.groupNames();
        if (groups.isEmpty()) {
            return null;
        }
        GraphQLEnumType.Builder b = GraphQLEnumType.newEnum().name(t.name() + "_group");
        groups.forEach(g -> b.value(g, g));
        return b.build();
    }

    private GraphQLInputObjectType whereType(TableShape t) {
        String name = t.name() + "_where";
        GraphQLInputObjectType.Builder b = GraphQLInputObjectType.newInputObject().name(name)
                .description("Row filter: every given condition must hold.")
                .field(newInputObjectField().name("and").type(list(nonNull(typeRef(name)))))
                .field(newInputObjectField().name("or").type(list(nonNull(typeRef(name)))))
                .field(newInputObjectField().name("not").type(typeRef(name)));
        for (ColumnDef c : t.columns()) {
            if (!TableShape.WHERE_FIELDS.contains(c.name())) {
                b.field(newInputObjectField().name(c.name()).type(comparisonRef(TableShape.scalar(c.type()))));
            }
        }
        return b.build();
    }

    private static graphql.schema.GraphQLTypeReference comparisonRef(GraphQLScalarType scalar) {
        return typeRef(scalar.getName() + "_comparison");
    }

    private GraphQLObjectType aggregateType(TableShape t) {
        String n = t.name();
        GraphQLObjectType.Builder b = GraphQLObjectType.newObject().name(n + "_aggregate")
                .field(newFieldDefinition().name("count").type(nonNull(VersoScalars.BIG_INT)))
                .field(newFieldDefinition().name("asOfCommit").type(nonNull(VersoScalars.COMMIT_SEQ)));
        fetch(n + "_aggregate", "count", s -> ((Aggregate) s).count());
        fetch(n + "_aggregate", "asOfCommit", s -> ((Aggregate) s).asOfCommit());
        aggregatePart(b, t, "min", c -> TableShape.orderable(c.type()) ? TableShape.scalar(c.type()) : null,
                Aggregate::min);
        aggregatePart(b, t, "max", c -> TableShape.orderable(c.type()) ? TableShape.scalar(c.type()) : null,
                Aggregate::max);
        aggregatePart(b, t, "sum", c -> TableShape.summable(c.type()) ? TableShape.sumScalar(c.type()) : null,
                Aggregate::sum);
        aggregatePart(b, t, "avg", c -> TableShape.summable(c.type()) ? TableShape.avgScalar(c.type()) : null,
                Aggregate::avg);
        return b.build();
    }

    private void aggregatePart(GraphQLObjectType.Builder parent, TableShape t, String part,
                               Function<ColumnDef, GraphQLScalarType> typeOf, Function<Aggregate, Object> values) {
        GraphQLObjectType.Builder b = GraphQLObjectType.newObject().name(t.name() + "_" + part);
        boolean any = false;
        for (ColumnDef c : t.columns()) {
            GraphQLScalarType type = typeOf.apply(c);
            if (type != null) {
                b.field(newFieldDefinition().name(c.name()).type(type));
                any = true;
            }
        }
        if (any) {
            // Map sources: graphql-java's default fetcher reads map.get(fieldName).
            parent.field(newFieldDefinition().name(part).type(nonNull(b.build())));
            fetch(t.name() + "_aggregate", part, s -> values.apply((Aggregate) s));
        }
    }

    // ---- mutations -------------------------------------------------------------------------

    private void addMutations(TableShape t, GraphQLObjectType.Builder mutation, GraphQLEnumType groupEnum) {
        String n = t.name();
        GraphQLInputObjectType.Builder input = GraphQLInputObjectType.newInputObject().name(n + "_input")
                .description("A row to write: the key, the ordering columns of the groups written, and any other "
                        + "columns; a column left out takes its DEFAULT (or NULL).");
        for (ColumnDef c : t.columns()) {
            input.field(newInputObjectField().name(c.name()).type(TableShape.scalar(c.type())));
        }
        GraphQLObjectType receipt = receiptType(t);
        GraphQLFieldDefinition.Builder insert = newFieldDefinition().name("insert_" + n).type(receipt)
                .argument(arg("rows", nonNull(list(nonNull(input.build())))));
        mutation.field(insert);
        code.dataFetcher(FieldCoordinates.coordinates("Mutation", "insert_" + n), (DataFetcher<?>) env ->
                write(env, () -> new WriteJobs.RowsJob(state(env), t, false, env.getArgument("rows"), null)));
        if (!t.keyed()) {
            return;
        }
        GraphQLFieldDefinition.Builder upsert = newFieldDefinition().name("upsert_" + n).type(receipt)
                .argument(arg("rows", nonNull(list(nonNull(typeRef(n + "_input"))))));
        if (groupEnum != null) {
            upsert.argument(arg("group", groupEnum));
        }
        mutation.field(upsert);
        code.dataFetcher(FieldCoordinates.coordinates("Mutation", "upsert_" + n), (DataFetcher<?>) env ->
                write(env, () -> new WriteJobs.RowsJob(state(env), t, true, env.getArgument("rows"),
                        env.getArgument("group"))));

        GraphQLInputObjectType.Builder key = GraphQLInputObjectType.newInputObject().name(n + "_key");
        for (ColumnDef c : t.keys()) {
            key.field(newInputObjectField().name(c.name()).type(nonNull(TableShape.scalar(c.type()))));
        }
        GraphQLFieldDefinition.Builder delete = newFieldDefinition().name("delete_" + n).type(receipt)
                .description("Writes tombstones for the keys, whether or not they have a live row.")
                .argument(arg("keys", nonNull(list(nonNull(key.build())))));
        List<ColumnDef> ordering = t.orderingColumns();
        if (!ordering.isEmpty()) {
            GraphQLInputObjectType.Builder at = GraphQLInputObjectType.newInputObject().name(n + "_at")
                    .description("The ordering values of the tombstones: every group's VALID BY / REVISION BY columns.");
            for (ColumnDef c : ordering) {
                at.field(newInputObjectField().name(c.name()).type(TableShape.scalar(c.type())));
            }
            delete.argument(arg("at", at.build()));
        }
        mutation.field(delete);
        code.dataFetcher(FieldCoordinates.coordinates("Mutation", "delete_" + n), (DataFetcher<?>) env ->
                write(env, () -> new WriteJobs.DeleteJob(state(env), t, env.getArgument("keys"), env.getArgument("at"))));
    }

    private GraphQLObjectType receiptType(TableShape t) {
        String n = t.name();
        GraphQLObjectType.Builder outcome = GraphQLObjectType.newObject().name(n + "_outcome")
                .description("What became of one input row or key.")
                .field(newFieldDefinition().name("index").type(nonNull(GraphQLInt))
                        .description("Its position in the input list."))
                .field(newFieldDefinition().name("current").type(nonNull(GraphQLBoolean))
                        .description("Whether it became current (in at least one group); false when it lost on "
                                + "arrival to a version ordered after it."));
        fetch(n + "_outcome", "index", s -> ((RowOutcome) s).index());
        fetch(n + "_outcome", "current", s -> ((RowOutcome) s).current());
        for (ColumnDef c : t.keys()) {
            outcome.field(newFieldDefinition().name(c.name()).type(TableShape.scalar(c.type())));
            fetch(n + "_outcome", c.name(), s -> ((RowOutcome) s).key().get(c.name()));
        }
        // Counts are Int, numbers in JSON as REST gives them; only commit sequences are strings.
        GraphQLObjectType receipt = GraphQLObjectType.newObject().name(n + "_receipt")
                .field(newFieldDefinition().name("commit").type(nonNull(VersoScalars.COMMIT_SEQ)))
                .field(newFieldDefinition().name("rows").type(nonNull(GraphQLInt)))
                .field(newFieldDefinition().name("versions").type(nonNull(GraphQLInt)))
                .field(newFieldDefinition().name("current").type(nonNull(GraphQLInt)))
                .field(newFieldDefinition().name("lost").type(nonNull(GraphQLInt)))
                .field(newFieldDefinition().name("outcomes").type(nonNull(list(nonNull(outcome.build())))))
                .build();
        fetch(receipt.getName(), "commit", s -> ((Receipt) s).commit());
        fetch(receipt.getName(), "rows", s -> Math.toIntExact(((Receipt) s).rows()));
        fetch(receipt.getName(), "versions", s -> Math.toIntExact(((Receipt) s).versions()));
        fetch(receipt.getName(), "current", s -> Math.toIntExact(((Receipt) s).current()));
        fetch(receipt.getName(), "lost", s -> Math.toIntExact(((Receipt) s).lost()));
        fetch(receipt.getName(), "outcomes", s -> ((Receipt) s).outcomes());
        return receipt;
    }

    // ---- arguments and fetching --------------------------------------------------------------

    private static GraphQLArgument.Builder arg(String name, graphql.schema.GraphQLInputType type) {
        return newArgument().name(name).type(type);
    }

    private static void asOfArgument(TableShape t, GraphQLFieldDefinition.Builder field) {
        if (t.historied()) {
            field.argument(arg("asOfCommit", VersoScalars.COMMIT_SEQ)
                    .description("Read as of this commit instead of the request's commit."));
            field.argument(arg("asOfTime", GraphQLString)
                    .description("Read as of the latest commit made at or before this time (a TIMESTAMPTZ, as AS OF "
                            + "TIMESTAMP); asOfCommit reports the commit it resolved to. Not with asOfCommit."));
        }
    }

    private static void keyArguments(TableShape t, GraphQLFieldDefinition.Builder field) {
        for (ColumnDef c : t.keys()) {
            field.argument(arg(c.name(), nonNull(TableShape.scalar(c.type()))));
        }
    }

    private static Map<String, Object> keyArgs(DataFetchingEnvironment env, TableShape t) {
        Map<String, Object> key = new LinkedHashMap<>();
        for (ColumnDef c : t.keys()) {
            key.put(c.name(), env.getArgument(c.name()));
        }
        return key;
    }

    private void fetch(String type, String field, Function<Object, Object> getter) {
        code.dataFetcher(FieldCoordinates.coordinates(type, field), (DataFetcher<?>) env -> getter.apply(env.getSource()));
    }

    private static RequestState state(DataFetchingEnvironment env) {
        return RequestState.of(env.getGraphQlContext());
    }

    private static Long asOf(DataFetchingEnvironment env) {
        String commit = env.getArgument("asOfCommit");
        Long seq = commit == null ? null : Long.parseLong(commit);
        ReadBuilder.oneAsOf(seq, env.getArgument("asOfTime"), Pos.of(new Origin.Argument("asOfTime")));
        return seq;
    }

    /** The time to read as of; the engine judges it as it judges AS OF TIMESTAMP in /v1/sql. */
    private static String asOfTime(DataFetchingEnvironment env) {
        return env.getArgument("asOfTime");
    }

    /** Page sizes and offsets follow the resource layer's rules (and codes), with this surface's configured bounds. */
    private int limit(DataFetchingEnvironment env) {
        return ReadBuilder.limit(env.getArgument("limit"), properties.defaultLimit(), properties.maxLimit(),
                Pos.of(new Origin.Argument("limit")));
    }

    private static long offset(DataFetchingEnvironment env) {
        return ReadBuilder.offset(env.getArgument("offset"), Pos.of(new Origin.Argument("offset")));
    }

    private CompletableFuture<Object> listRows(DataFetchingEnvironment env, TableShape t) {
        int limit = limit(env);
        long offset = offset(env);
        Long asOf = asOf(env);
        String asOfTime = asOfTime(env);
        String after = env.getArgument("after");
        if (after != null) {
            if (env.getArgument("offset") != null) {
                throw VersoException.argument(ErrorCode.INVALID_REQUEST, "give after or offset, not both", "after");
            }
            Cursor cursor = Cursor.decodeOffset(after, Pos.of(new Origin.Argument("after")));
            offset = cursor.offset();
            if (asOf == null && t.historied() && cursor.commit() != null) {
                // The cursor keeps the commit its first page read at, asOfTime resolved included.
                asOf = cursor.commit();
                asOfTime = null;
            }
        }
        return load(env, new ReadJobs.ListJob(state(env), t, env.getArgument("where"), env.getArgument("orderBy"),
                limit, offset, asOf, asOfTime, properties.maxResultRows()));
    }

    private static CompletableFuture<Object> write(DataFetchingEnvironment env, java.util.function.Supplier<Job> job) {
        Job made;
        try {
            made = job.get();
        } catch (RuntimeException e) {
            made = new WriteJobs.FailedJob(state(env), e);
        }
        return load(env, made);
    }

    static CompletableFuture<Object> load(DataFetchingEnvironment env, Job job) {
        DataLoader<Job, Outcome> loader = env.getDataLoader(LOADER);
        return loader.load(job).thenCompose(o -> o.error() == null ? CompletableFuture.completedFuture(o.value())
                : CompletableFuture.failedFuture(o.error()));
    }

    private static graphql.schema.GraphQLTypeReference sortDirectionRef() {
        return typeRef("SortDirection");
    }

    private static graphql.schema.GraphQLTypeReference nullsOrderRef() {
        return typeRef("NullsOrder");
    }

    /** {@code _commit}: no statement of its own; it reports the commit its batch was served at. */
    static final class CommitJob implements Job {
        private final RequestState state;

        CommitJob(RequestState state) {
            this.state = state;
        }

        @Override
        public RequestState state() {
            return state;
        }

        @Override
        public List<io.verso.sql.ast.Statement> statements(ReadBuilder b, Long pinned) {
            return List.of();
        }

        @Override
        public Object complete(List<io.verso.engine.StatementResult> results, io.verso.engine.ExecutionResult execution) {
            Long pinned = state.readCommit();
            return pinned != null ? pinned : execution.readCommit();
        }
    }
}
