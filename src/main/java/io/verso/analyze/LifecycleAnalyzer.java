package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.GroupDef;
import io.verso.catalog.IndexDef;
import io.verso.catalog.IndexScope;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableDef.SystemPeriod;
import io.verso.catalog.TableMode;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The life of a table after CREATE, checked against its definition: ALTER TABLE (columns added,
 * dropped, renamed; the table renamed; retention; a refused change of ordering), CREATE INDEX,
 * DELETE HISTORY and ERASE. Pure functions: each returns the table's new definition (or what the
 * statement removes) for the engine to persist and {@code compile.LifecycleCompiler} to turn into
 * SQL, or fails with the statement's code at its position. Lookups that need the whole catalog (a
 * name already taken) are the caller's and come in as arguments.
 */
public final class LifecycleAnalyzer {

    private LifecycleAnalyzer() {
    }

    // ---- columns -------------------------------------------------------------------------------

    /** The table with the new column, and the column (its DEFAULT checked and stored as text). */
    public record AddedColumn(TableDef altered, ColumnDef column) {
    }

    public static AddedColumn addColumn(Statement.AddColumn add, TableDef table) {
        Statement.ColumnDefinition definition = add.column();
        refusePeriodColumn(table, definition.name(), true);
        DdlAnalyzer.checkName(definition.name(), "column");
        if (table.column(definition.name().name()).isPresent()) {
            throw Refusals.columnExists(table.name(), definition.name().name(), definition.name().pos());
        }
        int groupId = 0;
        if (add.group() != null) {
            if (table.mode() == TableMode.APPEND) {
                throw VersoException.at(ErrorCode.ORDERING_ON_APPEND_TABLE,
                        "an APPEND table has no attribute groups", add.group().pos());
            }
            groupId = table.group(add.group().name()).orElseThrow(() -> Refusals.unknownGroup(table.name(),
                    add.group().name(), add.group().pos())).id();
        }
        boolean hasDefault = definition.defaultValue() != null
                && definition.defaultValue().kind() != Expr.LiteralKind.NULL;
        if (definition.notNull() && !hasDefault) {
            throw VersoException.at(ErrorCode.INVALID_ALTER, "NOT NULL column '" + definition.name()
                    + "' needs a DEFAULT: every existing row and version takes it", definition.pos());
        }
        int next = table.columns().stream().mapToInt(c -> Integer.parseInt(c.physical().substring(1))).max().orElse(0)
                + 1;
        ColumnDef column = DdlAnalyzer.withDefault(new ColumnDef(definition.name().name(), "c" + next,
                ColumnType.from(definition.type()), definition.notNull(), null, -1, groupId), definition.defaultValue());
        List<ColumnDef> columns = new ArrayList<>(table.columns());
        columns.add(column);
        return new AddedColumn(table.withColumns(columns, table.groups()), column);
    }

    /** The table without the column and the indexes over it, and the column dropped. */
    public record DroppedColumn(TableDef altered, ColumnDef column) {
    }

    public static DroppedColumn dropColumn(Statement.DropColumn drop, TableDef table) {
        refusePeriodColumn(table, drop.column(), false);
        ColumnDef column = column(table, drop.column());
        if (column.isKey() || table.isOrderingColumn(column)) {
            throw VersoException.at(ErrorCode.INVALID_ALTER, "column '" + column.name() + "' is a "
                    + (column.isKey() ? "key" : "VALID BY / REVISION BY") + " column of " + table.name()
                    + " and cannot be dropped", drop.column().pos());
        }
        if (table.columns().size() == 1) {
            throw VersoException.at(ErrorCode.INVALID_ALTER, "a table keeps at least one column", drop.pos());
        }
        List<ColumnDef> columns = table.columns().stream().filter(c -> c != column).toList();
        List<IndexDef> indexes = table.indexes().stream().filter(i -> !i.columns().contains(column.physical()))
                .toList();
        // CHECK constraints that read the column go with it, as in PostgreSQL.
        return new DroppedColumn(table.withColumns(columns, table.groups()).withIndexes(indexes)
                .withChecks(CheckConstraints.withoutColumn(table, column.name())), column);
    }

