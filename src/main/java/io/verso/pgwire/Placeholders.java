package io.verso.pgwire;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's {@code $n} parameters as the dialect's {@code ?} placeholders. Each {@code $n} outside
 * string literals, quoted identifiers and comments becomes a {@code ?} padded with spaces to the same
 * width, so every position in the text (an error's Position field) stays where the client wrote it; the
 * placeholders' order says which {@code $n} each {@code ?} takes, so {@code $1} may appear twice.
 *
 * @param text  the statement text with {@code ?} placeholders
 * @param order for each {@code ?} in text order, the 0-based number of the parameter it takes
 * @param count how many parameters the text names: its highest {@code $n}
 */
record Placeholders(String text, int[] order, int count) {

    static Placeholders of(String sql) {
        StringBuilder out = new StringBuilder(sql);
        List<Integer> order = new ArrayList<>();
        int count = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = quoted(sql, i, c);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))
                    && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)) && sql.charAt(i - 1) != '_')) {
                int end = i + 1;
                while (end < n && Character.isDigit(sql.charAt(end))) {
                    end++;
                }
                int number = end - i - 1 > 6 ? Integer.MAX_VALUE : Integer.parseInt(sql.substring(i + 1, end));
                if (number < 1 || number > 65_535) {
                    throw new IllegalArgumentException("there is no parameter $" + sql.substring(i + 1, end));
                }
                out.setCharAt(i, '?');
                for (int k = i + 1; k < end; k++) {
                    out.setCharAt(k, ' ');
                }
                order.add(number - 1);
                count = Math.max(count, number);
                i = end;
            } else {
                i++;
            }
        }
        return new Placeholders(out.toString(), order.stream().mapToInt(Integer::intValue).toArray(), count);
    }

    /** The parameters in the order of the text's {@code ?}: {@code values} given by number. */
    List<Object> bind(List<Object> values) {
        List<Object> bound = new ArrayList<>(order.length);
        for (int index : order) {
            bound.add(values.get(index));
        }
        return bound;
    }

    /** Past the closing quote of a literal or quoted identifier opened at {@code start} (doubled quotes inside). */
    private static int quoted(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return i;
    }
}
