package io.verso.pgwire;

import io.verso.engine.StatementResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The relations of {@code information_schema} tools read (tables, columns, schemata, views, table_constraints,
 * key_column_usage), with the columns PostgreSQL 15 gives them and rows made from what the caller may see:
 * the tables {@code SHOW TABLES} lists, as {@code DESCRIBE} shows them, and the views the caller may read, all
 * in schema {@code public}. A unique index is shown as a UNIQUE constraint, as that is how tools look for
 * unique keys.
 */
final class InformationSchema implements CatalogSelect.Schemas {

    static final String SCHEMA = "information_schema";

    private final CatalogQueries.Catalog catalog;

    InformationSchema(CatalogQueries.Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public Optional<CatalogSelect.Relation> relation(String schema, String name) {
        if (!schema.equals(SCHEMA)) {
            return Optional.empty();
        }
        return Optional.ofNullable(switch (name) {
            case "schemata" -> new CatalogSelect.Relation(columns("catalog_name", "schema_name", "schema_owner",
                    "default_character_set_catalog", "default_character_set_schema", "default_character_set_name",
                    "sql_path"), () -> List.of(Arrays.asList(catalog.database(), "public", "verso", null, null, null,
                    null)));
            case "tables" -> new CatalogSelect.Relation(columns("table_catalog", "table_schema", "table_name",
                    "table_type", "self_referencing_column_name", "reference_generation", "user_defined_type_catalog",
                    "user_defined_type_schema", "user_defined_type_name", "is_insertable_into", "is_typed",
                    "commit_action"), this::tables);
            case "columns" -> new CatalogSelect.Relation(columnsOfColumns(), this::columns);
            case "views" -> new CatalogSelect.Relation(columns("table_catalog", "table_schema", "table_name",
                    "view_definition", "check_option", "is_updatable", "is_insertable_into", "is_trigger_updatable",
                    "is_trigger_deletable", "is_trigger_insertable_into"), this::views);
            case "table_constraints" -> new CatalogSelect.Relation(columns("constraint_catalog", "constraint_schema",
                    "constraint_name", "table_catalog", "table_schema", "table_name", "constraint_type",
                    "is_deferrable", "initially_deferred", "enforced", "nulls_distinct"), this::constraints);
            case "key_column_usage" -> new CatalogSelect.Relation(withIntegers(columns("constraint_catalog",
                    "constraint_schema", "constraint_name", "table_catalog", "table_schema", "table_name",
                    "column_name", "ordinal_position", "position_in_unique_constraint"), "ordinal_position",
                    "position_in_unique_constraint"), this::keyColumns);
            default -> null;
        });
    }

    private List<List<Object>> tables() throws StatementRequests.Failed {
        List<List<Object>> rows = new ArrayList<>();
        for (String table : catalog.tables().stream().sorted().toList()) {
            rows.add(Arrays.asList(catalog.database(), "public", table, "BASE TABLE", null, null, null, null, null,
                    "YES", "NO", null));
        }
        for (CatalogQueries.View view : catalog.views()) {
            rows.add(Arrays.asList(catalog.database(), "public", view.name(), "VIEW", null, null, null, null, null,
                    "NO", "NO", null));
        }
        return rows;
    }

    private static List<StatementResult.Column> columnsOfColumns() {
        return withIntegers(columns("table_catalog", "table_schema", "table_name", "column_name", "ordinal_position",
                "column_default", "is_nullable", "data_type", "character_maximum_length", "character_octet_length",
                "numeric_precision", "numeric_precision_radix", "numeric_scale", "datetime_precision", "interval_type",
                "udt_catalog", "udt_schema", "udt_name", "is_identity", "is_generated", "is_updatable"),
                "ordinal_position", "character_maximum_length", "character_octet_length", "numeric_precision",
                "numeric_precision_radix", "numeric_scale", "datetime_precision");
    }

    private List<List<Object>> columns() throws StatementRequests.Failed {
        List<List<Object>> rows = new ArrayList<>();
        for (DescribedTable t : CatalogQueries.tables(catalog, null, null, false)) {
            int position = 1;
            for (DescribedTable.Attribute a : t.attributes()) {
                rows.add(column(t.name(), position++, a.name(), a.type(), a.defaultValue(), !a.notNull(), true));
            }
        }
        for (CatalogQueries.View view : catalog.views()) {
            int position = 1;
            for (StatementResult.Column c : view.columns()) {
                rows.add(column(view.name(), position++, c.name(), c.type(), null, true, false));
            }
        }
        return rows;
    }

    /** A row of information_schema.columns: the SQL type's name and its sizes as PostgreSQL reports them. */
    private List<Object> column(String table, int position, String name, String type, String defaultValue,
                                boolean nullable, boolean updatable) {
        int oid = PgTypes.oid(type);
        int typmod = PgTypes.typmod(type);
        Integer length = (oid == PgTypes.VARCHAR || oid == PgTypes.BPCHAR) && typmod > 0 ? typmod - 4 : null;
        Integer octets = null;
        if (length != null) {
            octets = length * 4;
        } else if (oid == PgTypes.TEXT || oid == PgTypes.VARCHAR || oid == PgTypes.BPCHAR) {
            octets = 1_073_741_824;
        }
        Integer precision = switch (oid) {
            case PgTypes.INT2 -> 16;
            case PgTypes.INT4 -> 32;
            case PgTypes.INT8 -> 64;
            case PgTypes.FLOAT4 -> 24;
            case PgTypes.FLOAT8 -> 53;
            case PgTypes.NUMERIC -> typmod > 0 ? (typmod - 4) >> 16 : null;
            default -> null;
        };
        Integer radix = precision == null ? null : oid == PgTypes.NUMERIC ? 10 : 2;
        Integer scale = switch (oid) {
            case PgTypes.INT2, PgTypes.INT4, PgTypes.INT8 -> 0;
            case PgTypes.NUMERIC -> typmod > 0 ? (typmod - 4) & 0xffff : null;
            default -> null;
        };
        Integer datetime = oid == PgTypes.DATE ? Integer.valueOf(0)
                : oid == PgTypes.TIMESTAMP || oid == PgTypes.TIMESTAMPTZ ? Integer.valueOf(typmod >= 0 ? typmod : 6)
                : null;
        return Arrays.asList(catalog.database(), "public", table, name, position, defaultValue, nullable ? "YES" : "NO",
                PgTypes.formatted(type).replaceAll("\\(\\d+(,\\d+)?\\)", ""), length, octets, precision, radix, scale,
                datetime, null, catalog.database(), "pg_catalog", PgTypes.typeName(oid), "NO", "NEVER",
                updatable ? "YES" : "NO");
    }

    private List<List<Object>> views() throws StatementRequests.Failed {
        List<List<Object>> rows = new ArrayList<>();
        for (CatalogQueries.View view : catalog.views()) {
            rows.add(Arrays.asList(catalog.database(), "public", view.name(), view.query(), "NONE", "NO", "NO", "NO",
                    "NO", "NO"));
        }
        return rows;
    }

    private List<List<Object>> constraints() throws StatementRequests.Failed {
        List<List<Object>> rows = new ArrayList<>();
        for (DescribedTable t : CatalogQueries.tables(catalog, null, null, false)) {
            if (!t.key().isEmpty()) {
                rows.add(constraint(t, t.keyName(), "PRIMARY KEY", null));
            }
            for (DescribedTable.Index i : t.sortedIndexes()) {
                if (i.unique()) {
                    rows.add(constraint(t, i.name(), "UNIQUE", "YES"));
                }
            }
            for (DescribedTable.Check c : t.checks()) {
                rows.add(constraint(t, c.name(), "CHECK", null));
            }
        }
        return rows;
    }

    private List<Object> constraint(DescribedTable t, String name, String type, String nullsDistinct) {
        return Arrays.asList(catalog.database(), "public", name, catalog.database(), "public", t.name(), type, "NO",
                "NO", "YES", nullsDistinct);
    }

    private List<List<Object>> keyColumns() throws StatementRequests.Failed {
        List<List<Object>> rows = new ArrayList<>();
        for (DescribedTable t : CatalogQueries.tables(catalog, null, null, false)) {
            keyColumns(rows, t, t.keyName(), t.key());
            for (DescribedTable.Index i : t.sortedIndexes()) {
                if (i.unique()) {
                    keyColumns(rows, t, i.name(), i.columnNames());
                }
            }
        }
        return rows;
    }

    private void keyColumns(List<List<Object>> rows, DescribedTable t, String constraint, List<String> columns) {
        for (int i = 0; i < columns.size(); i++) {
            rows.add(Arrays.asList(catalog.database(), "public", constraint, catalog.database(), "public", t.name(),
                    columns.get(i), i + 1, null));
        }
    }

    private static List<StatementResult.Column> columns(String... names) {
        return Arrays.stream(names).map(n -> new StatementResult.Column(n, "TEXT")).toList();
    }

    private static List<StatementResult.Column> withIntegers(List<StatementResult.Column> columns, String... integers) {
        List<String> numeric = List.of(integers);
        return columns.stream().map(c -> numeric.contains(c.name()) ? new StatementResult.Column(c.name(), "INTEGER")
                : c).toList();
    }
}
