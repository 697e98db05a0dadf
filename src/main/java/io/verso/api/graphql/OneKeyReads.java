package io.verso.api.graphql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import graphql.ExecutionInput;
import graphql.GraphQLContext;
import graphql.execution.CoercedVariables;
import graphql.language.Argument;
import graphql.language.ArrayValue;
import graphql.language.Document;
import graphql.language.Field;
import graphql.language.FloatValue;
import graphql.language.IntValue;
import graphql.language.NonNullType;
import graphql.language.NullValue;
import graphql.language.ObjectValue;
import graphql.language.OperationDefinition;
import graphql.language.Selection;
import graphql.language.StringValue;
import graphql.language.Type;
import graphql.language.TypeName;
import graphql.language.Value;
import graphql.language.VariableDefinition;
import graphql.language.VariableReference;
import graphql.parser.Parser;
import graphql.parser.ParserEnvironment;
import graphql.parser.ParserOptions;
import graphql.schema.GraphQLArgument;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLNonNull;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLScalarType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLType;
import graphql.schema.GraphQLTypeUtil;
import io.verso.catalog.ColumnDef;
import io.verso.error.Origin;
import io.verso.sql.ast.Pos;
import io.verso.surface.ReadBuilder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The read of one row by key ({@code { t_by_key(k: 1) { a b } }}, the key as a literal or a variable), answered
 * without graphql-java's validation and execution, which cost a one-key read over GraphQL twice what the same
 * read costs over REST.
 *
 * <p>A document is taken only when it is plainly valid and plainly of that shape, so that what graphql-java
 * would answer is known without running it: one query operation, one root field {@code t_by_key} with arguments
 * the field declares (every key given), literals the argument's scalar parses or variables declared with its
 * type, each variable used; a selection of the row's columns and {@code _asOfCommit}, no two under one response
 * name; no fragment, no directive, no {@code __typename}, no default value, no null, list or object literal, and
 * within the depth and complexity limits. The row is then read by the same job the field's data fetcher makes
 * ({@link ReadJobs.KeyJob}), and its values are serialized by the same scalars. Anything else, and any request
 * whose read fails or whose value a scalar refuses, is not answered here ({@link #answer} returns null) and goes
 * to graphql-java, which answers it, or reports its errors, as always.
 *
 * <p>One instance per built schema ({@link RefreshingGraphQlSource}): what it decides for a document holds for
 * that schema only. Those decisions are kept for a bounded number of document shapes ({@link DocumentShape}): a
 * client that writes each key into its document, not in a variable, sends one shape for every key, so the
 * document is parsed once, not at every read.
 */
final class OneKeyReads {

    /** Longer texts are never of the shape worth the parse. */
    static final int MAX_TEXT_CHARS = 4 * 1024;
    private static final int MAX_PLANS = 256;
    private static final String AS_OF_COMMIT = "_asOfCommit";

    /**
     * An argument of the field: a literal the shape kept ({@code literal}), the literal of the document at
     * {@code slot} ({@link DocumentShape#literals}, -1 for none), or the variable that gives it.
     */
    private record Given(GraphQLScalarType scalar, Value<?> literal, int slot, String variable, boolean required) {
    }

    /** A selected field: its response name, what it reads, and the scalar that serializes it. */
    private record Selected(String responseKey, String name, GraphQLScalarType scalar, boolean nonNull) {
    }

    /** What a document of the shape reads. */
    private record Plan(String responseKey, TableShape table, Map<String, Given> arguments, List<Selected> selected) {
    }

    /** A document's shape ({@link DocumentShape#text}) and the operation asked for. */
    private record Text(String shape, boolean masked, String operationName) {
    }

    private final GraphQLSchema schema;
    private final Map<String, TableShape> tables;
    private final GraphqlProperties properties;
    private final Cache<Text, Optional<Plan>> plans = Caffeine.newBuilder().maximumSize(MAX_PLANS).build();

    /** {@code tables}: the table of each {@code t_by_key} field of {@code schema}, by field name. */
    OneKeyReads(GraphQLSchema schema, Map<String, TableShape> tables, GraphqlProperties properties) {
        this.schema = schema;
        this.tables = Map.copyOf(tables);
        this.properties = properties;
    }

    /** Whether the request of {@code context} is being answered here (or was, and runs again). */
    static boolean answering(GraphQLContext context) {
        return context.hasKey(Read.class);
    }

    /**
     * The job that reads what {@code input} asks, or null when the request is not one this class answers. The
     * request's context is marked as {@link #answering} from here.
     */
    Read read(ExecutionInput input) {
        String text = input.getQuery();
        if (text == null || text.length() > MAX_TEXT_CHARS || tables.isEmpty()) {
            return null;
        }
        DocumentShape shape = DocumentShape.of(text);
        Plan plan = plans.get(new Text(shape.text(), shape.masked(), input.getOperationName()),
                t -> Optional.ofNullable(plan(text, t.operationName(), shape))).orElse(null);
        if (plan == null) {
            return null;
        }
        GraphQLContext context = input.getGraphQLContext();
        Locale locale = input.getLocale();
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (Map.Entry<String, Given> argument : plan.arguments().entrySet()) {
            Given given = argument.getValue();
            if (given.variable() == null) {
                Object parsed = literal(given.scalar(), given.slot() >= 0
                        ? value(shape.literals().get(given.slot())) : given.literal(), context, locale);
                if (parsed == null) {
                    return null; // graphql-java reports the value its scalar refuses
                }
                arguments.put(argument.getKey(), parsed);
                continue;
            }
            Object value = input.getVariables().get(given.variable());
            if (value == null) {
                if (given.required()) {
                    return null; // graphql-java reports the missing value
                }
                continue;
            }
            try {
                arguments.put(argument.getKey(), given.scalar().getCoercing().parseValue(value, context, locale));
            } catch (RuntimeException refused) {
                return null;
            }
        }
        Map<String, Object> key = new LinkedHashMap<>();
        for (ColumnDef column : plan.table().keys()) {
            key.put(column.name(), arguments.get(column.name()));
        }
        String commit = (String) arguments.get("asOfCommit");
        String asOfTime = (String) arguments.get("asOfTime");
        Long asOf;
        try {
            asOf = commit == null ? null : Long.parseLong(commit);
            ReadBuilder.oneAsOf(asOf, asOfTime, Pos.of(new Origin.Argument("asOfTime")));
        } catch (RuntimeException refused) {
            return null;
        }
        Read read = new Read(plan, new ReadJobs.KeyJob(RequestState.of(context), plan.table(), key, asOf, asOfTime,
                properties.maxResultRows()));
        context.put(Read.class, read);
        return read;
    }

    /** A recognised request: the job to run, and how its row becomes the response's data. */
    static final class Read {
        private final Plan plan;
        private final ReadJobs.KeyJob job;

        private Read(Plan plan, ReadJobs.KeyJob job) {
            this.plan = plan;
            this.job = job;
        }

        Job job() {
            return job;
        }

        /**
         * The response's data for the row the job read (null for none), as graphql-java completes it; null when
         * a value is one graphql-java would report an error for (a null in a non-null field, a value its scalar
         * refuses).
         */
        Map<String, Object> data(Row row, GraphQLContext context, Locale locale) {
            Map<String, Object> data = new LinkedHashMap<>(2);
            if (row == null) {
                data.put(plan.responseKey(), null);
                return data;
            }
            Map<String, Object> fields = new LinkedHashMap<>();
            for (Selected selected : plan.selected()) {
                Object value = selected.name().equals(AS_OF_COMMIT) ? row.commit() : row.values().get(selected.name());
                Object serialized;
                try {
                    serialized = value == null ? null : selected.scalar().getCoercing().serialize(value, context, locale);
                } catch (RuntimeException refused) {
                    return null;
                }
                if (serialized instanceof Double d && d.isNaN()) {
                    serialized = null; // what graphql-java makes of NaN
                }
                if (serialized == null && selected.nonNull()) {
                    return null;
                }
                fields.put(selected.responseKey(), serialized);
            }
            data.put(plan.responseKey(), fields);
            return data;
        }
    }

    /** A literal taken out of a document, as graphql-java's parser would have made it. */
    private static Value<?> value(DocumentShape.Literal literal) {
        return switch (literal.kind()) {
            case 'I' -> new IntValue(new BigInteger(literal.value()));
            case 'F' -> new FloatValue(new BigDecimal(literal.value()));
            default -> new StringValue(literal.value());
        };
    }

    /** The value {@code scalar} parses from {@code literal}, or null when it refuses it. */
    private static Object literal(GraphQLScalarType scalar, Value<?> literal, GraphQLContext context, Locale locale) {
        try {
            return scalar.getCoercing().parseLiteral(literal, CoercedVariables.emptyVariables(), context, locale);
        } catch (RuntimeException refused) {
            return null;
        }
    }

    /**
     * What {@code text} (of {@code shape}) reads, or null when it is not plainly of the shape this class answers.
     * Literals are parsed by each request, whether the shape took them out ({@link Given#slot}) or kept them; the
     * rest of the document is the same in every document of the shape.
     */
    private Plan plan(String text, String operationName, DocumentShape shape) {
        Document document;
        try {
            document = Parser.parse(ParserEnvironment.newParserEnvironment().document(text)
                    .parserOptions(ParserOptions.getDefaultOperationParserOptions()).build());
        } catch (RuntimeException e) {
            return null;
        }
        if (document.getDefinitions().size() != 1
                || !(document.getDefinitions().get(0) instanceof OperationDefinition operation)
                || operation.getOperation() != OperationDefinition.Operation.QUERY
                || !operation.getDirectives().isEmpty()
                || operationName != null && !operationName.equals(operation.getName())
                || operation.getSelectionSet().getSelections().size() != 1
                || !(operation.getSelectionSet().getSelections().get(0) instanceof Field field)
                || !field.getDirectives().isEmpty() || field.getSelectionSet() == null) {
            return null;
        }
        TableShape table = tables.get(field.getName());
        GraphQLFieldDefinition definition = schema.getQueryType().getFieldDefinition(field.getName());
        if (table == null || definition == null
                || !(GraphQLTypeUtil.unwrapNonNull(definition.getType()) instanceof GraphQLObjectType row)) {
            return null;
        }
        Map<String, VariableDefinition> variables = new LinkedHashMap<>();
        for (VariableDefinition variable : operation.getVariableDefinitions()) {
            if (variable.getDefaultValue() != null || !variable.getDirectives().isEmpty()
                    || variables.put(variable.getName(), variable) != null) {
                return null;
            }
        }
        Map<String, Given> arguments = arguments(field, definition, variables, shape);
        List<Selected> selected = selected(field, row, table);
        int complexity = 1 + (selected == null ? 0 : selected.size());
        if (arguments == null || selected == null || selected.isEmpty()
                || complexity > properties.maxComplexity() || properties.maxDepth() < 3) {
            return null;
        }
        return new Plan(field.getResultKey(), table, arguments, selected);
    }

    /**
     * The field's arguments, each given once and every required one given, all variables used; else null. Where
     * the shape took the literals out, they must all be the field's arguments' (none elsewhere in the document).
     */
    private static Map<String, Given> arguments(Field field, GraphQLFieldDefinition definition,
                                                Map<String, VariableDefinition> variables, DocumentShape shape) {
        Map<String, Given> arguments = new LinkedHashMap<>();
        Set<String> used = new HashSet<>();
        int slot = 0;
        for (Argument argument : field.getArguments()) {
            GraphQLArgument declared = definition.getArgument(argument.getName());
            if (declared == null || arguments.containsKey(argument.getName())
                    || !(GraphQLTypeUtil.unwrapNonNull(declared.getType()) instanceof GraphQLScalarType scalar)) {
                return null;
            }
            boolean required = GraphQLTypeUtil.isNonNull(declared.getType());
            Value<?> value = argument.getValue();
            if (value instanceof VariableReference reference) {
                VariableDefinition variable = variables.get(reference.getName());
                if (variable == null || !fits(variable.getType(), scalar, required)) {
                    return null;
                }
                used.add(reference.getName());
                arguments.put(argument.getName(), new Given(scalar, null, -1, reference.getName(), required));
            } else if (value instanceof NullValue || value instanceof ArrayValue || value instanceof ObjectValue) {
                return null;
            } else if (shape.masked() && (value instanceof IntValue || value instanceof FloatValue
                    || value instanceof StringValue)) {
                char kind = value instanceof IntValue ? 'I' : value instanceof FloatValue ? 'F' : 'S';
                if (slot >= shape.literals().size() || shape.literals().get(slot).kind() != kind) {
                    return null;
                }
                arguments.put(argument.getName(), new Given(scalar, null, slot++, null, required));
            } else {
                arguments.put(argument.getName(), new Given(scalar, value, -1, null, required));
            }
        }
        boolean allRequired = definition.getArguments().stream()
                .filter(a -> GraphQLTypeUtil.isNonNull(a.getType()))
                .allMatch(a -> arguments.containsKey(a.getName()));
        return allRequired && used.equals(variables.keySet()) && slot == shape.literals().size() ? arguments : null;
    }

    /** Whether a variable of {@code type} may stand where the argument's scalar is: the same name, non-null if it is. */
    private static boolean fits(Type<?> type, GraphQLScalarType scalar, boolean required) {
        Type<?> named = type instanceof NonNullType nonNull ? nonNull.getType() : type;
        return named instanceof TypeName name && name.getName().equals(scalar.getName())
                && (type instanceof NonNullType || !required);
    }

    /** The selected columns (and {@code _asOfCommit}), each under its own response name; else null. */
    private static List<Selected> selected(Field field, GraphQLObjectType row, TableShape table) {
        List<Selected> selected = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (Selection<?> selection : field.getSelectionSet().getSelections()) {
            if (!(selection instanceof Field column) || !column.getDirectives().isEmpty()
                    || !column.getArguments().isEmpty() || column.getSelectionSet() != null
                    || !keys.add(column.getResultKey())) {
                return null;
            }
            String name = column.getName();
            boolean readable = name.equals(AS_OF_COMMIT) || table.columns().stream().anyMatch(c -> c.name().equals(name));
            GraphQLFieldDefinition definition = row.getFieldDefinition(name);
            if (!readable || definition == null) {
                return null;
            }
            GraphQLType type = definition.getType();
            if (!(GraphQLTypeUtil.unwrapNonNull(type) instanceof GraphQLScalarType scalar)) {
                return null;
            }
            selected.add(new Selected(column.getResultKey(), name, scalar, type instanceof GraphQLNonNull));
        }
        return selected;
    }
}
