package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.error.ErrorCode;
import io.verso.error.Located;
import io.verso.error.Origin;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.sql.ast.TypeSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Checks rows written to a table against its definition and splits them into one batch per
 * attribute group touched, the unit the ordering rule applies to.
 */
public final class WriteAnalyzer {

    private WriteAnalyzer() {
    }

    /** A row to write: values by column (absent means not given), and where it came from. */
    public record RowInput(Map<String, Object> values, Map<String, Pos> positions, String where) {
    }

    /** The rows of an UPSERT or INSERT statement as {@link RowInput}s, with the column list checked. */
    public static List<RowInput> rows(Statement.InsertRows statement, TableDef table, List<Object> params) {
        ValuesRows given = valuesRows(statement, table, params);
        List<RowInput> rows = new ArrayList<>();
        for (int r = 0; r < given.size(); r++) {
            Map<String, Object> values = new LinkedHashMap<>();
            Map<String, Pos> positions = new LinkedHashMap<>();
            for (int i = 0; i < given.named().size(); i++) {
                values.put(given.named().get(i).name(), given.values()[i][r]);
                positions.put(given.named().get(i).name(), given.pos(i, r));
            }
            rows.add(new RowInput(values, positions, given.where(r)));
        }
        return rows;
    }

    /**
     * The rows of an UPSERT or INSERT ... VALUES column by column: {@code values[i][r]} is row r's value
     * for the i-th named column, as {@link Values#valueOf} reads it (or as a surface gave it, {@link
     * Statement.ColumnValues}). The ingest path: a batch of a thousand rows becomes column arrays ({@link
     * #batches(TableDef, ValuesRows, List, int, Pos)}) without a map per row.
     */
    public record ValuesRows(Statement.InsertRows statement, List<Ident> named, Object[][] values) {
        public int size() {
            return statement.columnValues() != null ? statement.columnValues().size() : statement.rows().size();
        }

        /** The columns the rows give. */
        public Set<String> given() {
            Set<String> given = new LinkedHashSet<>();
            named.forEach(n -> given.add(n.name()));
            return given;
        }

        Pos pos(int column, int row) {
            return statement.columnValues() != null ? statement.columnValues().origin().at(column, row)
                    : statement.rows().get(row).get(column).pos();
        }

        /** How messages name row r, built only when one is needed. */
        String where(int row) {
            if (statement.columnValues() != null) {
                return named.isEmpty() ? "row " + (row + 1) : Origin.row(pos(0, row).origin(), row);
            }
            List<Expr> items = statement.rows().get(row);
            return items.isEmpty() ? "row " + (row + 1) : Origin.row(items.get(0).pos().origin(), row);
        }
    }

    /** The values of an UPSERT or INSERT ... VALUES, with the column list and each row's width checked. */
    public static ValuesRows valuesRows(Statement.InsertRows statement, TableDef table, List<Object> params) {
        List<Ident> named = namedColumns(statement, table);
        if (statement.columnValues() != null) {
            return new ValuesRows(statement, named, statement.columnValues().values());
        }
        List<List<Expr>> rows = statement.rows();
        Object[][] values = new Object[named.size()][rows.size()];
        for (int r = 0; r < rows.size(); r++) {
            List<Expr> row = rows.get(r);
            if (row.size() != named.size()) {
                throw VersoException.at(ErrorCode.COLUMN_COUNT_MISMATCH, "row " + (r + 1) + " has " + row.size()
                        + " values for " + named.size() + " columns", row.isEmpty() ? statement.pos() : row.get(0).pos());
            }
            for (int i = 0; i < named.size(); i++) {
                values[i][r] = row.get(i) instanceof Expr.Default ? defaultOf(table, named.get(i))
                        : Values.valueOf(row.get(i), params);
            }
        }
        return new ValuesRows(statement, named, values);
    }

    /** DEFAULT in VALUES: the column's DEFAULT, as a column left out gets it, or NULL without one. */
    private static Object defaultOf(TableDef table, Ident column) {
        return table.column(column.name()).map(ColumnDef::defaultValue).orElse(null);
    }

