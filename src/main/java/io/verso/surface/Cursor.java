package io.verso.surface;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Where a listing stopped, opaque to clients (base64url of JSON): the commit the first page was
 * served at (null when the table keeps no history), the filters and order it was asked with, and
 * either the last row's values in that order (keyset, keyed tables) or the number of rows served
 * (APPEND tables, which have no key; stable because every page reads the same commit).
 */
record Cursor(Long commit, List<String> filters, List<String> order, List<String> after, long offset) {

    String encode() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("c", commit);
        json.put("f", filters);
        json.put("o", order);
        json.put("a", after);
        json.put("n", offset);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(RequestJson.JSON.writeValueAsBytes(json));
    }

    static Cursor decode(String text) {
        try {
            JsonNode json = RequestJson.JSON.readTree(new String(Base64.getUrlDecoder().decode(text),
                    StandardCharsets.UTF_8));
            JsonNode commit = json.get("c");
            return new Cursor(commit == null || commit.isNull() ? null : commit.longValue(), strings(json.get("f")),
                    strings(json.get("o")), strings(json.get("a")), json.get("n").longValue());
        } catch (RuntimeException e) {
            throw VersoException.pointing(ErrorCode.INVALID_PARAMETER,
                    "cursor is not a cursor this service handed out", "cursor");
        }
    }

    private static List<String> strings(JsonNode array) {
        if (array == null || !array.isArray()) {
            throw new IllegalArgumentException("not an array");
        }
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.isNull() ? null : v.asString()));
        return values;
    }
}
