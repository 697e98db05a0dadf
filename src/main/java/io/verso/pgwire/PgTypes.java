package io.verso.pgwire;

import io.verso.catalog.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.UUID;

/**
 * Verso's column types as PostgreSQL type OIDs, and values between the engine's JSON-ready forms
 * ({@code engine.StatementResult.Rows}) and the protocol's text and binary formats, both ways.
 */
final class PgTypes {

    static final int BOOL = 16;
    static final int INT8 = 20;
    static final int INT2 = 21;
    static final int INT4 = 23;
    static final int TEXT = 25;
    static final int FLOAT4 = 700;
    static final int FLOAT8 = 701;
    static final int BPCHAR = 1042;
    static final int VARCHAR = 1043;
    static final int DATE = 1082;
    static final int TIMESTAMP = 1114;
    static final int TIMESTAMPTZ = 1184;
    static final int NUMERIC = 1700;
    static final int UUID_OID = 2950;
    static final int JSONB = 3802;
    static final int UNSPECIFIED = 0;

    private static final LocalDate EPOCH = LocalDate.of(2000, 1, 1);
    private static final LocalDateTime EPOCH_TIME = EPOCH.atStartOfDay();

    private PgTypes() {
    }

    /** The OID of a result column of the dialect type {@code type} (as {@code StatementResult.Column} names it). */
    static int oid(String type) {
        String base = type.toUpperCase(Locale.ROOT);
        int paren = base.indexOf('(');
        if (paren >= 0) {
            base = base.substring(0, paren).strip();
        }
        return switch (base) {
            case "SMALLINT" -> INT2;
            case "INTEGER" -> INT4;
            case "BIGINT" -> INT8;
            case "NUMERIC" -> NUMERIC;
            case "REAL" -> FLOAT4;
            case "DOUBLE PRECISION" -> FLOAT8;
            case "BOOLEAN" -> BOOL;
            case "VARCHAR" -> VARCHAR;
            case "CHAR", "CHARACTER" -> BPCHAR;
            case "DATE" -> DATE;
            case "TIMESTAMP" -> TIMESTAMP;
            case "TIMESTAMPTZ" -> TIMESTAMPTZ;
            case "UUID" -> UUID_OID;
            case "JSONB" -> JSONB;
            default -> TEXT;
        };
    }

    /** pg_type.typname of an OID (as pgjdbc's TYPE_NAME and psql show it). */
    static String typeName(int oid) {
        return switch (oid) {
            case BOOL -> "bool";
            case INT8 -> "int8";
            case INT2 -> "int2";
            case INT4 -> "int4";
            case FLOAT4 -> "float4";
            case FLOAT8 -> "float8";
            case BPCHAR -> "bpchar";
            case VARCHAR -> "varchar";
            case DATE -> "date";
            case TIMESTAMP -> "timestamp";
            case TIMESTAMPTZ -> "timestamptz";
            case NUMERIC -> "numeric";
            case UUID_OID -> "uuid";
            case JSONB -> "jsonb";
            default -> "text";
        };
    }

    /**
     * pg_attribute.atttypmod of a dialect type (as DESCRIBE shows it, {@code VARCHAR(20)}): a length plus 4, a
     * NUMERIC's precision and scale packed plus 4, a timestamp's precision; -1 when the type has none.
     */
    static int typmod(String type) {
        int[] args = arguments(type);
        if (args.length == 0) {
            return -1;
        }
        return switch (oid(type)) {
            case VARCHAR, BPCHAR -> args[0] + 4;
            case NUMERIC -> (args[0] << 16) + (args.length > 1 ? args[1] : 0) + 4;
            case TIMESTAMP, TIMESTAMPTZ -> args[0];
            default -> -1;
        };
    }

    /** A dialect type as PostgreSQL's {@code format_type} spells it ({@code character varying(20)}). */
    static String formatted(String type) {
        return columnType(type).formatType();
    }

    /** A column's DEFAULT value as PostgreSQL's {@code pg_get_expr} shows it: {@code 0}, {@code true}, {@code 'x'::text}. */
    static String defaultExpression(String value, String type) {
        return columnType(type).defaultExpression(value);
    }

    /** A type as DESCRIBE or a result shows it ({@code VARCHAR(20)}), text when it is none of the dialect's. */
    private static ColumnType columnType(String type) {
        try {
            return ColumnType.parseStored(type.strip().toLowerCase(Locale.ROOT));
        } catch (RuntimeException e) {
            return ColumnType.of(ColumnType.Base.TEXT);
        }
    }

    /** The numbers in a type's parentheses: {@code NUMERIC(10,2)} has 10 and 2. */
    private static int[] arguments(String type) {
        int open = type.indexOf('(');
        int close = type.indexOf(')', open + 1);
        if (open < 0 || close < 0) {
            return new int[0];
        }
        return java.util.Arrays.stream(type.substring(open + 1, close).split(","))
                .mapToInt(a -> Integer.parseInt(a.strip())).toArray();
    }

