package io.verso.api.graphql;

import graphql.GraphQLContext;
import graphql.execution.CoercedVariables;
import graphql.language.ArrayValue;
import graphql.language.BooleanValue;
import graphql.language.EnumValue;
import graphql.language.FloatValue;
import graphql.language.IntValue;
import graphql.language.NullValue;
import graphql.language.ObjectValue;
import graphql.language.StringValue;
import graphql.language.Value;
import graphql.language.VariableReference;
import graphql.schema.Coercing;
import graphql.schema.CoercingParseLiteralException;
import graphql.schema.CoercingParseValueException;
import graphql.schema.CoercingSerializeException;
import graphql.schema.GraphQLScalarType;
import io.verso.analyze.Values;
import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Scalars that keep a value's full precision on the wire. 64-bit integers, NUMERIC and commit
 * sequences travel as JSON strings (a JavaScript number cannot hold them exactly) and are accepted
 * as strings or as literals of any size; dates and timestamps are ISO-8601 strings. Parsed inputs
 * are the engine's parameter forms: exact decimal text, ISO text, or a JSON tree for JSONB.
 */
final class VersoScalars {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static final GraphQLScalarType BIG_INT = scalar("BigInt",
            "A 64-bit integer, as a JSON string (input: a string or an integer literal).",
            text -> integerText(text, Long.MIN_VALUE));
    static final GraphQLScalarType NUMERIC = scalar("Numeric",
            "An exact decimal (NUMERIC), as a JSON string in plain notation (input: a string or a number literal).",
            text -> Values.decimal(text).toPlainString());
    /** Taken only by {@code asOfCommit}: a refused one gets the code AS OF COMMIT gets in /v1/sql. */
    static final GraphQLScalarType COMMIT_SEQ = scalar("CommitSeq",
            "A commit sequence: a positive 64-bit integer, as a JSON string.",
            text -> integerText(text, 1), VersoScalars::commitRefusal);
    static final GraphQLScalarType DATE = scalar("Date", "A calendar date, ISO-8601 (2026-10-01).",
            text -> LocalDate.parse(text.trim()).toString());
    // Timestamps take the forms REST and /v1/sql take, judged by the one value codec.
    static final GraphQLScalarType TIMESTAMP = scalar("Timestamp",
            "A date and time without time zone, ISO-8601 (2026-10-01T12:00:00.123).",
            Values::timestampText);
    static final GraphQLScalarType TIMESTAMPTZ = scalar("TimestampTz",
            "An instant, ISO-8601 with Z or an offset; read back in UTC (2026-10-01T12:00:00Z).",
            Values::timestampText);
    static final GraphQLScalarType UUID_TYPE = scalar("UUID", "A UUID in its canonical text form.",
            text -> UUID.fromString(text.trim()).toString());
    static final GraphQLScalarType JSON_TYPE = GraphQLScalarType.newScalar().name("JSON")
            .description("Any JSON value (JSONB columns).").coercing(new JsonCoercing()).build();

    static final List<GraphQLScalarType> ALL = List.of(BIG_INT, NUMERIC, COMMIT_SEQ, DATE, TIMESTAMP, TIMESTAMPTZ,
            UUID_TYPE, JSON_TYPE);

    private VersoScalars() {
    }

    private static String integerText(String text, long min) {
        BigInteger value = Values.decimal(text).toBigIntegerExact();
        if (value.compareTo(BigInteger.valueOf(min)) < 0 || value.bitLength() > 63) {
            throw new IllegalArgumentException("out of range");
        }
        return value.toString();
    }

    private static ErrorCode commitRefusal(String text) {
        try {
            return Values.decimal(text).signum() <= 0 ? ErrorCode.AS_OF_NOT_POSITIVE : ErrorCode.AS_OF_NOT_INTEGER;
        } catch (RuntimeException e) {
            return ErrorCode.AS_OF_NOT_INTEGER;
        }
    }

    /**
     * A string-valued scalar whose canonical text {@code canon} computes, rejecting what it throws on
     * with INVALID_VALUE, the code REST and /v1/sql give a value its column cannot hold.
     */
    private static GraphQLScalarType scalar(String name, String description, Function<String, String> canon) {
        return scalar(name, description, canon, text -> ErrorCode.INVALID_VALUE);
    }

    private static GraphQLScalarType scalar(String name, String description, Function<String, String> canon,
                                            Function<String, ErrorCode> refusal) {
        return GraphQLScalarType.newScalar().name(name).description(description)
                .coercing(new TextCoercing(name, canon, refusal)).build();
    }

