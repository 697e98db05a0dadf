package io.verso.compile;

import java.util.List;

/**
 * SQL text with its bind values in placeholder order. Values are plain Java values, or
 * {@link ArrayBind} for the column arrays that set-based writes unnest.
 */
public record CompiledSql(String sql, List<Object> binds) {

    /** A PostgreSQL array bind: {@code elementType} is {@code text} or {@code int4}. */
    public record ArrayBind(String elementType, Object[] values) {
        @Override
        public String toString() {
            return elementType + java.util.Arrays.toString(values);
        }
    }

    /** For golden files and logs: the text, then one bind per line. */
    public String render() {
        StringBuilder out = new StringBuilder(sql);
        for (int i = 0; i < binds.size(); i++) {
            out.append("\n-- $").append(i + 1).append(" = ").append(describe(binds.get(i)));
        }
        return out.toString();
    }

    private static String describe(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof String s) {
            return "'" + s + "'";
        }
        return value + " (" + value.getClass().getSimpleName() + ")";
    }
}
