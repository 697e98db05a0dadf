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

    static Table read(ResultSet rs, int maxRows) throws SQLException {
        return read(rs, maxRows, Long.MAX_VALUE);
    }

    /**
     * Reads at most {@code maxRows} rows holding at most {@code maxChars} characters of values: past either,
     * RESULT_TOO_LARGE, so one read cannot fill the heap (rows arrive from PostgreSQL in batches; see
     * SqlRunner's fetch size, so the whole result is never buffered either).
     */
    static Table read(ResultSet rs, int maxRows, long maxChars) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int count = meta.getColumnCount();
        List<Column> columns = new ArrayList<>(count);
        String[] pgTypes = new String[count];
        for (int i = 0; i < count; i++) {
            pgTypes[i] = meta.getColumnTypeName(i + 1).toLowerCase(Locale.ROOT);
            columns.add(new Column(meta.getColumnLabel(i + 1), typeName(pgTypes[i])));
        }
        List<List<Object>> rows = new ArrayList<>();
        long chars = 0;
        while (rs.next()) {
            if (rows.size() >= maxRows) {
                throw io.verso.error.VersoException.user(io.verso.error.ErrorCode.RESULT_TOO_LARGE,
                        "the result has more than " + maxRows + " rows: add a LIMIT or a narrower WHERE");
            }
            List<Object> row = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Object value = value(rs, i + 1, pgTypes[i]);
                chars += value == null ? 4 : value instanceof String text ? text.length() + 2 : 16;
                row.add(value);
            }
            if (chars > maxChars) {
                throw io.verso.error.VersoException.user(io.verso.error.ErrorCode.RESULT_TOO_LARGE,
                        "the result is larger than " + maxChars + " characters of values: select fewer or shorter "
                                + "columns, add a LIMIT or a narrower WHERE");
            }
            rows.add(row);
        }
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
            case "timestamp" -> {
                String raw = rs.getString(i);
                if (raw == null || raw.endsWith("infinity")) {
                    return raw;
                }
                return rs.getObject(i, LocalDateTime.class).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME);
            }
            case "timestamptz" -> {
                String raw = rs.getString(i);
                if (raw == null || raw.endsWith("infinity")) {
                    return raw;
                }
                return rs.getObject(i, OffsetDateTime.class).withOffsetSameInstant(ZoneOffset.UTC)
                        .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
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
