package io.verso.surface;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Row filters from query parameters, {@code column:op:value}, as dialect predicates. Each value
 * is checked against the column's type and bound as {@code CAST(? AS type)}.
 */
final class Filters {

    private static final Map<String, String> COMPARISONS = Map.of(
            "eq", " = ", "ne", " <> ", "lt", " < ", "le", " <= ", "gt", " > ", "ge", " >= ");

    private Filters() {
    }

    /** Appends {@code filter} (the index-th) as a parenthesised predicate. */
    static void append(Script script, TableDef table, String filter, int index) {
        String pointer = "filter[" + index + "]";
        int first = filter.indexOf(':');
        if (first <= 0) {
            throw bad(pointer, "filter '" + Commits.shorten(filter) + "' is not column:op:value");
        }
        String name = filter.substring(0, first);
        int second = filter.indexOf(':', first + 1);
        String op = second < 0 ? filter.substring(first + 1) : filter.substring(first + 1, second);
        String value = second < 0 ? null : filter.substring(second + 1);
        ColumnDef column = table.column(name).orElseThrow(() -> VersoException.pointing(ErrorCode.UNKNOWN_COLUMN,
                "unknown column '" + name + "' in " + table.name(), pointer));
        script.mark(pointer).sql("(").ident(column.name());
        switch (op) {
            case "isNull", "notNull" -> {
                if (value != null) {
                    throw bad(pointer, op + " takes no value");
                }
                script.sql(op.equals("isNull") ? " IS NULL" : " IS NOT NULL");
            }
            case "in" -> {
                List<String> values = list(value, pointer);
                script.sql(" IN (");
                for (int i = 0; i < values.size(); i++) {
                    script.sql(i == 0 ? "" : ", ");
                    cast(script, column, values.get(i), pointer);
                }
                script.sql(")");
            }
            default -> {
                String comparison = COMPARISONS.get(op);
                if (comparison == null) {
                    throw bad(pointer, "unknown filter operator '" + Commits.shorten(op)
                            + "': use eq, ne, lt, le, gt, ge, in, isNull or notNull");
                }
                if (value == null) {
                    throw bad(pointer, op + " needs a value: column:" + op + ":value");
                }
                script.sql(comparison);
                cast(script, column, value, pointer);
            }
        }
        script.sql(")");
    }

    static void cast(Script script, ColumnDef column, String value, String pointer) {
        script.sql("CAST(").param(JsonForms.param(column, value, pointer)).sql(" AS ")
                .sql(JsonForms.comparisonType(column.type())).sql(")");
    }

    private static List<String> list(String value, String pointer) {
        if (value == null || value.isEmpty()) {
            throw bad(pointer, "in needs at least one value: column:in:a,b,c");
        }
        List<String> values = new ArrayList<>();
        if (value.startsWith("[")) {
            JsonNode array;
            try {
                array = RequestJson.JSON.readTree(value);
            } catch (JacksonException e) {
                throw bad(pointer, "the value list of in is not a JSON array: " + e.getOriginalMessage());
            }
            if (!array.isArray() || array.isEmpty()) {
                throw bad(pointer, "the value list of in must be a non-empty JSON array");
            }
            for (JsonNode item : array) {
                if (item.isNull() || item.isContainer()) {
                    throw bad(pointer, "in takes strings, numbers or booleans (use isNull for NULL)");
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
