package io.verso.api.graphql;

import io.verso.catalog.ColumnDef;
import io.verso.error.ErrorCode;
import io.verso.error.Origin;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Pos;
import io.verso.surface.Filter;
import io.verso.surface.ReadBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code where} and {@code orderBy} arguments as the resource layer's one filter tree and sort
 * list ({@link Filter}, {@link ReadBuilder.Sort}), each node at the argument path it came from.
 * Column names come from the schema's own enums and input fields, never from free text.
 */
final class Predicates {

    private Predicates() {
    }

    /** Every condition of {@code where} (and of its and/or/not) as one filter. */
    @SuppressWarnings("unchecked")
    static Filter where(ReadBuilder b, TableShape table, Map<String, Object> where, String path) {
        List<Filter> parts = new ArrayList<>();
        for (Map.Entry<String, Object> entry : where.entrySet()) {
            String field = entry.getKey();
            Object value = entry.getValue();
            String at = path + "." + field;
            if (value == null) {
                throw VersoException.argument(ErrorCode.INVALID_REQUEST, at + " is null: leave it out, or use isNull",
                        at);
            }
            switch (field) {
                case "and", "or" -> {
                    List<Map<String, Object>> items = (List<Map<String, Object>>) value;
                    List<Filter> inner = new ArrayList<>();
                    for (int i = 0; i < items.size(); i++) {
                        inner.add(where(b, table, items.get(i), at + "[" + i + "]"));
                    }
                    Pos pos = b.at(new Origin.Argument(at));
                    parts.add(field.equals("and") ? new Filter.All(inner, pos) : new Filter.Any(inner, pos));
                }
                case "not" -> parts.add(new Filter.Not(where(b, table, (Map<String, Object>) value, at),
                        b.at(new Origin.Argument(at))));
                default -> comparisons(b, parts, column(table, field), (Map<String, Object>) value, at);
            }
        }
        return new Filter.All(parts, b.at(new Origin.Argument(path)));
    }

    private static ColumnDef column(TableShape table, String name) {
        return table.columns().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("where field " + name + " is no column"));
    }

    @SuppressWarnings("unchecked")
    private static void comparisons(ReadBuilder b, List<Filter> parts, ColumnDef column, Map<String, Object> ops,
                                    String path) {
        for (Map.Entry<String, Object> op : ops.entrySet()) {
            Object operand = op.getValue();
            String at = path + "." + op.getKey();
            if (operand == null) {
                throw VersoException.argument(ErrorCode.INVALID_REQUEST, at
                        + " is null: comparisons with null match nothing; use isNull", at);
            }
            Pos pos = b.at(new Origin.Argument(at));
            // The comparison input's fields are the filter words (SchemaFactory.comparison); isNull takes a boolean.
            Filter.Op kind = Filter.Op.named(op.getKey()).orElseThrow(() -> new IllegalStateException(
                    "comparison " + op.getKey() + " has no translation"));
            if (kind == Filter.Op.IS_NULL && !Boolean.TRUE.equals(operand)) {
                kind = Filter.Op.NOT_NULL;
            }
            List<Object> values = switch (kind) {
                case IN, NOT_IN -> new ArrayList<>((List<Object>) operand);
                case IS_NULL, NOT_NULL -> List.of();
                default -> List.of(operand);
            };
            parts.add(new Filter.Compare(column, kind, values, pos));
        }
    }

    /** The client's order, then the key (or every column) so pages never overlap. */
    static List<ReadBuilder.Sort> orderBy(TableShape table, List<Map<String, Object>> orderBy) {
        List<ReadBuilder.Sort> sorts = new ArrayList<>();
        for (int i = 0; i < orderBy.size(); i++) {
            Map<String, Object> item = orderBy.get(i);
            String name = (String) item.get("column");
            if (sorts.stream().anyMatch(s -> s.column().name().equals(name))) {
                // As REST refuses it: the same input gets the same code on every surface.
                throw Refusals.orderedTwice(name, new Origin.Argument("orderBy[" + i + "]"));
            }
            Object nulls = item.get("nulls");
            sorts.add(new ReadBuilder.Sort(column(table, name), "DESC".equals(item.get("direction")),
                    nulls == null ? null : "FIRST".equals(nulls)));
        }
        return ReadBuilder.withTieBreak(table.def(), sorts);
    }
}