    /** The table with the column renamed, in its groups' ordering lists too; storage names stay. */
    public static TableDef renameColumn(Statement.RenameColumn rename, TableDef table) {
        if (table.systemVersioned() && !table.period().implicit() && table.period().names(rename.from().name())) {
            return renamePeriodColumn(rename, table);
        }
        refusePeriodColumn(table, rename.from(), false);
        ColumnDef column = column(table, rename.from());
        String to = rename.to().name();
        DdlAnalyzer.checkName(rename.to(), "column");
        if (table.column(to).isPresent()) {
            throw Refusals.columnExists(table.name(), to, rename.to().pos());
        }
        List<ColumnDef> columns = table.columns().stream().map(c -> c == column ? c.renamed(to) : c).toList();
        List<GroupDef> groups = table.groups().stream()
                .map(g -> new GroupDef(g.id(), g.name(), rename(g.validBy(), column.name(), to),
                        rename(g.revisionBy(), column.name(), to)))
                .toList();
        return table.withColumns(columns, groups).withChecks(CheckConstraints.renamed(table, rename.from(), to));
    }

    /**
     * A declared period column is renamed as in MariaDB: only its name changes (its values are the commit times,
     * kept under storage names of their own).
     */
    private static TableDef renamePeriodColumn(Statement.RenameColumn rename, TableDef table) {
        String to = rename.to().name();
        DdlAnalyzer.checkName(rename.to(), "column");
        SystemPeriod period = table.period();
        if (table.column(to).isPresent() || period.names(to)) {
            throw Refusals.columnExists(table.name(), to, rename.to().pos());
        }
        boolean start = period.start().equals(rename.from().name());
        return table.withPeriod(new SystemPeriod(start ? to : period.start(), start ? period.end() : to, false,
                period.type()));
    }

    private static List<String> rename(List<String> names, String from, String to) {
        return names.stream().map(n -> n.equals(from) ? to : n).toList();
    }

    /**
     * A period column of system versioning is neither dropped, renamed nor added again:
     * PERIOD_COLUMN_ALTER (DUPLICATE_NAME for an ADD of its name) at the column's name.
     */
    private static void refusePeriodColumn(TableDef table, Ident column, boolean adding) {
        if (table.systemVersioned() && table.period().names(column.name())) {
            throw VersoException.at(adding ? ErrorCode.DUPLICATE_NAME : ErrorCode.PERIOD_COLUMN_ALTER, "column '"
                    + column.name() + "' of " + table.name() + " is a period column of system versioning"
                    + (adding ? "" : table.period().implicit() ? ": an implicit one cannot be dropped or renamed "
                    + "(MariaDB 1054; DROP SYSTEM VERSIONING removes the period)" : ": it cannot be dropped (MariaDB 4119)"),
                    column.pos());
        }
    }

    /** The renamed table; {@code taken} says whether a table of the new name exists. */
    public static TableDef renameTable(Statement.RenameTable rename, TableDef table, boolean taken) {
        DdlAnalyzer.checkName(rename.to(), "table");
        if (taken) {
            throw Refusals.tableExists(rename.to().name(), rename.to().pos());
        }
        return table.withName(rename.to().name());
    }

    /** The mode and ordering columns of a table never change: INVALID_ALTER, always. */
    public static VersoException changeOrdering(Statement.ChangeOrdering change, TableDef table) {
        return VersoException.at(ErrorCode.INVALID_ALTER, "the " + change.what() + " of " + table.name()
                + " cannot change: every retained version was ordered by them; create a new table instead",
                change.pos());
    }

