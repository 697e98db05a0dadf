package io.verso.compile;

import java.util.List;

/**
 * SQL text with its bind values in placeholder order. Values are plain Java values, {@link TextBind} for a
 * string where text is what PostgreSQL would take it for, or {@link ArrayBind} for the column arrays that
 * set-based writes unnest.
 */
public record CompiledSql(String sql, List<Object> binds) {

    /** A PostgreSQL array bind: {@code elementType} is {@code text} or {@code int4}. */
    public record ArrayBind(String elementType, Object[] values) {
        @Override
        public String toString() {
            return elementType + java.util.Arrays.toString(values);
        }
    }

    /**
     * A string sent typed {@code text}, not untyped as other strings are (stringtype=unspecified): for the
     * operand of a CAST and a comparison with a text column, where text is what PostgreSQL would infer. A
     * statement whose every bind is typed needs no Describe of its parameters, and pgjdbc sends a described
     * statement whose rows have a column of variable width only after a Sync of its own (a round trip, to
     * keep the receive buffer from filling): typing the binds of the hot reads saves one round trip each.
     */
    public record TextBind(String value) {
        @Override
        public String toString() {
            return value;
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
        if (value instanceof String || value instanceof TextBind) {
            return "'" + value + "'";
        }
        return value + " (" + value.getClass().getSimpleName() + ")";
    }
}
