package io.verso.surface;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Request bodies read as JSON trees, so that every malformed field is refused with a JSON pointer
 * to it (a bound DTO would fail with a message about Java types instead).
 */
final class RequestJson {

    /** Numbers keep their exact value: decimals as BigDecimal, integers of any size. */
    static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    /** The same, reading one value after another from a parser (a streaming reader's nested values). */
    static final JsonMapper VALUES = JSON.rebuild().disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private RequestJson() {
    }

    static JsonNode object(String body) {
        JsonNode node;
        try {
            node = body == null || body.isBlank() ? null : JSON.readTree(body);
        } catch (JacksonException e) {
            throw invalid(JsonScalars.notJson(e), "/");
        } catch (NumberFormatException e) {
            throw invalid(JsonScalars.outOfRange(e), "/");
        }
        if (node == null || !node.isObject()) {
            throw invalid("the request body must be a JSON object", "/");
        }
        return node;
    }

    static String string(JsonNode parent, String field, String pointer, boolean required) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw invalid("\"" + field + "\" is required", pointer);
            }
            return null;
        }
        if (!node.isString()) {
            throw invalid("\"" + field + "\" must be a string", pointer);
        }
        return node.asString();
    }

    static boolean bool(JsonNode parent, String field, String pointer) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw invalid("\"" + field + "\" must be true or false", pointer);
        }
        return node.booleanValue();
    }

    /** An array field's elements; an absent or null field is an empty list unless required. */
    static List<JsonNode> array(JsonNode parent, String field, String pointer, boolean required) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw notArray(node, field, pointer);
            }
            return List.of();
        }
        if (!node.isArray()) {
            throw notArray(node, field, pointer);
        }
        List<JsonNode> items = new ArrayList<>();
        node.forEach(items::add);
        if (required && items.isEmpty()) {
            throw invalid("\"" + field + "\" must not be empty", pointer);
        }
        return items;
    }

    /** Why {@code node}, the value of a required array field, is not one: missing or null, or another kind. */
    static VersoException.UserError notArray(JsonNode node, String field, String pointer) {
        return invalid("\"" + field + (node == null || node.isNull() ? "\" is required" : "\" must be an array"),
                pointer);
    }

    static List<String> names(JsonNode parent, String field, String pointer) {
        List<String> names = new ArrayList<>();
        List<JsonNode> items = array(parent, field, pointer, false);
        for (int i = 0; i < items.size(); i++) {
            if (!items.get(i).isString() || items.get(i).asString().isEmpty()) {
                throw invalid("\"" + field + "\" must hold names (non-empty strings)", pointer + "/" + i);
            }
            names.add(items.get(i).asString());
        }
        return names;
    }

    static JsonNode object(JsonNode node, String pointer) {
        if (node == null || !node.isObject()) {
            throw notObject(pointer);
        }
        return node;
    }

    static VersoException.UserError notObject(String pointer) {
        return invalid("must be a JSON object", pointer);
    }

    /** A JSON pointer token for a member name (RFC 6901 escaping). */
    static String token(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    static VersoException.UserError invalid(String message, String pointer) {
        return VersoException.pointing(ErrorCode.INVALID_REQUEST, pointer.equals("/") ? message
                : pointer + ": " + message, pointer);
    }
}