    /**
     * An UPDATE's value for {@code column}: {@code DEFAULT} is the column's DEFAULT, typed as the column, or NULL
     * without one, as DEFAULT in VALUES gives ({@link #defaultOf}); a NOT NULL column without one has none to
     * take. Any other value as written; a string literal PostgreSQL cannot read as the column's type is refused
     * at its position ({@link TypeRules#assigned}).
     */
    public static Expr assignedValue(TableDef table, ColumnDef column, Expr value) {
        if (value instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING) {
            TypeRules.assigned(column, lit);
        }
        if (!(value instanceof Expr.Default given)) {
            return value;
        }
        if (column.defaultValue() == null) {
            if (column.notNull() || column.isKey()) {
                throw VersoException.at(ErrorCode.NOT_NULL_VIOLATION, "column '" + column.name() + "' of "
                        + table.name() + " is NOT NULL and has no DEFAULT for SET ... = DEFAULT to give it "
                        + "(MariaDB 1364)", given.pos());
            }
            return new Expr.Literal(Expr.LiteralKind.NULL, null, given.pos());
        }
        return new Expr.Cast(new Expr.Literal(Expr.LiteralKind.STRING, column.defaultValue(), given.pos()),
                TypeSpec.of(column.type(), given.pos()), given.pos());
    }

    /**
     * An UPDATE checked against its table: assignments, the groups they write, and the read of the rows it
     * matches (keys, then the groups' columns, assigned or kept) bound by the read analyzer over {@code lookup}.
     */
    public static BoundChange.Update update(Statement.Update update, TableDef table, TableLookup lookup,
                                            AsOfResolver asOf, int parameterCount) {
        Map<String, Expr> assigned = new LinkedHashMap<>();
        for (Statement.Assignment a : update.assignments()) {
            ColumnDef column = table.column(a.column().name()).orElseThrow(() -> Refusals.unknownColumn(
                    a.column().name(), table.name(), a.column().pos()));
            if (column.isKey()) {
                throw VersoException.at(ErrorCode.INVALID_ASSIGNMENT, "key column '" + column.name()
                        + "' cannot be updated: write the new key with UPSERT and DELETE the old one",
                        a.column().pos());
            }
            if (assigned.put(column.name(), assignedValue(table, column, a.value())) != null) {
                throw Refusals.assignedTwice(column.name(), a.column().pos());
            }
        }
        List<GroupDef> groups = touchedGroups(table, assigned.keySet(), null);
        for (GroupDef group : groups) {
            for (String ordering : group.orderingColumns()) {
                if (!assigned.containsKey(ordering)) {
                    throw VersoException.at(ErrorCode.MISSING_ORDERING_VALUE, "UPDATE must assign ordering column '"
                            + ordering + "' of the group it writes" + (group.id() == 0 ? "" : " (" + group.name() + ")"),
                            update.pos());
                }
            }
        }
        List<ColumnDef> columns = new ArrayList<>(table.keyColumns());
        groups.forEach(g -> columns.addAll(table.columnsOf(g)));
        List<Expr> items = columns.stream().map(c -> assigned.containsKey(c.name()) ? assigned.get(c.name())
                : column(update.table(), c)).toList();
        BoundSelect matched = ReadAnalyzer.matched(update.table(), items, update.where(), "UPDATE ... SET", lookup,
                asOf, parameterCount);
        return new BoundChange.Update(table, groups, columns, assigned, matched, update.pos());
    }

    /** {@code target.column}, a reference to a column of the target's current rows, at the target's position. */
    private static Expr column(Ident target, ColumnDef column) {
        return new Expr.ColumnRef(target, new Ident(column.name(), target.pos()), target.pos());
    }

