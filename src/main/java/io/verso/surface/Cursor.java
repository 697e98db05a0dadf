package io.verso.surface;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Pos;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Where a listing stopped, in the one cursor format of every surface, opaque to clients (base64url
 * of JSON): the commit the first page was served at (null when the table keeps no history), the
 * filters and order it was asked with (REST checks that a cursor is used with the same ones; GraphQL
 * leaves them empty), and either the last row's values in that order (keyset) or the number of rows
 * served (offset paging; stable because every page reads the same commit).
 */
public record Cursor(Long commit, List<String> filters, List<String> order, List<String> after, long offset) {

    /** An offset cursor: {@code offset} rows of the listing read at {@code commit} were served. */
    public static Cursor offset(Long commit, long offset) {
        return new Cursor(commit, List.of(), List.of(), List.of(), offset);
    }

    public String encode() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("c", commit);
        json.put("f", filters);
        json.put("o", order);
        json.put("a", after);
        json.put("n", offset);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(RequestJson.JSON.writeValueAsBytes(json));
    }

    /** The cursor {@code text} names, or INVALID_PARAMETER at {@code pos} when this service did not make it. */
    public static Cursor decode(String text, Pos pos) {
        try {
            JsonNode json = RequestJson.JSON.readTree(new String(Base64.getUrlDecoder().decode(text),
                    StandardCharsets.UTF_8));
            JsonNode commit = json.get("c");
            long offset = json.get("n").longValue();
            Long at = commit == null || commit.isNull() ? null : commit.longValue();
            if (offset < 0 || (at != null && at < 1)) {
                throw new IllegalArgumentException("out of range");
            }
            return new Cursor(at, strings(json.get("f")), strings(json.get("o")), strings(json.get("a")), offset);
        } catch (RuntimeException e) {
            throw VersoException.at(ErrorCode.INVALID_PARAMETER, "cursor is not a cursor this service handed out",
                    pos);
        }
    }

    /**
     * The offset cursor {@code text} names (GraphQL's), or INVALID_PARAMETER at {@code pos} for a
     * keyset cursor (REST's): read as an offset it would silently serve another page.
     */
    public static Cursor decodeOffset(String text, Pos pos) {
        Cursor cursor = decode(text, pos);
        if (!cursor.after().isEmpty() || !cursor.filters().isEmpty() || !cursor.order().isEmpty()) {
            throw VersoException.at(ErrorCode.INVALID_PARAMETER, "cursor was handed out by a REST listing "
                    + "(GET /v1/tables/{table}/rows): pass it there, or page here with this field's endCursor", pos);
        }
        return cursor;
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
