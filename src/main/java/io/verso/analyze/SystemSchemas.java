package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.IndexDef;
import io.verso.catalog.TableDef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The relations of the system schemas that clients read for themselves: information_schema's tables, columns,
 * schemata, views, table_constraints and key_column_usage, with the columns PostgreSQL 15 gives them, and
 * pg_catalog's pg_extension (Verso has no extensions: no rows). Their rows are made from what the caller may see
 * ({@link Visible}: the tables SHOW TABLES lists, as DESCRIBE shows them, and the views the caller may read), all
 * in schema {@code public}; PostgreSQL's own catalog of the storage tables is never read. A unique index is shown
 * as a UNIQUE constraint, as that is how tools look for unique keys.
 */
public final class SystemSchemas {

    public static final String INFORMATION_SCHEMA = "information_schema";
    public static final String PG_CATALOG = "pg_catalog";
    /** The one schema Verso's tables and views are in, as PostgreSQL clients see them. */
    public static final String PUBLIC = "public";
    /** Who owns the schema, for tools: the service, not a PostgreSQL role. */
    public static final String OWNER = "verso";

    private static final ColumnType TEXT = ColumnType.of(ColumnType.Base.TEXT);
    private static final ColumnType INTEGER = ColumnType.of(ColumnType.Base.INTEGER);

    /** What the caller may see of the catalog; asked only for what the relation read lists. */
    public interface Visible {
        /** The catalog name information_schema shows (the database the client connected to). */
        String database();

        /** The tables the caller may see, by name. */
        List<TableDef> tables();

        /** The views the caller may read, by name. */
        List<View> views();
    }

    /** A view the caller may read: its query's text and the columns it answers. */
    public record View(String name, String query, List<SystemRelation.Column> columns) {
    }

    private SystemSchemas() {
    }

    /** The relation {@code schema.name} (both lower case) with its rows, or empty when there is none. */
    public static Optional<SystemRelation> relation(String schema, String name, Visible visible) {
        Rows rows = new Rows(visible);
        return Optional.ofNullable(switch (schema) {
            case INFORMATION_SCHEMA -> switch (name) {
                case "schemata" -> relation(schema, name, text("catalog_name", "schema_name", "schema_owner",
                        "default_character_set_catalog", "default_character_set_schema", "default_character_set_name",
                        "sql_path"), () -> List.of(Arrays.asList(visible.database(), PUBLIC, OWNER, null, null, null,
                        null)));
                case "tables" -> relation(schema, name, text("table_catalog", "table_schema", "table_name",
                        "table_type", "self_referencing_column_name", "reference_generation",
                        "user_defined_type_catalog", "user_defined_type_schema", "user_defined_type_name",
                        "is_insertable_into", "is_typed", "commit_action"), rows::tables);
                case "columns" -> relation(schema, name, withIntegers(text("table_catalog", "table_schema",
                        "table_name", "column_name", "ordinal_position", "column_default", "is_nullable", "data_type",
                        "character_maximum_length", "character_octet_length", "numeric_precision",
                        "numeric_precision_radix", "numeric_scale", "datetime_precision", "interval_type",
                        "udt_catalog", "udt_schema", "udt_name", "is_identity", "is_generated", "is_updatable"),
                        "ordinal_position", "character_maximum_length", "character_octet_length", "numeric_precision",
                        "numeric_precision_radix", "numeric_scale", "datetime_precision"), rows::columns);
                case "views" -> relation(schema, name, text("table_catalog", "table_schema", "table_name",
                        "view_definition", "check_option", "is_updatable", "is_insertable_into", "is_trigger_updatable",
                        "is_trigger_deletable", "is_trigger_insertable_into"), rows::views);
                case "table_constraints" -> relation(schema, name, text("constraint_catalog", "constraint_schema",
                        "constraint_name", "table_catalog", "table_schema", "table_name", "constraint_type",
                        "is_deferrable", "initially_deferred", "enforced", "nulls_distinct"), rows::constraints);
                case "key_column_usage" -> relation(schema, name, withIntegers(text("constraint_catalog",
                        "constraint_schema", "constraint_name", "table_catalog", "table_schema", "table_name",
                        "column_name", "ordinal_position", "position_in_unique_constraint"), "ordinal_position",
                        "position_in_unique_constraint"), rows::keyColumns);
                default -> null;
            };
            case PG_CATALOG -> switch (name) {
                case "pg_extension" -> relation(schema, name, withIntegers(text("oid", "extname", "extowner",
                        "extnamespace", "extrelocatable", "extversion"), "oid", "extowner", "extnamespace"), List::of);
                default -> null;
            };
            default -> null;
        });
    }

    private static SystemRelation relation(String schema, String name, List<SystemRelation.Column> columns,
                                           Supplier<List<List<Object>>> rows) {
        return new SystemRelation(schema, name, columns, rows.get());
    }

    /** The rows of each relation, from the catalog as the caller may see it. */
    private record Rows(Visible visible) {

        List<List<Object>> tables() {
            List<List<Object>> rows = new ArrayList<>();
            for (TableDef table : visible.tables()) {
                rows.add(Arrays.asList(visible.database(), PUBLIC, table.name(), "BASE TABLE", null, null, null, null,
                        null, "YES", "NO", null));
            }
            for (View view : visible.views()) {
                rows.add(Arrays.asList(visible.database(), PUBLIC, view.name(), "VIEW", null, null, null, null, null,
                        "NO", "NO", null));
            }
            return rows;
        }

