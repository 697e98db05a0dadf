package io.verso.catalog;

import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.error.Located;
import java.util.Locale;

/** A column type of the dialect; each maps to the PostgreSQL type of the same name. */
public record ColumnType(Base base, Integer precision, Integer scale) {

    public enum Base {
        SMALLINT("smallint"), INTEGER("integer"), BIGINT("bigint"), NUMERIC("numeric"), REAL("real"),
        DOUBLE("double precision"), BOOLEAN("boolean"), TEXT("text"), VARCHAR("varchar"), CHAR("character"), DATE("date"),
        TIMESTAMP("timestamp"), TIMESTAMPTZ("timestamptz"), UUID("uuid"), JSONB("jsonb");

        final String sql;

        Base(String sql) {
            this.sql = sql;
        }
    }

    /**
     * The type a value is cast to for comparison with a column of this type (a key given as text, in REST and
     * GraphQL): the base type, text for the character types (their values compare as text), so an index of
     * the column serves the comparison.
     */
    public String comparisonTypeName() {
        return switch (base) {
            case VARCHAR, CHAR -> "text";
            case DOUBLE -> "double precision";
            default -> base.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /**
     * A type as written: a name and up to two integer modifiers (precision, scale or length), and
     * where it was written. The syntax tree's type names implement it; the catalog knows no syntax.
     */
    public interface Spec extends Located {
        String name();

        Integer first();

        Integer second();
    }

    private record Stored(String name, Integer first, Integer second) implements Spec {
        @Override
        public io.verso.error.Origin origin() {
            return null;
        }
    }

    public static ColumnType of(Base base) {
        return new ColumnType(base, null, null);
    }

    public static ColumnType from(Spec spec) {
        String name = spec.name().toLowerCase(Locale.ROOT);
        Base base = switch (name) {
            case "smallint", "int2" -> Base.SMALLINT;
            case "int", "integer", "int4" -> Base.INTEGER;
            case "bigint", "int8" -> Base.BIGINT;
            case "numeric", "decimal" -> Base.NUMERIC;
            case "real", "float4" -> Base.REAL;
            case "double precision", "float8" -> Base.DOUBLE;
            // FLOAT(p) is REAL up to 24 bits of precision, as in PostgreSQL; plain FLOAT is DOUBLE PRECISION.
            case "float" -> spec.first() != null && spec.first() <= 24 ? Base.REAL : Base.DOUBLE;
            case "char", "character", "bpchar" -> Base.CHAR;
            case "character varying" -> Base.VARCHAR;
            case "boolean", "bool" -> Base.BOOLEAN;
            case "text" -> Base.TEXT;
            case "varchar" -> Base.VARCHAR;
            case "date" -> Base.DATE;
            case "timestamp" -> Base.TIMESTAMP;
            case "timestamptz" -> Base.TIMESTAMPTZ;
            case "uuid" -> Base.UUID;
            case "jsonb" -> Base.JSONB;
            default -> throw Refusals.unknownType(spec.name(), spec);
        };
        Integer first = spec.first();
        Integer second = spec.second();
        if (name.equals("float")) {
            if (first != null && (first < 1 || first > 53 || second != null)) {
                throw bad(spec, "FLOAT precision must be between 1 and 53");
            }
            first = null;
        }
        switch (base) {
            case NUMERIC -> {
                if (first != null && (first < 1 || first > 1000)) {
                    throw bad(spec, "NUMERIC precision must be between 1 and 1000");
                }
                if (second != null && (second < 0 || second > first)) {
                    throw bad(spec, "NUMERIC scale must be between 0 and the precision");
                }
            }
            case VARCHAR, CHAR -> {
                // VARCHAR without a length takes any length; CHAR without one is CHAR(1), as in PostgreSQL.
                if (second != null || (first != null && (first < 1 || first > 10_485_760))) {
                    throw bad(spec, base.name() + " takes one length between 1 and 10485760");
                }
                if (base == Base.CHAR && first == null) {
                    first = 1;
                }
            }
            case TIMESTAMP, TIMESTAMPTZ -> {
                if (second != null || (first != null && (first < 0 || first > 6))) {
                    throw bad(spec, "TIMESTAMP precision must be between 0 and 6");
                }
            }
            default -> {
                if (first != null) {
                    throw bad(spec, base.sql.toUpperCase(Locale.ROOT) + " takes no modifier");
                }
            }
        }
        return new ColumnType(base, first, second);
    }

    private static VersoException bad(Spec spec, String message) {
        return VersoException.at(ErrorCode.UNKNOWN_TYPE, message, spec);
    }

    /** Parses the catalog's stored form, which is {@link #sql()}. */
    public static ColumnType parseStored(String stored) {
        int paren = stored.indexOf('(');
        String name = paren < 0 ? stored : stored.substring(0, paren);
        Integer first = null;
        Integer second = null;
        if (paren >= 0) {
            String[] mods = stored.substring(paren + 1, stored.length() - 1).split(",");
            first = Integer.parseInt(mods[0].trim());
            second = mods.length > 1 ? Integer.parseInt(mods[1].trim()) : null;
        }
        return from(new Stored(name, first, second));
    }

    /** The PostgreSQL type, e.g. {@code numeric(12,2)}. Built from our enum only, never user text. */
    public String sql() {
        if (precision == null) {
            return base.sql;
        }
        return switch (base) {
            case TIMESTAMP -> "timestamp(" + precision + ")";
            case TIMESTAMPTZ -> "timestamptz(" + precision + ")";
            default -> base.sql + "(" + precision + (scale == null ? "" : "," + scale) + ")";
        };
    }

    /** PostgreSQL's internal name of the type, which it gives a cast's result column. */
    public String pgName() {
        return switch (base) {
            case SMALLINT -> "int2";
            case INTEGER -> "int4";
            case BIGINT -> "int8";
            case REAL -> "float4";
            case DOUBLE -> "float8";
            case BOOLEAN -> "bool";
            case CHAR -> "bpchar";
            default -> base.sql;
        };
    }

    /** The type as PostgreSQL's {@code format_type} spells it: {@code character varying(20)}, {@code numeric(10,0)}. */
    public String formatType() {
        String declared = precision == null ? "" : "(" + precision + (scale == null ? "" : "," + scale) + ")";
        return switch (base) {
            case CHAR -> "character" + declared;
            case VARCHAR -> "character varying" + declared;
            case NUMERIC -> "numeric" + (precision != null && scale == null ? "(" + precision + ",0)" : declared);
            case TIMESTAMP -> "timestamp" + declared + " without time zone";
            case TIMESTAMPTZ -> "timestamp" + declared + " with time zone";
            default -> base.sql;
        };
    }

    /** information_schema's {@code data_type}: {@link #formatType} without the modifiers. */
    public String dataType() {
        return new ColumnType(base, null, null).formatType();
    }

    /** A DEFAULT value of this type as PostgreSQL's {@code pg_get_expr} shows it: {@code 0}, {@code true}, {@code 'x'::text}. */
    public String defaultExpression(String value) {
        return switch (base) {
            case SMALLINT, INTEGER, BIGINT, NUMERIC, REAL, DOUBLE -> value;
            case BOOLEAN -> value.toLowerCase(Locale.ROOT);
            default -> "'" + value.replace("'", "''") + "'::" + formatType();
        };
    }

    /** The dialect's spelling, as DESCRIBE and SHOW CREATE TABLE show it. */
    public String display() {
        String name = switch (base) {
            case DOUBLE -> "DOUBLE PRECISION";
            default -> base.name();
        };
        if (precision == null) {
            return name;
        }
        return name + "(" + precision + (scale == null ? "" : "," + scale) + ")";
    }

    /** VALID BY and REVISION BY columns must be integers or timestamps. */
    public boolean canOrder() {
        return switch (base) {
            case SMALLINT, INTEGER, BIGINT, TIMESTAMP, TIMESTAMPTZ -> true;
            default -> false;
        };
    }
}