    /**
     * A refused input keeps graphql-java's classification (a ValidationError, or a variable's coercion
     * error) and carries in its extensions the same code, status and category an engine error has:
     * clients branch on the code whichever stage refused the value.
     */
    private static final class TextCoercing implements Coercing<String, String> {
        private final String name;
        private final Function<String, String> canon;
        private final Function<String, ErrorCode> refusal;

        TextCoercing(String name, Function<String, String> canon, Function<String, ErrorCode> refusal) {
            this.name = name;
            this.canon = canon;
            this.refusal = refusal;
        }

        private Map<String, Object> refused(Object input) {
            return GraphqlErrors.extensions(Problem.of(refusal.apply(String.valueOf(input)), null));
        }

        private String canonical(Object value) {
            if (value instanceof Boolean || value == null) {
                throw new IllegalArgumentException("not a " + name);
            }
            String text = value instanceof BigDecimal d ? Values.bounded(d).toPlainString()
                    : value instanceof Double || value instanceof Float ? new BigDecimal(value.toString()).toPlainString()
                    : value.toString();
            return canon.apply(text);
        }

        @Override
        public String serialize(Object value, GraphQLContext context, Locale locale) {
            try {
                return canonical(value);
            } catch (RuntimeException e) {
                throw new CoercingSerializeException("cannot serialize " + value + " as " + name);
            }
        }

        @Override
        public String parseValue(Object input, GraphQLContext context, Locale locale) {
            if (!(input instanceof String || input instanceof Number)) {
                throw CoercingParseValueException.newCoercingParseValueException().message(name + " takes a string"
                        + (numeric() ? " or a number" : "") + ", not " + input).extensions(refused(input)).build();
            }
            try {
                return canonical(input);
            } catch (RuntimeException e) {
                throw CoercingParseValueException.newCoercingParseValueException()
                        .message("'" + input + "' is not a valid " + name).extensions(refused(input)).build();
            }
        }

        @Override
        public String parseLiteral(Value<?> input, CoercedVariables variables, GraphQLContext context, Locale locale) {
            Object raw = input instanceof StringValue s ? s.getValue()
                    : input instanceof IntValue i ? i.getValue()
                    : input instanceof FloatValue f ? f.getValue()
                    : null;
            if (raw == null || (!numeric() && !(input instanceof StringValue))) {
                throw CoercingParseLiteralException.newCoercingParseLiteralException().message(name + " takes a string"
                        + (numeric() ? " or a number" : "") + " literal").extensions(refused(raw)).build();
            }
            try {
                return canonical(raw);
            } catch (RuntimeException e) {
                throw CoercingParseLiteralException.newCoercingParseLiteralException()
                        .message("'" + raw + "' is not a valid " + name).extensions(refused(raw)).build();
            }
        }

        @Override
        public Value<?> valueToLiteral(Object input, GraphQLContext context, Locale locale) {
            return StringValue.of(canonical(input));
        }

        private boolean numeric() {
            return name.equals("BigInt") || name.equals("Numeric") || name.equals("CommitSeq");
        }
    }

    /** JSONB: outputs the stored JSON tree as is; inputs become a JSON tree for the engine. */
    private static final class JsonCoercing implements Coercing<JsonNode, Object> {

        @Override
        public Object serialize(Object value, GraphQLContext context, Locale locale) {
            // The tree goes to the response writer as is, so decimals keep their digits.
            return value;
        }

        @Override
        public JsonNode parseValue(Object input, GraphQLContext context, Locale locale) {
            return JSON.valueToTree(input);
        }

        @Override
        public JsonNode parseLiteral(Value<?> input, CoercedVariables variables, GraphQLContext context,
                                     Locale locale) {
            return JSON.valueToTree(literal(input, variables));
        }

        private static Object literal(Value<?> input, CoercedVariables variables) {
            if (input instanceof StringValue s) {
                return s.getValue();
            }
            if (input instanceof IntValue i) {
                return i.getValue();
            }
            if (input instanceof FloatValue f) {
                return f.getValue();
            }
            if (input instanceof BooleanValue b) {
                return b.isValue();
            }
            if (input instanceof EnumValue e) {
                return e.getName();
            }
            if (input instanceof NullValue) {
                return null;
            }
            if (input instanceof VariableReference v) {
                return variables.get(v.getName());
            }
            if (input instanceof ArrayValue a) {
                List<Object> list = new ArrayList<>();
                a.getValues().forEach(v -> list.add(literal(v, variables)));
                return list;
            }
            if (input instanceof ObjectValue o) {
                Map<String, Object> map = new LinkedHashMap<>();
                o.getObjectFields().forEach(f -> map.put(f.getName(), literal(f.getValue(), variables)));
                return map;
            }
            throw new CoercingParseLiteralException("not a JSON value: " + input);
        }
    }
}
