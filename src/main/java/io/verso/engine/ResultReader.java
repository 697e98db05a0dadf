package io.verso.engine;

import io.verso.engine.StatementResult.Column;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads result rows into their one JSON form per type: values a JavaScript number cannot hold
 * exactly (BIGINT, NUMERIC) as strings, timestamps as ISO-8601, JSONB as JSON.
 */
final class ResultReader {

    /** JSONB numbers keep their exact text: decimals as BigDecimal (not double), trailing zeros kept. */
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(tools.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(tools.jackson.databind.cfg.JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES).build();

    private ResultReader() {
    }

    record Table(List<Column> columns, List<List<Object>> rows) {
    }

    /**
     * Reads the rows into their JSON forms, each counted against the request's {@code budget} as it is read:
     * past the budget, RESULT_TOO_LARGE, so no request, however many statements it holds, can fill the heap
     * (rows arrive from PostgreSQL in batches, see SqlRunner's fetch size, so a result is never buffered whole).
     */
    static Table read(ResultSet rs, ResultBudget budget) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int count = meta.getColumnCount();
        List<Column> columns = new ArrayList<>(count);
        String[] pgTypes = new String[count];
        for (int i = 0; i < count; i++) {
            pgTypes[i] = meta.getColumnTypeName(i + 1).toLowerCase(Locale.ROOT);
            columns.add(new Column(meta.getColumnLabel(i + 1), typeName(pgTypes[i])));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            rows.add(row(rs, 1, pgTypes, budget));
        }
        return new Table(columns, rows);
    }

    /** The current row's values from column {@code first} on, counted against the budget. */
    private static List<Object> row(ResultSet rs, int first, String[] pgTypes, ResultBudget budget)
            throws SQLException {
        List<Object> row = new ArrayList<>(pgTypes.length);
        long chars = 0;
        for (int i = 0; i < pgTypes.length; i++) {
            Object value = value(rs, first + i, pgTypes[i]);
            chars += value == null ? 4 : value instanceof String text ? text.length() + 2 : 16;
            row.add(value);
        }
        budget.add(chars);
        return row;
    }

    /**
     * What {@link #read} reads, from a result whose first row is current already and whose columns before
     * {@code first} (1-based) are not the rows': the column just before {@code first} is a marker, null in
     * the one row that stands for no rows at all (a LEFT JOIN that found none; see StatementEngine's runOnce).
     */
    static Table readFrom(ResultSet rs, ResultBudget budget, int first) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int count = meta.getColumnCount() - first + 1;
        List<Column> columns = new ArrayList<>(count);
        String[] pgTypes = new String[count];
        for (int i = 0; i < count; i++) {
            pgTypes[i] = meta.getColumnTypeName(first + i).toLowerCase(Locale.ROOT);
            columns.add(new Column(meta.getColumnLabel(first + i), typeName(pgTypes[i])));
        }
        List<List<Object>> rows = new ArrayList<>();
        rs.getObject(first - 1);
        if (rs.wasNull()) {
            return new Table(columns, rows);
        }
        do {
            rows.add(row(rs, first, pgTypes, budget));
        } while (rs.next());
        return new Table(columns, rows);
    }

    static String typeName(String pgType) {
        return switch (pgType) {
            case "int2" -> "SMALLINT";
            case "int4" -> "INTEGER";
            case "int8" -> "BIGINT";
            case "numeric" -> "NUMERIC";
            case "float4" -> "REAL";
            case "float8" -> "DOUBLE PRECISION";
            case "bool" -> "BOOLEAN";
            case "varchar" -> "VARCHAR";
            case "date" -> "DATE";
            case "timestamp" -> "TIMESTAMP";
            case "timestamptz" -> "TIMESTAMPTZ";
            case "uuid" -> "UUID";
            case "jsonb", "json" -> "JSONB";
            default -> "TEXT";
        };
    }

    /**
     * {@link DateTimeFormatter#ISO_LOCAL_DATE_TIME}'s text (seconds always, the fraction without trailing
     * zeros, none when zero) written directly for years 0 to 9999; the formatter itself for the rest
     * (signed years). Every timestamp of a result passes here.
     */
    static StringBuilder isoLocal(LocalDateTime t, StringBuilder out) {
        int year = t.getYear();
        if (year < 0 || year > 9999) {
            return out.append(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t));
        }
        pad(out, year, 4).append('-');
        pad(out, t.getMonthValue(), 2).append('-');
        pad(out, t.getDayOfMonth(), 2).append('T');
        pad(out, t.getHour(), 2).append(':');
        pad(out, t.getMinute(), 2).append(':');
        pad(out, t.getSecond(), 2);
        int nano = t.getNano();
        if (nano != 0) {
            int digits = 9;
            while (nano % 10 == 0) {
                nano /= 10;
                digits--;
            }
            pad(out.append('.'), nano, digits);
        }
        return out;
    }

    private static StringBuilder pad(StringBuilder out, int value, int width) {
        for (int limit = 10, w = 1; w < width; w++, limit *= 10) {
            if (value < limit) {
                out.append('0');
            }
        }
        return out.append(value);
    }

    static Object value(ResultSet rs, int i, String pgType) throws SQLException {
        switch (pgType) {
            case "int2", "int4" -> {
                int v = rs.getInt(i);
                return rs.wasNull() ? null : v;
            }
            case "float4", "float8" -> {
                double v = rs.getDouble(i);
                if (rs.wasNull()) {
                    return null;
                }
                return Double.isFinite(v) ? (Object) v : Double.toString(v);
            }
            case "bool" -> {
                boolean v = rs.getBoolean(i);
                return rs.wasNull() ? null : v;
            }
            case "numeric" -> {
                var v = rs.getBigDecimal(i);
                return v == null ? null : v.toPlainString();
            }
            // pgjdbc reads 'infinity' and '-infinity' as the MAX and MIN of java.time, which PostgreSQL's own
            // range never reaches: their text is what PostgreSQL prints.
            case "timestamp" -> {
                LocalDateTime t = rs.getObject(i, LocalDateTime.class);
                if (t == null || t.equals(LocalDateTime.MAX) || t.equals(LocalDateTime.MIN)) {
                    return t == null ? null : t.equals(LocalDateTime.MAX) ? "infinity" : "-infinity";
                }
                return isoLocal(t, new StringBuilder(29)).toString();
            }
            case "timestamptz" -> {
                OffsetDateTime t = rs.getObject(i, OffsetDateTime.class);
                if (t == null || t.equals(OffsetDateTime.MAX) || t.equals(OffsetDateTime.MIN)) {
                    return t == null ? null : t.equals(OffsetDateTime.MAX) ? "infinity" : "-infinity";
                }
                // ISO_OFFSET_DATE_TIME of a UTC time: the local part, then Z.
                return isoLocal(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime(), new StringBuilder(30))
                        .append('Z').toString();
            }
            case "jsonb", "json" -> {
                String raw = rs.getString(i);
                return raw == null ? null : JSON.readTree(raw);
            }
            default -> {
                return rs.getString(i);
            }
        }
    }
}
