package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableDef.SystemPeriod;
import io.verso.catalog.TableMode;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;
import io.verso.sql.ast.Statement.ColumnDefinition;
import io.verso.sql.ast.Statement.CreateTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CREATE TABLE … WITH SYSTEM VERSIONING (MariaDB's syntax) checked and turned into a SYSTEM table:
 * the user's columns, the primary key and UNIQUE sets (constraints on current rows), and the period
 * columns, implicit and invisible or declared with GENERATED ALWAYS AS ROW START/END.
 */
public final class SystemTables {

    private SystemTables() {
    }

    /** A SYSTEM table and its unique column sets (physical names), the primary key first. */
    public record Created(TableDef table, List<List<String>> unique) {
    }

    public static Created createTable(CreateTable create, long commit) {
        DdlAnalyzer.checkName(create.name(), "table");
        if (create.mode() != null || !create.groups().isEmpty() || !create.ordering().validBy().isEmpty()
                || !create.ordering().revisionBy().isEmpty()) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "WITH SYSTEM VERSIONING takes no mode, VALID BY, "
                    + "REVISION BY or ATTRIBUTE GROUP: its versions are ordered by commit", create.pos());
        }
        Statement.SystemVersioning versioning = create.systemVersioning();
        Map<String, ColumnDefinition> columns = new LinkedHashMap<>();
        ColumnDefinition start = null;
        ColumnDefinition end = null;
        for (ColumnDefinition column : create.columns()) {
            DdlAnalyzer.checkName(column.name(), "column");
            if (columns.put(column.name().name(), column) != null) {
                throw Refusals.definedTwice("column", column.name().name(), column.name().pos());
            }
            if (column.rowBound() == Statement.RowBound.START) {
                start = requireOnce(start, column, "ROW START");
            } else if (column.rowBound() == Statement.RowBound.END) {
                end = requireOnce(end, column, "ROW END");
            }
        }
        SystemPeriod period;
        if (versioning.start() == null) {
            if (start != null || end != null) {
                ColumnDefinition given = start != null ? start : end;
                throw VersoException.at(ErrorCode.INVALID_DEFINITION, "column '" + given.name()
                        + "' is GENERATED ALWAYS AS ROW START/END but the table declares no PERIOD FOR SYSTEM_TIME",
                        given.pos());
            }
            period = SystemPeriod.implicitColumns();
            for (String implicit : List.of(period.start(), period.end())) {
                if (columns.containsKey(implicit)) {
                    throw VersoException.at(ErrorCode.DUPLICATE_NAME, "column '" + implicit + "' is the name of an "
                            + "implicit period column of WITH SYSTEM VERSIONING", columns.get(implicit).pos());
                }
            }
        } else {
            period = new SystemPeriod(versioning.start().name(), versioning.end().name(), false,
                    periodType(start, versioning.start(), "ROW START", columns));
            periodType(end, versioning.end(), "ROW END", columns);
            if (period.start().equals(period.end())) {
                throw VersoException.at(ErrorCode.INVALID_DEFINITION, "PERIOD FOR SYSTEM_TIME names column '"
                        + period.start() + "' twice", versioning.pos());
            }
        }
        List<ColumnDefinition> data = create.columns().stream().filter(c -> c.rowBound() == null).toList();
        if (data.isEmpty()) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "table " + create.name()
                    + " has no columns besides its period", create.pos());
        }
        Map<String, Integer> keyPosition = new HashMap<>();
        for (Ident key : create.primaryKey()) {
            refusePeriod(period, key);
            if (!columns.containsKey(key.name())) {
                throw Refusals.unknownColumn(key.name(), create.name().name(), key.pos());
            }
            if (keyPosition.put(key.name(), keyPosition.size()) != null) {
                throw Refusals.inKeyTwice(key.name(), key.pos());
            }
        }
        List<ColumnDef> defs = new ArrayList<>();
        Map<String, String> physical = new HashMap<>();
        int next = 1;
        for (ColumnDefinition column : data) {
            String name = column.name().name();
            boolean key = keyPosition.containsKey(name);
            ColumnDef def = new ColumnDef(name, "c" + next++, ColumnType.from(column.type()), column.notNull() || key,
                    null, key ? keyPosition.get(name) : -1, 0);
            defs.add(DdlAnalyzer.withDefault(def, column.defaultValue()));
            physical.put(name, def.physical());
        }
        List<List<String>> unique = new ArrayList<>();
        if (!create.primaryKey().isEmpty()) {
            unique.add(create.primaryKey().stream().map(k -> physical.get(k.name())).toList());
        }
        for (List<Ident> set : create.unique()) {
            List<String> names = new ArrayList<>();
            for (Ident c : set) {
                refusePeriod(period, c);
                if (!physical.containsKey(c.name())) {
                    throw Refusals.unknownColumn(c.name(), create.name().name(), c.pos());
                }
                names.add(physical.get(c.name()));
            }
            unique.add(names);
        }
        TableDef table = new TableDef(0, create.name().name(), TableMode.SYSTEM, defs,
                List.of(new GroupDef(0, GroupDef.DEFAULT_NAME, List.of(), List.of())), 0, commit, List.of(), null,
                null, period);
        return new Created(table, unique);
    }

    private static ColumnDefinition requireOnce(ColumnDefinition seen, ColumnDefinition column, String what) {
        if (seen != null) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "two columns are GENERATED ALWAYS AS " + what + ": '"
                    + seen.name() + "' and '" + column.name() + "' (MariaDB 4134: duplicate " + what + " column)",
                    column.pos());
        }
        return column;
    }

    /**
     * MariaDB: a period column is TIMESTAMP(6), spelled so: TIMESTAMP alone is TIMESTAMP(0) there (error 4110),
     * although PostgreSQL's TIMESTAMP is microseconds.
     */
    private static ColumnType periodType(ColumnDefinition generated, Ident named, String what,
                                         Map<String, ColumnDefinition> columns) {
        ColumnDefinition column = columns.get(named.name());
        if (column == null) {
            throw VersoException.at(ErrorCode.UNKNOWN_COLUMN, "PERIOD FOR SYSTEM_TIME names unknown column '"
                    + named + "'", named.pos());
        }
        if (generated == null || column != generated) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "column '" + named + "' of PERIOD FOR SYSTEM_TIME "
                    + "must be GENERATED ALWAYS AS " + what, column.pos());
        }
        ColumnType type = ColumnType.from(column.type());
        if (type.base() != ColumnType.Base.TIMESTAMP || type.precision() == null || type.precision() != 6) {
            throw VersoException.at(ErrorCode.INVALID_PERIOD_COLUMN, "period column '" + named + "' must be of type "
                    + "TIMESTAMP(6), not " + type.display() + " (MariaDB 4110)", column.type().pos());
        }
        return new ColumnType(ColumnType.Base.TIMESTAMP, 6, null);
    }

    private static void refusePeriod(SystemPeriod period, Ident column) {
        if (period.names(column.name())) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "period column '" + column
                    + "' cannot be part of a key: it changes with every version", column.pos());
        }
    }

    // ---- writes and ALTER of a system-versioned table --------------------------------------------

    /**
     * A value MariaDB takes for a declared period column and overwrites with the commit's time: NULL, or
     * DEFAULT (the one value its generated columns take).
     */
    private static boolean overwritten(Expr value) {
        return value instanceof Expr.Default
                || value instanceof Expr.Literal literal && literal.kind() == Expr.LiteralKind.NULL;
    }

    /**
     * An INSERT's listed rows without the declared period columns they give NULL or DEFAULT, as MariaDB takes
     * them (it writes the commit time there): named in the column list, or, with no list, as the two values
     * after the other columns' (the order of SELECT *). Any other value for one is refused (MariaDB 1906) by
     * {@link #checkInsert}; implicit period columns are never named.
     */
    public static Statement.InsertRows withoutPeriodNulls(Statement.InsertRows insert, TableDef table) {
        if (table.period() == null || table.period().implicit() || insert.rows().isEmpty() || insert.query() != null) {
            return insert;
        }
        List<Ident> columns = insert.columns();
        if (columns.isEmpty()) {
            int all = table.columns().size() + 2;
            if (!insert.rows().stream().allMatch(row -> row.size() == all)) {
                return insert;
            }
            columns = new ArrayList<>();
            for (ColumnDef column : table.columns()) {
                columns.add(new Ident(column.name(), insert.pos()));
            }
            columns.add(new Ident(table.period().start(), insert.pos()));
            columns.add(new Ident(table.period().end(), insert.pos()));
        }
        List<Integer> period = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (table.period().names(columns.get(i).name())) {
                period.add(i);
            }
        }
        if (period.isEmpty()) {
            return insert;
        }
        for (List<Expr> row : insert.rows()) {
            for (int i : period) {
                if (i < row.size() && !overwritten(row.get(i))) {
                    return insert; // refused by checkInsert, at the column
                }
            }
        }
        List<Ident> kept = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (!period.contains(i)) {
                kept.add(columns.get(i));
            }
        }
        List<List<Expr>> rows = new ArrayList<>();
        for (List<Expr> row : insert.rows()) {
            List<Expr> values = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                if (!period.contains(i)) {
                    values.add(row.get(i));
                }
            }
            rows.add(values);
        }
        return new Statement.InsertRows(insert.upsert(), insert.table(), kept, rows, null, insert.group(), insert.pos(),
                null);
    }

    /** INSERT only (no UPSERT, no ATTRIBUTE GROUP), and never into a period column. */
    public static void checkInsert(Statement.InsertRows insert, TableDef table) {
        if (insert.upsert() || insert.group() != null) {
            throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, (insert.upsert() ? "UPSERT" : "ATTRIBUTE GROUP")
                    + " does not apply to " + table.name() + ", a system-versioned table: use INSERT and UPDATE",
                    insert.pos());
        }
        for (Ident column : insert.columns()) {
            if (table.period() != null && table.period().names(column.name())) {
                throw periodWrite(table, column);
            }
        }
    }

    /**
     * The rows to insert as text per column of the table, in table order: a named column takes the
     * row's value (checked against its type when it was listed, already cast when a query gave it), an
     * omitted one its DEFAULT or NULL; a NOT NULL column left without a value is refused.
     */
    public static List<String[]> insertRows(Statement.InsertRows insert, TableDef table, List<Ident> named,
                                            List<WriteAnalyzer.RowInput> rows) {
        List<ColumnDef> columns = table.columns();
        List<String[]> texts = new ArrayList<>();
        for (WriteAnalyzer.RowInput row : rows) {
            String[] values = new String[columns.size()];
            for (int i = 0; i < columns.size(); i++) {
                ColumnDef column = columns.get(i);
                boolean given = named.stream().anyMatch(n -> n.name().equals(column.name()));
                Object value = given ? row.values().get(column.name()) : column.defaultValue();
                values[i] = value == null ? null : given && insert.query() == null
                        ? Values.toStoredText(column, value, row.positions().get(column.name()), row.where())
                        : value.toString();
                if (values[i] == null && column.notNull()) {
                    throw Refusals.notNull(column.name(), given, row.where(),
                            row.positions().getOrDefault(column.name(), insert.pos()));
                }
            }
            texts.add(values);
        }
        return texts;
    }

    /**
     * An UPDATE's assignments by column name: known columns, each once. A declared period column set to NULL
     * is left out, as MariaDB ignores it (its value is the commit time); any other value of a period column is
     * refused (MariaDB 1906), as is naming an implicit one.
     */
    public static Map<String, Expr> assignments(Statement.Update update, TableDef table) {
        Map<String, Expr> assigned = new LinkedHashMap<>();
        for (Statement.Assignment a : update.assignments()) {
            if (table.period() != null && table.period().names(a.column().name())) {
                // MariaDB ignores a NULL given a declared period column; DEFAULT, which an INSERT may give it, an
                // UPDATE may not (1364: the column has no default value).
                if (!table.period().implicit() && a.value() instanceof Expr.Literal literal
                        && literal.kind() == Expr.LiteralKind.NULL) {
                    continue;
                }
                if (!table.period().implicit() && a.value() instanceof Expr.Default given) {
                    throw VersoException.at(ErrorCode.PERIOD_COLUMN_WRITE, "column '" + a.column() + "' of "
                            + table.name() + " is a period column of system versioning: an UPDATE cannot give it "
                            + "DEFAULT (MariaDB 1364); NULL is taken and ignored", given.pos());
                }
                throw periodWrite(table, a.column());
            }
            ColumnDef column = table.column(a.column().name()).orElseThrow(() -> Refusals.unknownColumn(
                    a.column().name(), table.name(), a.column().pos()));
            Expr value = WriteAnalyzer.assignedValue(table, column, a.value());
            if (assigned.put(column.name(), value) != null) {
                throw Refusals.assignedTwice(column.name(), a.column().pos());
            }
            if ((column.notNull() || column.isKey()) && value instanceof Expr.Literal lit
                    && lit.kind() == Expr.LiteralKind.NULL) {
                throw Refusals.updateGivesNull(column.name(), table.name(), lit.pos());
            }
        }
        return assigned;
    }

    /** A DELETE of a system-versioned (or APPEND) table takes no AT: its versions are ordered by commit. */
    public static void checkDelete(Statement.Delete delete, TableDef table) {
        if (!delete.at().isEmpty()) {
            throw VersoException.at(ErrorCode.INVALID_AT_CLAUSE, "AT does not apply to " + table.name() + ", "
                    + (table.mode() == TableMode.APPEND ? "an APPEND table" : "a system-versioned table")
                    + ": its versions are ordered by commit", delete.at().get(0).column().pos());
        }
    }

    /** ADD / DROP SYSTEM VERSIONING applies to tables created WITH SYSTEM VERSIONING, in the other state. */
    public static void checkAlter(Statement.AlterSystemVersioning alter, TableDef table) {
        if (table.mode() != TableMode.SYSTEM) {
            checkConversion(alter, table);
            return;
        }
        if (alter.add() == table.systemVersioned()) {
            throw VersoException.at(ErrorCode.INVALID_ALTER, "table " + table.name() + (alter.add()
                    ? " is already system-versioned" : " is not system-versioned"), alter.pos());
        }
        if (!alter.add() && !table.period().implicit()) {
            // MariaDB wants the declared period columns dropped in the same ALTER; they are not droppable here.
            throw VersoException.at(ErrorCode.INVALID_ALTER, "table " + table.name() + " declares its period columns ("
                    + table.period().start() + ", " + table.period().end() + "): DROP SYSTEM VERSIONING applies to "
                    + "implicit period columns only (MariaDB 4125: missing DROP COLUMN)", alter.pos());
        }
    }

    /**
     * ADD SYSTEM VERSIONING of a plain table, as MariaDB does it: an UPSERT table (its key becomes the
     * primary key) or an APPEND table (rows keep a hidden identity). A VERSIONED table keeps its own
     * history and is refused, as is a table whose rows are ordered (VALID BY / REVISION BY, attribute
     * groups): system versioning orders by commit only.
     */
    private static void checkConversion(Statement.AlterSystemVersioning alter, TableDef table) {
        if (!alter.add()) {
            throw VersoException.at(ErrorCode.INVALID_ALTER, "table " + table.name() + " is not system-versioned ("
                    + table.mode() + ")", alter.pos());
        }
        if (table.mode() == TableMode.VERSIONED) {
            throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, "table " + table.name() + " is VERSIONED: it "
                    + "keeps every version already, and FOR SYSTEM_TIME AS OF reads it as AS OF TIMESTAMP", alter.pos());
        }
        boolean ordered = table.groups().size() > 1 || table.groups().stream().anyMatch(g -> !g.orderingColumns()
                .isEmpty());
        if (ordered) {
            throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, "table " + table.name() + " orders its rows by "
                    + "VALID BY / REVISION BY or attribute groups; a system-versioned table orders versions by "
                    + "commit only", alter.pos());
        }
        TableDef.SystemPeriod period = TableDef.SystemPeriod.implicitColumns();
        for (String implicit : List.of(period.start(), period.end())) {
            if (table.column(implicit).isPresent()) {
                throw VersoException.at(ErrorCode.DUPLICATE_NAME, "table " + table.name() + " has a column '"
                        + implicit + "', the name of an implicit period column of system versioning", alter.pos());
            }
        }
    }

    /**
     * The SYSTEM table a plain UPSERT or APPEND table becomes under ADD SYSTEM VERSIONING: same id and
     * columns (key columns NOT NULL), the implicit period, one unordered default group.
     */
    public static TableDef converted(TableDef table) {
        List<ColumnDef> columns = table.columns().stream().map(c -> new ColumnDef(c.name(), c.physical(), c.type(),
                c.notNull() || c.isKey(), c.defaultValue(), c.keyPosition(), 0)).toList();
        return new TableDef(table.id(), table.name(), TableMode.SYSTEM, columns,
                List.of(new GroupDef(0, GroupDef.DEFAULT_NAME, List.of(), List.of())), 0, table.createdCommit(),
                table.indexes(), null, null, SystemPeriod.implicitColumns(), table.checks());
    }

    private static VersoException periodWrite(TableDef table, Ident column) {
        return VersoException.at(ErrorCode.PERIOD_COLUMN_WRITE, "column '" + column + "' of " + table.name()
                + " is a period column of system versioning: its value is the commit time, never written (MariaDB "
                + (table.period().implicit() ? "1054" : "1906") + ")",
                column.pos());
    }
}
