package io.verso.surface;

import java.math.BigDecimal;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Scalar JSON values read straight from a streaming parser, in the forms a bound parameter takes: a
 * string, an integer as BigDecimal, a boolean, null. The streaming readers of request bodies (REST rows,
 * {@code /v1/sql} parameters) share it; anything else they read as a tree.
 */
public final class JsonScalars {

    private JsonScalars() {
    }

    /** Whether {@link #read} takes the value at {@code token}. */
    public static boolean isScalar(JsonToken token) {
        return switch (token) {
            case VALUE_STRING, VALUE_NUMBER_INT, VALUE_TRUE, VALUE_FALSE, VALUE_NULL -> true;
            default -> false;
        };
    }

    /** The scalar at the parser's current token ({@link #isScalar}). */
    public static Object read(JsonParser parser) {
        return switch (parser.currentToken()) {
            case VALUE_STRING -> parser.getString();
            case VALUE_NUMBER_INT -> parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? new BigDecimal(parser.getBigIntegerValue()) : BigDecimal.valueOf(parser.getLongValue());
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new IllegalStateException("not a scalar: " + parser.currentToken());
        };
    }

    /** Why a body that is not JSON cannot be read: the same words from every endpoint that reads one. */
    public static String notJson(JacksonException e) {
        return "the request body is not valid JSON: " + e.getOriginalMessage();
    }

    /**
     * Why a body holding {@code e}'s number cannot be read: Jackson reports a number whose exponent no
     * BigDecimal holds ({@code 1e2147483648}) as a NumberFormatException of its own, not as a parse error.
     */
    public static String outOfRange(NumberFormatException e) {
        return "the request body holds a number no decimal can hold: " + e.getMessage();
    }
}