        List<List<Object>> columns() {
            List<List<Object>> rows = new ArrayList<>();
            for (TableDef table : visible.tables()) {
                int position = 1;
                for (ColumnDef c : table.columns()) {
                    rows.add(column(table.name(), position++, c.name(), c.type(),
                            c.defaultValue() == null ? null : c.type().defaultExpression(c.defaultValue()),
                            !c.notNull() && !c.isKey(), true));
                }
                if (table.systemVersioned() && !table.period().implicit()) {
                    for (String period : List.of(table.period().start(), table.period().end())) {
                        rows.add(column(table.name(), position++, period, table.period().type(), null, false, true));
                    }
                }
            }
            for (View view : visible.views()) {
                int position = 1;
                for (SystemRelation.Column c : view.columns()) {
                    rows.add(column(view.name(), position++, c.name(), c.type(), null, true, false));
                }
            }
            return rows;
        }

        /** A row of information_schema.columns: the SQL type's name and its sizes as PostgreSQL reports them. */
        private List<Object> column(String table, int position, String name, ColumnType type, String defaultValue,
                                    boolean nullable, boolean updatable) {
            ColumnType.Base base = type.base();
            boolean characters = base == ColumnType.Base.VARCHAR || base == ColumnType.Base.CHAR;
            Integer length = characters ? type.precision() : null;
            Integer octets = length != null ? Integer.valueOf(length * 4)
                    : characters || base == ColumnType.Base.TEXT ? Integer.valueOf(1_073_741_824) : null;
            Integer precision = switch (base) {
                case SMALLINT -> 16;
                case INTEGER -> 32;
                case BIGINT -> 64;
                case REAL -> 24;
                case DOUBLE -> 53;
                case NUMERIC -> type.precision();
                default -> null;
            };
            Integer radix = precision == null ? null : base == ColumnType.Base.NUMERIC ? 10 : 2;
            Integer scale = switch (base) {
                case SMALLINT, INTEGER, BIGINT -> 0;
                case NUMERIC -> type.precision() == null ? null : type.scale() == null ? 0 : type.scale();
                default -> null;
            };
            Integer datetime = switch (base) {
                case DATE -> 0;
                case TIMESTAMP, TIMESTAMPTZ -> type.precision() == null ? 6 : type.precision();
                default -> null;
            };
            return Arrays.asList(visible.database(), PUBLIC, table, name, position, defaultValue,
                    nullable ? "YES" : "NO", type.dataType(), length, octets, precision, radix, scale, datetime, null,
                    visible.database(), PG_CATALOG, type.pgName(), "NO", "NEVER", updatable ? "YES" : "NO");
        }

        List<List<Object>> views() {
            List<List<Object>> rows = new ArrayList<>();
            for (View view : visible.views()) {
                rows.add(Arrays.asList(visible.database(), PUBLIC, view.name(), view.query(), "NONE", "NO", "NO", "NO",
                        "NO", "NO"));
            }
            return rows;
        }

        List<List<Object>> constraints() {
            List<List<Object>> rows = new ArrayList<>();
            for (TableDef table : visible.tables()) {
                if (!key(table).isEmpty()) {
                    rows.add(constraint(table, keyName(table), "PRIMARY KEY", null));
                }
                for (IndexDef index : uniqueIndexes(table)) {
                    rows.add(constraint(table, index.name(), "UNIQUE", "YES"));
                }
                for (var check : table.checks()) {
                    rows.add(constraint(table, check.name(), "CHECK", null));
                }
            }
            return rows;
        }

        private List<Object> constraint(TableDef table, String name, String type, String nullsDistinct) {
            return Arrays.asList(visible.database(), PUBLIC, name, visible.database(), PUBLIC, table.name(), type,
                    "NO", "NO", "YES", nullsDistinct);
        }

        List<List<Object>> keyColumns() {
            List<List<Object>> rows = new ArrayList<>();
            for (TableDef table : visible.tables()) {
                keyColumns(rows, table, keyName(table), key(table));
                for (IndexDef index : uniqueIndexes(table)) {
                    keyColumns(rows, table, index.name(), index.columns().stream()
                            .map(p -> table.columnByPhysical(p).map(ColumnDef::name).orElse(p)).toList());
                }
            }
            return rows;
        }

        private void keyColumns(List<List<Object>> rows, TableDef table, String constraint, List<String> columns) {
            for (int i = 0; i < columns.size(); i++) {
                rows.add(Arrays.asList(visible.database(), PUBLIC, constraint, visible.database(), PUBLIC,
                        table.name(), columns.get(i), i + 1, null));
            }
        }

        private static List<String> key(TableDef table) {
            return table.columns().stream().filter(ColumnDef::isKey).sorted(Comparator.comparingInt(
                    ColumnDef::keyPosition)).map(ColumnDef::name).toList();
        }

        /** The primary key's name, as PostgreSQL names it. */
        private static String keyName(TableDef table) {
            return table.name() + "_pkey";
        }

        /** The unique indexes by name, as tools list them. */
        private static List<IndexDef> uniqueIndexes(TableDef table) {
            return table.indexes().stream().filter(IndexDef::unique).sorted(Comparator.comparing(IndexDef::name))
                    .toList();
        }
    }

    private static List<SystemRelation.Column> text(String... names) {
        return Arrays.stream(names).map(n -> new SystemRelation.Column(n, TEXT)).toList();
    }

    private static List<SystemRelation.Column> withIntegers(List<SystemRelation.Column> columns, String... integers) {
        List<String> numeric = List.of(integers);
        return columns.stream().map(c -> numeric.contains(c.name()) ? new SystemRelation.Column(c.name(), INTEGER) : c)
                .toList();
    }
}
