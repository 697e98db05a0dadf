package io.verso.surface;

import io.verso.analyze.Values;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.math.BigDecimal;
import tools.jackson.databind.JsonNode;

/**
 * The one JSON form per column type (documented in openapi/verso.yaml), in both directions.
 * Output comes from the engine already in that form; this class takes input (JSON values, or
 * text from query parameters) to the parameter values the engine binds, and key texts back to
 * JSON. Numbers stay exact: JSON numbers become BigDecimal, never double.
 */
final class JsonForms {

    private JsonForms() {
    }

    /** A JSON value for {@code column} as an engine parameter, or INVALID_VALUE pointing at it. */
    static Object param(ColumnDef column, JsonNode value, String pointer) {
        Object param = unchecked(column, value, pointer);
        check(column, param, pointer);
        return param;
    }

    /**
     * The same, for a value the engine checks itself: an item of UPSERT/INSERT VALUES, whose errors
     * the engine reports at the item's position, which is the JSON pointer it came from.
     * Checking it here too would validate every value of a batch twice.
     */
    static Object valuesItem(ColumnDef column, JsonNode value, String pointer) {
        return unchecked(column, value, pointer);
    }

    private static Object unchecked(ColumnDef column, JsonNode value, String pointer) {
        if (value == null || value.isNull()) {
            return null;
        }
        Object param;
        if (column.type().base() == ColumnType.Base.JSONB) {
            // The JSON value itself is the column's value, a JSON string included.
            param = RequestJson.JSON.writeValueAsString(value);
        } else if (value.isNumber()) {
            param = value.isIntegralNumber() ? new BigDecimal(value.bigIntegerValue()) : value.decimalValue();
        } else if (value.isBoolean()) {
            param = value.booleanValue();
        } else if (value.isString()) {
            param = value.asString();
        } else {
            throw VersoException.pointing(ErrorCode.INVALID_VALUE, "value for column " + column.name() + " ("
                    + column.type().display() + ") must be a " + form(column.type()) + ", not a JSON "
                    + (value.isArray() ? "array" : "object"), pointer);
        }
        return param;
    }

    /** Query-parameter text for {@code column} (strings unquoted; JSONB as JSON text). */
    static Object param(ColumnDef column, String text, String pointer) {
        check(column, text, pointer);
        return text;
    }

    private static void check(ColumnDef column, Object param, String pointer) {
        try {
            Values.toText(column, param, null, null);
        } catch (VersoException.UserError e) {
            throw VersoException.pointing(e.code(), e.getMessage(), pointer);
        }
    }

    /** A key value the engine reports as text (its normalised input), in the column's JSON form. */
    static Object fromKeyText(ColumnDef column, String text) {
        if (text == null) {
            return null;
        }
        try {
            return switch (column.type().base()) {
                case SMALLINT, INTEGER -> Integer.valueOf(text.trim());
                case REAL, DOUBLE -> Double.valueOf(text.trim());
                case BOOLEAN -> text.trim().toLowerCase().startsWith("t");
                case JSONB -> RequestJson.JSON.readTree(text);
                default -> text;
            };
        } catch (RuntimeException e) {
            // NumberFormatException, or Jackson's: the text is not a value of the key column's type.
            throw VersoException.pointing(ErrorCode.INVALID_PARAMETER, "key '" + Commits.shorten(text)
                    + "' is not a value of " + column.name() + "'s type " + column.type().display(), "key");
        }
    }

    /** A value in the JSON form the engine renders, as text for a CAST(? AS type) parameter. */
    static Object rendered(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof JsonNode node) {
            return RequestJson.JSON.writeValueAsString(node);
        }
        return value instanceof Number || value instanceof Boolean ? value.toString() : value;
    }

    /**
     * The dialect type to compare a column's values in: its base type, so a filter value is not
     * rounded to the column's precision before it is compared.
     */
    static String comparisonType(ColumnType type) {
        return switch (type.base()) {
            case VARCHAR, CHAR -> "TEXT";
            default -> ColumnType.of(type.base()).display();
        };
    }

    private static String form(ColumnType type) {
        return switch (type.base()) {
            case SMALLINT, INTEGER, REAL, DOUBLE -> "JSON number";
            case BIGINT, NUMERIC -> "string of digits (or a JSON number)";
            case BOOLEAN -> "JSON boolean";
            default -> "JSON string";
        };
    }
}
