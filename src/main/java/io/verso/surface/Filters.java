package io.verso.surface;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Pos;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * REST's row filters, {@code column:op:value} query parameters, as the one {@link Filter} tree of
 * every surface. Values stay text here: {@link ReadBuilder} checks them against the column's type.
 */
final class Filters {

    private Filters() {
    }

    /** Every filter parameter must hold: their conjunction. */
    static Filter parse(TableDef table, List<String> filters) {
        List<Filter> parts = new ArrayList<>();
        for (int i = 0; i < filters.size(); i++) {
            parts.add(parse(table, filters.get(i), i));
        }
        return new Filter.All(parts, Pos.pointer("filter"));
    }

    /** {@code filter}, the index-th filter parameter. */
    static Filter parse(TableDef table, String filter, int index) {
        String pointer = "filter[" + index + "]";
        Pos pos = Pos.pointer(pointer);
        int first = filter.indexOf(':');
        if (first <= 0) {
            throw bad(pointer, "filter '" + Commits.shorten(filter) + "' is not column:op:value");
        }
        String name = filter.substring(0, first);
        int second = filter.indexOf(':', first + 1);
        String op = second < 0 ? filter.substring(first + 1) : filter.substring(first + 1, second);
        String value = second < 0 ? null : filter.substring(second + 1);
        ColumnDef column = table.column(name).orElseThrow(() -> Refusals.unknownColumn(name, table.name(),
                Pos.pointer(pointer)));
        Filter.Op kind = Filter.Op.named(op).orElseThrow(() -> bad(pointer, "unknown filter operator '"
                + Commits.shorten(op) + "': use " + Filter.Op.words()));
        if (!kind.appliesTo(column.type().base())) {
            throw bad(pointer, op + " does not apply to column '" + column.name() + "' of type "
                    + column.type().display());
        }
        switch (kind) {
            case IS_NULL, NOT_NULL -> {
                if (value != null) {
                    throw bad(pointer, op + " takes no value");
                }
                return new Filter.Compare(column, kind, List.of(), pos);
            }
            case IN, NOT_IN -> {
                return new Filter.Compare(column, kind, new ArrayList<>(list(op, value, pointer)), pos);
            }
            default -> {
                if (value == null) {
                    throw bad(pointer, op + " needs a value: column:" + op + ":value");
                }
                return new Filter.Compare(column, kind, List.of(value), pos);
            }
        }
    }

    private static List<String> list(String op, String value, String pointer) {
        if (value == null || value.isEmpty()) {
            throw bad(pointer, op + " needs at least one value: column:" + op + ":a,b,c");
        }
        List<String> values = new ArrayList<>();
        if (value.startsWith("[")) {
            JsonNode array;
            try {
                array = RequestJson.JSON.readTree(value);
            } catch (JacksonException e) {
                throw bad(pointer, "the value list of " + op + " is not a JSON array: " + e.getOriginalMessage());
            }
            if (!array.isArray() || array.isEmpty()) {
                throw bad(pointer, "the value list of " + op + " must be a non-empty JSON array");
            }
            for (JsonNode item : array) {
                if (item.isNull() || item.isContainer()) {
                    throw bad(pointer, op + " takes strings, numbers or booleans (use isNull for NULL)");
                }
                values.add(item.asString());
            }
        } else {
            values.addAll(List.of(value.split(",", -1)));
        }
        return values;
    }

    private static VersoException bad(String pointer, String message) {
        return VersoException.pointing(ErrorCode.INVALID_PARAMETER, message, pointer);
    }
}