    /**
     * A DELETE checked against its table: the tombstones' ordering values, the keys it names, if any, and
     * the read of the keys its WHERE matches, bound by the read analyzer over {@code lookup}.
     */
    public static BoundChange.Delete delete(Statement.Delete delete, TableDef table, TableLookup lookup,
                                            AsOfResolver asOf, List<Object> params) {
        Map<String, Object> at = new LinkedHashMap<>();
        Map<String, Pos> atPositions = new LinkedHashMap<>();
        for (Statement.Assignment a : delete.at()) {
            ColumnDef column = table.column(a.column().name()).orElseThrow(() -> Refusals.unknownColumn(
                    a.column().name(), table.name(), a.column().pos()));
            if (!table.isOrderingColumn(column)) {
                throw VersoException.at(ErrorCode.INVALID_AT_CLAUSE, "AT takes the ordering columns of "
                        + table.name() + "; '" + column.name() + "' is not one", a.column().pos());
            }
            if (at.put(column.name(), Values.valueOf(a.value(), params)) != null) {
                throw VersoException.at(ErrorCode.DUPLICATE_NAME, "column '" + column.name()
                        + "' is given twice in AT", a.column().pos());
            }
            atPositions.put(column.name(), a.value().pos());
        }
        for (GroupDef group : table.versionedGroups()) {
            for (String ordering : group.orderingColumns()) {
                if (!at.containsKey(ordering)) {
                    throw VersoException.at(ErrorCode.MISSING_ORDERING_VALUE, delete.at().isEmpty()
                            ? "DELETE from " + table.name() + " needs AT (...) with the ordering values of its "
                            + "tombstones, starting with '" + ordering + "'"
                            : "AT is missing ordering column '" + ordering + "'", delete.pos());
                }
            }
        }
        BoundSelect matched = ReadAnalyzer.matched(delete.table(), table.keyColumns().stream()
                .map(k -> column(delete.table(), k)).toList(), delete.where(), "DELETE", lookup, asOf, params.size());
        List<Map<String, Object>> keys = KeyPredicate.explicitKeys(delete.where(), table.keyColumns(), params);
        return new BoundChange.Delete(table, at, atPositions, keys, matched, delete.pos());
    }

    /** The rows an UPDATE read back (text per column) or a DELETE's keys, as rows to write. */
    public static List<RowInput> tombstones(BoundChange.Delete delete, List<Map<String, Object>> keys) {
        List<RowInput> rows = new ArrayList<>();
        for (Map<String, Object> key : keys) {
            Map<String, Object> values = new LinkedHashMap<>(key);
            values.putAll(delete.at());
            rows.add(new RowInput(values, delete.atPositions(), "DELETE"));
        }
        return rows;
    }

    /**
     * The tombstones of a delete that names its keys, as rows: every key column, and the ordering
     * columns of every group that holds versions, each given once.
     */
    public static List<RowInput> tombstones(Statement.DeleteKeys delete, TableDef table, List<Object> params) {
        List<String> ordering = table.versionedGroups().stream().flatMap(g -> g.orderingColumns().stream()).toList();
        List<RowInput> rows = new ArrayList<>();
        for (int i = 0; i < delete.keys().size(); i++) {
            Statement.Tombstone tombstone = delete.keys().get(i);
            Map<String, Object> values = new LinkedHashMap<>();
            Map<String, Pos> positions = new LinkedHashMap<>();
            for (Statement.Assignment a : tombstone.values()) {
                ColumnDef column = table.column(a.column().name()).orElseThrow(() -> Refusals.unknownColumn(
                        a.column().name(), table.name(), a.column().pos()));
                if (!column.isKey() && !ordering.contains(column.name())) {
                    throw Refusals.notKeyOrOrdering(table.name(), column.name(), a.column().pos());
                }
                if (values.put(column.name(), Values.valueOf(a.value(), params)) != null) {
                    throw VersoException.at(ErrorCode.DUPLICATE_NAME, "column '" + column.name() + "' is given twice",
                            a.column().pos());
                }
                positions.put(column.name(), a.value().pos());
            }
            String where = "the tombstone of key " + i;
            for (ColumnDef key : table.keyColumns()) {
                if (values.get(key.name()) == null) {
                    throw Refusals.missingKeyValue(where, key.name(), tombstone.pos());
                }
            }
            for (String column : ordering) {
                if (values.get(column) == null) {
                    throw Refusals.missingOrderingValue(where, column, tombstone.pos());
                }
            }
            rows.add(new RowInput(values, positions, where));
        }
        return rows;
    }

