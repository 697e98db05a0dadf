package io.verso.api.rest;

import io.verso.surface.JsonScalars;
import java.math.BigDecimal;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Request JSON values as the engine takes them: exact numbers, strings, booleans, null, JSON structures. */
final class JsonValues {

    private JsonValues() {
    }

    static Object toJava(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isNumber()) {
            return node.isIntegralNumber() ? new BigDecimal(node.bigIntegerValue()) : node.decimalValue();
        }
        if (node.isString()) {
            return node.asString();
        }
        return node;
    }

    /**
     * {@link #toJava} of the value at the parser's current token, which it consumes: strings, integers,
     * booleans and null straight from the token, anything else through a tree of {@code mapper}.
     */
    static Object read(JsonParser parser, JsonMapper mapper) {
        return JsonScalars.isScalar(parser.currentToken()) ? JsonScalars.read(parser)
                : toJava(mapper.readTree(parser));
    }
}