    /** Retention applies to VERSIONED tables (RESET to any). */
    public static void setRetention(Statement.SetRetention retention, TableDef table) {
        if (table.mode() != TableMode.VERSIONED && (retention.commits() != null || retention.interval() != null)) {
            throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, "history retention needs a VERSIONED table; "
                    + table.name() + " is " + table.mode(), retention.pos());
        }
    }

    /** A retention interval as PostgreSQL normalised it must be positive. */
    public static void checkRetentionInterval(Statement.SetRetention retention, String normalised) {
        if (normalised.startsWith("-") || normalised.equals("00:00:00")) {
            throw VersoException.at(ErrorCode.INVALID_VALUE, "history retention must be a positive interval, not '"
                    + retention.interval() + "'", retention.pos());
        }
    }

    // ---- indexes -------------------------------------------------------------------------------

    /** The table with the new index, and the index (its columns by storage name). */
    public record NewIndex(TableDef altered, IndexDef index) {
    }

    public static NewIndex createIndex(Statement.CreateIndex create, TableDef table) {
        DdlAnalyzer.checkName(create.name(), "index");
        if (table.mode() == TableMode.UPSERT && create.scope() != IndexScope.CURRENT) {
            throw VersoException.at(ErrorCode.NO_HISTORY, "table " + table.name()
                    + " is an UPSERT table and keeps no history to index: use SCOPE CURRENT", create.pos());
        }
        if (create.unique() && create.scope() != IndexScope.CURRENT) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "a UNIQUE index applies to current rows: "
                    + "use SCOPE CURRENT", create.pos());
        }
        List<String> physical = new ArrayList<>();
        for (Ident name : create.columns()) {
            String p = column(table, name).physical();
            if (physical.contains(p)) {
                throw VersoException.at(ErrorCode.DUPLICATE_NAME, "column '" + name + "' is indexed twice", name.pos());
            }
            physical.add(p);
        }
        int next = table.indexes().stream().mapToInt(i -> Integer.parseInt(i.physical().substring(1))).max().orElse(0)
                + 1;
        IndexDef index = new IndexDef(create.name().name(), "i" + next, physical, create.scope(), create.unique());
        List<IndexDef> indexes = new ArrayList<>(table.indexes());
        indexes.add(index);
        return new NewIndex(table.withIndexes(indexes), index);
    }

    // ---- history -------------------------------------------------------------------------------

    /** DELETE HISTORY BEFORE COMMIT needs a VERSIONED table (an UPSERT table has none: NO_HISTORY). */
    public static void deleteHistory(Statement.DeleteHistory delete, TableDef table) {
        if (table.mode() != TableMode.VERSIONED) {
            throw VersoException.at(table.mode() == TableMode.UPSERT ? ErrorCode.NO_HISTORY
                    : ErrorCode.UNSUPPORTED_FOR_MODE, "DELETE HISTORY needs a VERSIONED table; " + table.name()
                    + " is " + table.mode() + (table.mode() == TableMode.APPEND ? ": its rows are never superseded"
                    : ""), delete.pos());
        }
    }

    /**
     * The keys an ERASE removes: {@code values[k][r]} is key column k of the r-th key, as text, and
     * {@code recorded} the same keys by column name, as the erasure log keeps them.
     */
    public record Erasure(String[][] values, List<Map<String, String>> recorded) {
    }

    public static Erasure erase(Statement.Erase erase, TableDef table, List<Object> params) {
        if (!table.mode().keyed() && (table.mode() != TableMode.SYSTEM || table.keyColumns().isEmpty())) {
            throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, "ERASE removes keys; " + table.name()
                    + (table.mode() == TableMode.SYSTEM ? " is a system-versioned table without a primary key "
                    + "(DELETE the rows, then DELETE HISTORY removes their versions)" : " is an APPEND table without "
                    + "a key"), erase.pos());
        }
        List<ColumnDef> keys = table.keyColumns();
        List<Map<String, Object>> named = KeyPredicate.explicitKeys(erase.where(), keys, params);
        if (named == null) {
            throw VersoException.at(ErrorCode.INVALID_REQUEST, "ERASE names the keys it removes: its WHERE must fix "
                    + "every key column of " + table.name() + " with = or IN", erase.where().pos());
        }
        String[][] values = new String[keys.size()][named.size()];
        List<Map<String, String>> recorded = new ArrayList<>();
        for (int r = 0; r < named.size(); r++) {
            Map<String, String> key = new LinkedHashMap<>();
            for (int k = 0; k < keys.size(); k++) {
                values[k][r] = Values.toText(keys.get(k), named.get(r).get(keys.get(k).name()), erase.pos(), "ERASE");
                key.put(keys.get(k).name(), values[k][r]);
            }
            recorded.add(key);
        }
        return new Erasure(values, recorded);
    }

    private static ColumnDef column(TableDef table, Ident name) {
        return table.column(name.name()).orElseThrow(() -> Refusals.unknownColumn(name.name(), table.name(),
                name.pos()));
    }
}