    /** The columns an UPSERT or INSERT writes, in order: those it lists, else every column of the table. */
    public static List<Ident> namedColumns(Statement.InsertRows statement, TableDef table) {
        List<Ident> named = statement.columns().isEmpty()
                ? table.columns().stream().map(c -> new Ident(c.name(), statement.pos())).toList()
                : statement.columns();
        Set<String> seen = new HashSet<>();
        for (Ident column : named) {
            if (table.column(column.name()).isEmpty()) {
                throw Refusals.unknownColumn(column.name(), table.name(), column.pos());
            }
            if (!seen.add(column.name())) {
                throw VersoException.at(ErrorCode.DUPLICATE_NAME, "column '" + column.name() + "' is named twice",
                        column.pos());
            }
        }
        return named;
    }

    /**
     * The groups a write touches: the named group, or each group one of {@code columns} belongs to
     * (the default group when only key columns are given).
     */
    public static List<GroupDef> touchedGroups(TableDef table, Set<String> columns, Ident group) {
        if (group != null) {
            GroupDef g = table.versionedGroup(group.name()).orElseThrow(() -> Refusals.unknownGroup(table.name(),
                    group.name(), group.pos()));
            for (String name : columns) {
                ColumnDef column = table.column(name).orElseThrow();
                if (!column.isKey() && column.groupId() != g.id()) {
                    throw Refusals.columnNotInGroup(name, g.name(), table.group(column.groupId()).name(), group.pos());
                }
            }
            return List.of(g);
        }
        List<GroupDef> touched = table.groups().stream()
                .filter(g -> columns.stream().anyMatch(n -> table.column(n).orElseThrow().groupId() == g.id()))
                .toList();
        if (!touched.isEmpty()) {
            return touched;
        }
        // Only key columns given: the default group, or, in a table that has none, every group.
        List<GroupDef> versioned = table.versionedGroups();
        return versioned.contains(table.defaultGroup()) ? List.of(table.defaultGroup()) : versioned;
    }

    /**
     * One batch per touched group of a keyed table, or the single batch of an APPEND table; rows
     * get positions {@code firstPosition}, {@code firstPosition + 1}, ...
     */
    public static List<GroupBatch> batches(TableDef table, List<RowInput> rows, List<GroupDef> groups,
                                           boolean tombstone, int firstPosition, Pos statementPos) {
        Set<String> given = rows.isEmpty() ? Set.of() : rows.get(0).values().keySet();
        return batches(table, given, rows.size(), groups, tombstone, firstPosition, statementPos,
                columns -> texts(table, columns, rows, tombstone));
    }

    /** {@link #batches(TableDef, List, List, boolean, int, Pos)} of the rows of VALUES (never tombstones). */
    public static List<GroupBatch> batches(TableDef table, ValuesRows rows, List<GroupDef> groups, int firstPosition,
                                           Pos statementPos) {
        return batches(table, rows.given(), rows.size(), groups, false, firstPosition, statementPos,
                columns -> texts(table, columns, rows));
    }

