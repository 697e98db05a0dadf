package io.verso.surface;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.TableDef;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The body of a row write, {@code {"rows": [...], ...}}, read from its bytes in one pass of a streaming
 * parser: no tree for the rows, no map per row. Each row keeps its fields' names and values in the order
 * given; a name given twice keeps its first place and takes the later value, as in a tree. A value is kept
 * as the engine binds it when that needs no column type (a string, an integer as BigDecimal, a boolean,
 * null for JSON null), else as a tree for {@link JsonForms#valuesItem}: decimals, arrays, objects, and
 * every value of a JSONB column. The other members ({@code group}, {@code insertOnly}, ...) are trees.
 * Nothing is checked here but the JSON itself: a body that is not a JSON object is refused by {@link
 * RequestJson#object(String)}, in the tree reader's words, and every other rule is the caller's.
 */
final class RowsBody {

    private final List<Row> rows;
    private final ObjectNode fields;

    private RowsBody(List<Row> rows, ObjectNode fields) {
        this.rows = rows;
        this.fields = fields;
    }

    /** One element of {@code rows}: an object's fields, or (names null) anything else. */
    static final class Row {
        /** Shared with the row before when it names the same columns in the same order. */
        final String[] names;
        /** Each name's column, null for a name the table does not have. */
        final ColumnDef[] columns;
        final Object[] values;
        final int size;

        private Row(String[] names, ColumnDef[] columns, Object[] values, int size) {
            this.names = names;
            this.columns = columns;
            this.values = values;
            this.size = size;
        }

        boolean isObject() {
            return names != null;
        }

        /** The index of field {@code name}, or -1. */
        int indexOf(String name) {
            return RowsBody.indexOf(names, size, name);
        }
    }

    static RowsBody read(byte[] body, TableDef table) {
        try (JsonParser p = RequestJson.VALUES.createParser(body == null ? new byte[0] : body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return notAnObject(body);
            }
            List<Row> rows = null;
            ObjectNode fields = RequestJson.VALUES.createObjectNode();
            for (String name = p.nextName(); name != null; name = p.nextName()) {
                JsonToken token = p.nextToken();
                if (name.equals("rows") && token == JsonToken.START_ARRAY) {
                    rows = rows(p, table);
                    fields.remove(name);
                } else {
                    fields.set(name, (JsonNode) RequestJson.VALUES.readTree(p));
                    rows = name.equals("rows") ? null : rows;
                }
            }
            return p.nextToken() == null ? new RowsBody(rows, fields) : notAnObject(body);
        } catch (JacksonException | NumberFormatException e) {
            return notAnObject(body);
        }
    }

    /** The rows; for a missing, null, non-array or empty {@code rows}, the tree reader's error. */
    List<Row> rows() {
        if (rows == null) {
            throw RequestJson.notArray(fields.get("rows"), "rows", "/rows");
        }
        if (rows.isEmpty()) {
            throw RequestJson.invalid("\"rows\" must not be empty", "/rows");
        }
        return rows;
    }

    /** The members other than {@code rows}, as a tree. */
    JsonNode fields() {
        return fields;
    }

    private static RowsBody notAnObject(byte[] body) {
        RequestJson.object(body == null ? null : new String(body, StandardCharsets.UTF_8));
        throw new IllegalStateException("the streaming reader refused a body that the tree reader takes");
    }

    private static List<Row> rows(JsonParser p, TableDef table) {
        List<Row> rows = new ArrayList<>();
        Row previous = null;
        for (JsonToken token = p.nextToken(); token != JsonToken.END_ARRAY; token = p.nextToken()) {
            if (token != JsonToken.START_OBJECT) {
                p.skipChildren();
                rows.add(new Row(null, null, null, 0));
                continue;
            }
            Row row = row(p, table, previous != null && previous.isObject() ? previous : null);
            rows.add(row);
            previous = row;
        }
        return rows;
    }

    /** The object at the parser's START_OBJECT; {@code previous} (or null) names its columns alike, most often. */
    private static Row row(JsonParser p, TableDef table, Row previous) {
        int capacity = previous == null ? 8 : previous.size;
        String[] names = new String[capacity];
        ColumnDef[] columns = new ColumnDef[capacity];
        Object[] values = new Object[capacity];
        int size = 0;
        // Names so far are those of previous, in its order (whose names are distinct): no look-ups needed.
        boolean asBefore = previous != null;
        for (String name = p.nextName(); name != null; name = p.nextName()) {
            p.nextToken();
            boolean same = asBefore && size < previous.size && previous.names[size].equals(name);
            int at = same ? -1 : indexOf(names, size, name);
            ColumnDef column = same ? previous.columns[size]
                    : at >= 0 ? columns[at] : table.column(name).orElse(null);
            Object value = value(p, column);
            if (at >= 0) {
                values[at] = value;
                asBefore = false;
                continue;
            }
            if (size == names.length) {
                names = Arrays.copyOf(names, size * 2 + 1);
                columns = Arrays.copyOf(columns, names.length);
                values = Arrays.copyOf(values, names.length);
            }
            names[size] = name;
            columns[size] = column;
            values[size] = value;
            size++;
            asBefore = same;
        }
        if (asBefore && size == previous.size) {
            return new Row(previous.names, previous.columns, values, size);
        }
        return new Row(names, columns, values, size);
    }

    private static int indexOf(String[] names, int size, String name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The value at the parser's current token, which it consumes. */
    private static Object value(JsonParser p, ColumnDef column) {
        if (column != null && column.type().base() == ColumnType.Base.JSONB) {
            return RequestJson.VALUES.readTree(p);
        }
        return JsonScalars.isScalar(p.currentToken()) ? JsonScalars.read(p) : RequestJson.VALUES.readTree(p);
    }
}
