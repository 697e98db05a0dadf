package io.verso.engine;

import io.verso.analyze.DdlAnalyzer;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.Ordering;
import io.verso.catalog.TableDef;
import io.verso.engine.StatementResult.Column;
import io.verso.error.VersoException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The catalog as result rows: SHOW TABLES, DESCRIBE, SHOW CREATE TABLE and SHOW DERIVED TABLES. Pure
 * renderings of definitions the engine found (and authorized) for the caller; listings show only what
 * the caller may see.
 */
final class CatalogListings {

    private CatalogListings() {
    }

    /** The tables {@code visible} to the caller: name, mode and the commit that created each. */
    static StatementResult showTables(List<TableDef> tables, Predicate<TableDef> visible) {
        List<List<Object>> rows = new ArrayList<>();
        for (TableDef t : tables) {
            if (visible.test(t)) {
                rows.add(List.of(t.name(), t.mode().name(), String.valueOf(t.createdCommit())));
            }
        }
        return new StatementResult.Rows("SHOW TABLES", List.of(new Column("name", "TEXT"),
                new Column("mode", "TEXT"), new Column("created_commit", "BIGINT")), rows, null);
    }

    /**
     * One row per column (kind COLUMN), then one per index (kind INDEX, with whether it is unique), then one per
     * CHECK (kind CHECK).
     */
    static StatementResult describe(TableDef table) {
        List<List<Object>> rows = new ArrayList<>();
        for (ColumnDef c : table.columns()) {
            String ordering = Ordering.spelled(table, c);
            rows.add(Arrays.asList("COLUMN", c.name(), c.type().display(), !c.notNull(),
                    c.defaultValue(), c.isKey() ? c.keyPosition() + 1 : null,
                    c.isKey() || !table.mode().keyed() ? null : table.group(c.groupId()).name(), ordering, null,
                    null, null, null));
        }
        if (table.systemVersioned() && !table.period().implicit()) {
            for (String period : List.of(table.period().start(), table.period().end())) {
                rows.add(Arrays.asList("COLUMN", period, table.period().type().display(), false, null,
                        null, null, (period.equals(table.period().start()) ? Ordering.ROW_START : Ordering.ROW_END).spelling(), null, null,
                        null, null));
            }
        }
        for (var index : table.indexes()) {
            String columns = String.join(", ", index.columns().stream()
                    .map(p -> table.columnByPhysical(p).map(ColumnDef::name).orElse(p)).toList());
            rows.add(Arrays.asList("INDEX", index.name(), null, null, null, null, null, null, columns,
                    index.scope().name(), null, index.unique()));
        }
        for (var check : table.checks()) {
            rows.add(Arrays.asList("CHECK", check.name(), null, null, null, null, null, null, null, null,
                    check.expression(), null));
        }
        return new StatementResult.Rows("DESCRIBE", List.of(new Column("kind", "TEXT"), new Column("name", "TEXT"),
                new Column("type", "TEXT"), new Column("nullable", "BOOLEAN"), new Column("default", "TEXT"),
                new Column("key_position", "INTEGER"), new Column("attribute_group", "TEXT"),
                new Column("ordering", "TEXT"), new Column("index_columns", "TEXT"),
                new Column("index_scope", "TEXT"), new Column("check_expression", "TEXT"),
                new Column("index_unique", "BOOLEAN")), rows, null);
    }

    /** The dialect type of a result column as the engine names it ({@code VARCHAR}), text when it is none. */
    static ColumnType columnType(String type) {
        try {
            return ColumnType.parseStored(type.toLowerCase(java.util.Locale.ROOT));
        } catch (VersoException e) {
            return ColumnType.of(ColumnType.Base.TEXT);
        }
    }

    /** The CREATE TABLE statement that makes the table as it is now. */
    static StatementResult showCreate(TableDef table) {
        List<List<Object>> rows = new ArrayList<>();
        rows.add(List.of(table.name(), DdlAnalyzer.showCreate(table)));
        return new StatementResult.Rows("SHOW CREATE TABLE",
                List.of(new Column("table", "TEXT"), new Column("create_statement", "TEXT")), rows, null);
    }

    /** SHOW DERIVED TABLES: the rows io.verso.derive.Deriver#show lists for the caller. */
    static StatementResult showDerived(List<List<Object>> rows) {
        return new StatementResult.Rows("SHOW DERIVED TABLES", List.of(new Column("name", "TEXT"),
                new Column("primary_key", "TEXT"), new Column("query", "TEXT"), new Column("sources", "TEXT"),
                new Column("applied_through", "BIGINT"), new Column("mode", "TEXT")), rows, null);
    }
}