    private static List<GroupBatch> batches(TableDef table, Set<String> given, int size, List<GroupDef> groups,
                                            boolean tombstone, int firstPosition, Pos statementPos,
                                            java.util.function.Function<List<ColumnDef>, String[][]> texts) {
        Integer[] positions = new Integer[size];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = firstPosition + i;
        }
        if (table.mode() == TableMode.APPEND) {
            List<ColumnDef> columns = table.columns();
            return List.of(new GroupBatch(table, table.defaultGroup(), columns, texts.apply(columns), positions, false));
        }
        List<ColumnDef> keys = table.keyColumns();
        for (ColumnDef key : keys) {
            if (!given.contains(key.name())) {
                throw VersoException.at(ErrorCode.MISSING_KEY_VALUE, "every write supplies the key: column '"
                        + key.name() + "' of " + table.name() + " is missing", statementPos);
            }
        }
        List<GroupBatch> batches = new ArrayList<>();
        for (GroupDef group : groups) {
            for (String ordering : group.orderingColumns()) {
                if (!given.contains(ordering)) {
                    throw VersoException.at(ErrorCode.MISSING_ORDERING_VALUE, "ordering column '" + ordering
                            + "' of " + describe(table, group) + " is required in every write", statementPos);
                }
            }
            List<ColumnDef> columns = new ArrayList<>(keys);
            columns.addAll(table.columnsOf(group));
            batches.add(new GroupBatch(table, group, columns, texts.apply(columns), positions, tombstone));
        }
        return batches;
    }

    private static String describe(TableDef table, GroupDef group) {
        return group.id() == 0 ? "table " + table.name() : "attribute group " + group.name() + " of " + table.name();
    }

    /** Column arrays of text; omitted columns take their DEFAULT (not for tombstones) or NULL. */
    private static String[][] texts(TableDef table, List<ColumnDef> columns, List<RowInput> rows, boolean tombstone) {
        String[][] values = new String[columns.size()][rows.size()];
        for (int c = 0; c < columns.size(); c++) {
            ColumnDef column = columns.get(c);
            boolean ordering = table.isOrderingColumn(column);
            String name = column.name();
            for (int r = 0; r < rows.size(); r++) {
                RowInput row = rows.get(r);
                // One lookup for a value given (nearly every one); containsKey only to tell NULL from absent.
                Object value = row.values().get(name);
                boolean given = value != null || row.values().containsKey(name);
                values[c][r] = text(column, ordering, tombstone, given, value, () -> row.positions().get(name), row::where);
            }
        }
        return values;
    }

    /** {@link #texts(TableDef, List, List, boolean)} of the rows of VALUES. */
    private static String[][] texts(TableDef table, List<ColumnDef> columns, ValuesRows rows) {
        String[][] values = new String[columns.size()][rows.size()];
        for (int c = 0; c < columns.size(); c++) {
            ColumnDef column = columns.get(c);
            boolean ordering = table.isOrderingColumn(column);
            int at = rows.named().stream().map(Ident::name).toList().indexOf(column.name());
            for (int r = 0; r < rows.size(); r++) {
                int row = r;
                values[c][r] = at < 0 ? text(column, ordering, false, false, null, () -> null, () -> rows.where(row))
                        : text(column, ordering, false, true, rows.values()[at][r], () -> rows.pos(at, row),
                        () -> rows.where(row));
            }
        }
        return values;
    }

    /**
     * One value's text for its column: a value given is checked and converted, one not given takes the
     * column's DEFAULT (not for tombstones); NULL is refused where the column needs a value.
     */
    private static String text(ColumnDef column, boolean ordering, boolean tombstone, boolean given, Object value,
                               Supplier<Pos> at, Supplier<String> where) {
        String text = given ? Values.toTextInRow(column, value, at, where) : tombstone ? null : column.defaultValue();
        if (text == null) {
            Pos pos = at.get();
            if (column.isKey()) {
                throw null_(ErrorCode.MISSING_KEY_VALUE, "key column '" + column.name() + "' is NULL in "
                        + where.get(), pos, column);
            }
            if (ordering) {
                throw null_(ErrorCode.MISSING_ORDERING_VALUE, "ordering column '" + column.name()
                        + "' is NULL in " + where.get() + "; every write supplies it", pos, column);
            }
            if (column.notNull() && !tombstone) {
                throw Refusals.notNull(column.name(), given, where.get(), refusedAt(pos, column));
            }
        }
        return text;
    }

    private static VersoException null_(ErrorCode code, String message, Pos pos, ColumnDef column) {
        return VersoException.at(code, message, refusedAt(pos, column));
    }

    /** Where a value not given (or given without a position) is refused: at its column's name. */
    private static Located refusedAt(Pos pos, ColumnDef column) {
        return pos != null ? pos : new Origin.Pointer(column.name());
    }
}
