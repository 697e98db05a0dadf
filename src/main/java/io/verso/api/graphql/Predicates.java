package io.verso.api.graphql;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns the {@code where} and {@code orderBy} arguments into dialect text. Column names come from
 * the schema's own enums and input fields, never from free text; values become parameters.
 */
final class Predicates {

    private Predicates() {
    }

    @SuppressWarnings("unchecked")
    static void where(Stmt.Builder out, Map<String, Object> where) {
        List<Runnable> parts = new ArrayList<>();
        for (Map.Entry<String, Object> entry : where.entrySet()) {
            String field = entry.getKey();
            Object value = entry.getValue();
            if (value == null) {
                throw VersoException.argument(ErrorCode.INVALID_REQUEST, "where." + field
                        + " is null: leave it out, or use isNull", "where." + field);
            }
            switch (field) {
                case "and" -> parts.add(() -> join(out, (List<Map<String, Object>>) value, " AND ", "TRUE"));
                case "or" -> parts.add(() -> join(out, (List<Map<String, Object>>) value, " OR ", "FALSE"));
                case "not" -> parts.add(() -> {
                    out.sql("(NOT ");
                    where(out, (Map<String, Object>) value);
                    out.sql(")");
                });
                default -> comparisons(parts, out, field, (Map<String, Object>) value);
            }
        }
        if (parts.isEmpty()) {
            out.sql("TRUE");
            return;
        }
        out.sql("(");
        for (int i = 0; i < parts.size(); i++) {
            out.sql(i > 0 ? " AND " : "");
            parts.get(i).run();
        }
        out.sql(")");
    }

    private static void join(Stmt.Builder out, List<Map<String, Object>> items, String op, String empty) {
        if (items.isEmpty()) {
            out.sql(empty);
            return;
        }
        out.sql("(");
        for (int i = 0; i < items.size(); i++) {
            out.sql(i > 0 ? op : "");
            where(out, items.get(i));
        }
        out.sql(")");
    }

    @SuppressWarnings("unchecked")
    private static void comparisons(List<Runnable> parts, Stmt.Builder out, String column, Map<String, Object> ops) {
        for (Map.Entry<String, Object> op : ops.entrySet()) {
            Object operand = op.getValue();
            String path = "where." + column + "." + op.getKey();
            if (operand == null) {
                throw VersoException.argument(ErrorCode.INVALID_REQUEST, path
                        + " is null: comparisons with null match nothing; use isNull", path);
            }
            parts.add(switch (op.getKey()) {
                case "eq" -> () -> binary(out, column, " = ", operand);
                case "ne" -> () -> binary(out, column, " <> ", operand);
                case "lt" -> () -> binary(out, column, " < ", operand);
                case "le" -> () -> binary(out, column, " <= ", operand);
                case "gt" -> () -> binary(out, column, " > ", operand);
                case "ge" -> () -> binary(out, column, " >= ", operand);
                case "like" -> () -> binary(out, column, " LIKE ", operand);
                case "ilike" -> () -> binary(out, column, " ILIKE ", operand);
                case "in" -> () -> in(out, column, (List<Object>) operand, false);
                case "notIn" -> () -> in(out, column, (List<Object>) operand, true);
                case "isNull" -> () -> out.sql("(").ident(column)
                        .sql(Boolean.TRUE.equals(operand) ? " IS NULL)" : " IS NOT NULL)");
                default -> throw new IllegalStateException("comparison " + op.getKey() + " has no translation");
            });
        }
    }

    private static void binary(Stmt.Builder out, String column, String op, Object operand) {
        out.sql("(").ident(column).sql(op).param(operand).sql(")");
    }

    private static void in(Stmt.Builder out, String column, List<Object> items, boolean negated) {
        if (items.isEmpty()) {
            out.sql(negated ? "TRUE" : "FALSE");
            return;
        }
        out.sql(negated ? "(NOT (" : "(").ident(column).sql(" IN (");
        for (int i = 0; i < items.size(); i++) {
            out.sql(i > 0 ? ", " : "").param(items.get(i));
        }
        out.sql(negated ? ")))" : "))");
    }

    /** ORDER BY the client's columns, then the key (or every column) so pages never overlap. */
    static void orderBy(Stmt.Builder out, List<Map<String, Object>> orderBy, List<String> tieBreakers) {
        List<String> used = new ArrayList<>();
        out.sql(" ORDER BY ");
        for (Map<String, Object> item : orderBy) {
            String column = (String) item.get("column");
            out.sql(used.isEmpty() ? "" : ", ").ident(column);
            out.sql("DESC".equals(item.get("direction")) ? " DESC" : " ASC");
            Object nulls = item.get("nulls");
            if (nulls != null) {
                out.sql("FIRST".equals(nulls) ? " NULLS FIRST" : " NULLS LAST");
            }
            used.add(column);
        }
        for (String column : tieBreakers) {
            if (!used.contains(column)) {
                out.sql(used.isEmpty() ? "" : ", ").ident(column).sql(" ASC");
                used.add(column);
            }
        }
    }
}
