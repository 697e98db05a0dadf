package io.verso.api.rest;

import java.math.BigDecimal;
import tools.jackson.databind.JsonNode;

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
}
