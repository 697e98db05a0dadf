package io.verso.api.graphql;

import graphql.Scalars;
import graphql.schema.GraphQLScalarType;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A table as the GraphQL schema shows it. Names are used as they are when they are valid GraphQL
 * names ({@code [_A-Za-z][_0-9A-Za-z]*}, not starting with {@code __}, not {@code true}, {@code false}
 * or {@code null}); a column whose name is not is left out of the types, and a table whose name or
 * any key column's name is not is left out of the schema, as is a table with a key column named like
 * an argument or field the schema puts beside key columns ({@link #KEY_CLASHES}). Columns named
 * {@code and}, {@code or} or {@code not} are shown but cannot be filtered on. Tables are added in name
 * order; one whose generated names would clash with names already taken is left out too (see
 * {@link SchemaFactory}).
 */
record TableShape(TableDef def, List<ColumnDef> columns) {

    private static final Pattern NAME = Pattern.compile("[_A-Za-z][_0-9A-Za-z]*");

    /** Names that sit beside key columns: by-key and history arguments, outcome fields. */
    static final Set<String> KEY_CLASHES = Set.of("asOfCommit", "asOfTime", "group", "limit", "offset", "index", "current");

    /** The where type's own fields. */
    static final Set<String> WHERE_FIELDS = Set.of("and", "or", "not");

    static boolean validName(String name) {
        return name != null && NAME.matcher(name).matches() && !name.startsWith("__")
                && !Set.of("true", "false", "null").contains(name);
    }

    /** The table's shape, or null when it cannot be shown (its name or a key column's name is not valid). */
    static TableShape of(TableDef def) {
        if (!validName(def.name())
                || def.keyColumns().stream().anyMatch(c -> !validName(c.name()) || KEY_CLASHES.contains(c.name()))) {
            return null;
        }
        return new TableShape(def, def.columns().stream().filter(c -> validName(c.name())).toList());
    }

    String name() {
        return def.name();
    }

    TableMode mode() {
        return def.mode();
    }

    boolean keyed() {
        return def.mode().keyed();
    }

    /**
     * AS OF COMMIT is allowed: VERSIONED, APPEND and system-versioned tables; UPSERT tables (and SYSTEM
     * tables whose versioning was dropped) keep no history.
     */
    boolean historied() {
        return def.mode() != TableMode.UPSERT && (def.mode() != TableMode.SYSTEM || def.systemVersioned());
    }

    /** A system-versioned table with a primary key: read by key, its versions listed with their periods. */
    boolean systemKeyed() {
        return def.systemVersioned() && !def.keyColumns().isEmpty();
    }

    boolean versioned() {
        return def.mode() == TableMode.VERSIONED;
    }

    List<ColumnDef> keys() {
        return def.keyColumns();
    }

    /** Ordering columns of every group that are shown: what a DELETE's AT clause takes. */
    List<ColumnDef> orderingColumns() {
        return columns.stream().filter(def::isOrderingColumn).toList();
    }

    /** Named attribute groups (the default group is written without the clause). */
    List<String> groupNames() {
        return def.groups().stream().filter(g -> g.id() != 0).map(GroupDef::name).filter(TableShape::validName)
                .toList();
    }

    static GraphQLScalarType scalar(ColumnType type) {
        return scalar(type.base());
    }

    static GraphQLScalarType scalar(ColumnType.Base base) {
        return switch (base) {
            case SMALLINT, INTEGER -> Scalars.GraphQLInt;
            case BIGINT -> VersoScalars.BIG_INT;
            case NUMERIC -> VersoScalars.NUMERIC;
            case REAL, DOUBLE -> Scalars.GraphQLFloat;
            case BOOLEAN -> Scalars.GraphQLBoolean;
            case TEXT, VARCHAR, CHAR -> Scalars.GraphQLString;
            case DATE -> VersoScalars.DATE;
            case TIMESTAMP -> VersoScalars.TIMESTAMP;
            case TIMESTAMPTZ -> VersoScalars.TIMESTAMPTZ;
            case UUID -> VersoScalars.UUID_TYPE;
            case JSONB -> VersoScalars.JSON_TYPE;
        };
    }

    /** min and max: types PostgreSQL orders. */
    static boolean orderable(ColumnType type) {
        return switch (type.base()) {
            case BOOLEAN, UUID, JSONB -> false;
            default -> true;
        };
    }

    /** sum and avg: numbers. */
    static boolean summable(ColumnType type) {
        return switch (type.base()) {
            case SMALLINT, INTEGER, BIGINT, NUMERIC, REAL, DOUBLE -> true;
            default -> false;
        };
    }

    /** PostgreSQL's sum: bigint for small integers, numeric for bigint and numeric, floats stay floats. */
    static GraphQLScalarType sumScalar(ColumnType type) {
        return switch (type.base()) {
            case SMALLINT, INTEGER -> VersoScalars.BIG_INT;
            case REAL, DOUBLE -> Scalars.GraphQLFloat;
            default -> VersoScalars.NUMERIC;
        };
    }

    /** PostgreSQL's avg: numeric for integers and numeric, double for floats. */
    static GraphQLScalarType avgScalar(ColumnType type) {
        return switch (type.base()) {
            case REAL, DOUBLE -> Scalars.GraphQLFloat;
            default -> VersoScalars.NUMERIC;
        };
    }
}