    /** pg_type.typlen of an OID: the width of fixed-size types, -1 for the rest. */
    static int length(int oid) {
        return switch (oid) {
            case BOOL -> 1;
            case INT2 -> 2;
            case INT4, FLOAT4, DATE -> 4;
            case INT8, FLOAT8, TIMESTAMP, TIMESTAMPTZ -> 8;
            case UUID_OID -> 16;
            default -> -1;
        };
    }

    /** A result value in text format, as PostgreSQL prints it. */
    static byte[] text(Object value, int oid) {
        if (value == null) {
            return null;
        }
        return textOf(value, oid).getBytes(StandardCharsets.UTF_8);
    }

    private static String textOf(Object value, int oid) {
        switch (oid) {
            case BOOL -> {
                return Boolean.TRUE.equals(value) || "true".equals(value) ? "t" : "f";
            }
            case FLOAT4, FLOAT8 -> {
                if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
                    return Long.toString(d.longValue());
                }
                return value.toString();
            }
            case TIMESTAMP -> {
                return value.toString().replace('T', ' ');
            }
            case JSONB -> {
                return value instanceof tools.jackson.databind.JsonNode node ? json(node, new StringBuilder()).toString()
                        : value.toString();
            }
            case TIMESTAMPTZ -> {
                String s = value.toString().replace('T', ' ');
                return s.endsWith("Z") ? s.substring(0, s.length() - 1) + "+00" : s;
            }
            default -> {
                return value.toString();
            }
        }
    }

    /** JSON as PostgreSQL prints jsonb: a space after each comma and colon. */
    private static StringBuilder json(tools.jackson.databind.JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            out.append('{');
            String comma = "";
            for (var field : node.properties()) {
                out.append(comma).append(tools.jackson.databind.node.StringNode.valueOf(field.getKey())).append(": ");
                json(field.getValue(), out);
                comma = ", ";
            }
            return out.append('}');
        }
        if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                json(node.get(i), out.append(i > 0 ? ", " : ""));
            }
            return out.append(']');
        }
        return out.append(node);
    }

    /** A result value in binary format. */
    static byte[] binary(Object value, int oid) {
        if (value == null) {
            return null;
        }
        String s = value.toString();
        ByteBuffer b;
        switch (oid) {
            case BOOL -> {
                return new byte[] {(byte) (Boolean.TRUE.equals(value) || "true".equals(s) ? 1 : 0)};
            }
            case INT2 -> b = ByteBuffer.allocate(2).putShort(Short.parseShort(s));
            case INT4 -> b = ByteBuffer.allocate(4).putInt(Integer.parseInt(s));
            case INT8 -> b = ByteBuffer.allocate(8).putLong(Long.parseLong(s));
            case FLOAT4 -> b = ByteBuffer.allocate(4).putFloat(Float.parseFloat(s));
            case FLOAT8 -> b = ByteBuffer.allocate(8).putDouble(Double.parseDouble(s));
            case UUID_OID -> {
                UUID u = UUID.fromString(s);
                b = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
            }
            case DATE -> b = ByteBuffer.allocate(4).putInt(s.equals("infinity") ? Integer.MAX_VALUE
                    : s.equals("-infinity") ? Integer.MIN_VALUE
                    : (int) ChronoUnit.DAYS.between(EPOCH, LocalDate.parse(s)));
            case TIMESTAMP -> b = ByteBuffer.allocate(8).putLong(micros(s, false));
            case TIMESTAMPTZ -> b = ByteBuffer.allocate(8).putLong(micros(s, true));
            case NUMERIC -> {
                return numeric(new BigDecimal(s));
            }
            case JSONB -> {
                byte[] json = textOf(value, oid).getBytes(StandardCharsets.UTF_8);
                byte[] out = new byte[json.length + 1];
                out[0] = 1; // jsonb's binary format: a version byte, then the text
                System.arraycopy(json, 0, out, 1, json.length);
                return out;
            }
            default -> {
                return s.getBytes(StandardCharsets.UTF_8);
            }
        }
        return b.array();
    }

    private static long micros(String s, boolean zoned) {
        if (s.equals("infinity")) {
            return Long.MAX_VALUE;
        }
        if (s.equals("-infinity")) {
            return Long.MIN_VALUE;
        }
        LocalDateTime t = zoned ? OffsetDateTime.parse(s).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()
                : LocalDateTime.parse(s);
        return ChronoUnit.MICROS.between(EPOCH_TIME, t);
    }

    /** PostgreSQL's binary NUMERIC: base-10000 digits, the weight of the first, sign and display scale. */
    static byte[] numeric(BigDecimal v) {
        int dscale = Math.max(v.scale(), 0);
        String plain = v.abs().setScale(dscale).toPlainString();
        int dot = plain.indexOf('.');
        String whole = dot < 0 ? plain : plain.substring(0, dot);
        String fraction = dot < 0 ? "" : plain.substring(dot + 1);
        whole = "0".repeat((4 - whole.length() % 4) % 4) + whole;
        fraction = fraction + "0".repeat((4 - fraction.length() % 4) % 4);
        String all = whole + fraction;
        int count = all.length() / 4;
        int weight = whole.length() / 4 - 1;
        int first = 0;
        while (first < count && all.startsWith("0000", first * 4)) {
            first++;
        }
        int last = count;
        while (last > first && all.startsWith("0000", (last - 1) * 4)) {
            last--;
        }
        ByteBuffer b = ByteBuffer.allocate(8 + 2 * (last - first));
        b.putShort((short) (last - first)).putShort((short) (first == last ? 0 : weight - first))
                .putShort((short) (v.signum() < 0 ? 0x4000 : 0)).putShort((short) dscale);
        for (int i = first; i < last; i++) {
            b.putShort(Short.parseShort(all.substring(i * 4, i * 4 + 4)));
        }
        return b.array();
    }

    /**
     * A parameter value as the engine takes it from JSON: integers as Long, decimals as BigDecimal, booleans,
     * text as String (PostgreSQL then infers its type, as for a JSON string). {@code oid} is the type the
     * client gave in Parse (0 when it gave none); binary values are read by it.
     */
    static Object parameter(byte[] value, boolean binary, int oid) {
        if (value == null) {
            return null;
        }
        if (binary) {
            return binaryParameter(value, oid);
        }
        String s = new String(value, StandardCharsets.UTF_8);
        try {
            return switch (oid) {
                case INT2, INT4, INT8 -> Long.parseLong(s.strip());
                case NUMERIC, FLOAT4, FLOAT8 -> finiteNumber(s.strip());
                case BOOL -> bool(s);
                default -> s;
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid input for a parameter of type " + name(oid) + ": \"" + s + "\"");
        }
    }

    private static Object finiteNumber(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "nan", "infinity", "-infinity", "+infinity" -> s;
            default -> new BigDecimal(s);
        };
    }

    private static Boolean bool(String s) {
        return switch (s.strip().toLowerCase(Locale.ROOT)) {
            case "t", "true", "y", "yes", "on", "1" -> true;
            case "f", "false", "n", "no", "off", "0" -> false;
            default -> throw new IllegalArgumentException("invalid input for a parameter of type boolean: \"" + s + "\"");
        };
    }

    private static Object binaryParameter(byte[] v, int oid) {
        ByteBuffer b = ByteBuffer.wrap(v);
        int expected = length(oid);
        if (expected > 0 && v.length != expected) {
            throw new IllegalArgumentException("a binary parameter of type " + name(oid) + " has " + v.length
                    + " bytes, not " + expected);
        }
        return switch (oid) {
            case BOOL -> v[0] != 0;
            case INT2 -> (long) b.getShort();
            case INT4 -> (long) b.getInt();
            case INT8 -> b.getLong();
            case FLOAT4 -> number(b.getFloat());
            case FLOAT8 -> number(b.getDouble());
            case UUID_OID -> new UUID(b.getLong(), b.getLong()).toString();
            case DATE -> EPOCH.plusDays(b.getInt()).toString();
            case TIMESTAMP -> EPOCH_TIME.plus(b.getLong(), ChronoUnit.MICROS).toString();
            case TIMESTAMPTZ -> EPOCH_TIME.plus(b.getLong(), ChronoUnit.MICROS).atOffset(ZoneOffset.UTC).toString();
            case NUMERIC -> numericValue(b);
            case TEXT, VARCHAR, BPCHAR, UNSPECIFIED -> new String(v, StandardCharsets.UTF_8);
            default -> throw new IllegalArgumentException("binary parameters of type OID " + oid
                    + " are not supported; send it in text format");
        };
    }

    private static Object number(double d) {
        return Double.isFinite(d) ? BigDecimal.valueOf(d) : Double.toString(d);
    }

    private static Object numericValue(ByteBuffer b) {
        int count = b.getShort();
        int weight = b.getShort();
        int sign = b.getShort() & 0xffff;
        int dscale = b.getShort();
        if (sign == 0xC000) {
            return "NaN";
        }
        BigInteger digits = BigInteger.ZERO;
        for (int i = 0; i < count; i++) {
            digits = digits.multiply(BigInteger.valueOf(10_000)).add(BigInteger.valueOf(b.getShort()));
        }
        BigDecimal value = new BigDecimal(digits).scaleByPowerOfTen(4 * (weight - count + 1));
        value = value.setScale(dscale, java.math.RoundingMode.UNNECESSARY);
        return sign == 0x4000 ? value.negate() : value;
    }

    private static String name(int oid) {
        return switch (oid) {
            case BOOL -> "boolean";
            case INT2 -> "smallint";
            case INT4 -> "integer";
            case INT8 -> "bigint";
            case FLOAT4 -> "real";
            case FLOAT8 -> "double precision";
            case NUMERIC -> "numeric";
            default -> "OID " + oid;
        };
    }
}
