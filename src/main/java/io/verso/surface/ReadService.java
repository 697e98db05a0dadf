package io.verso.surface;

import io.verso.catalog.Catalog;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementEngine;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.surface.Resources.KeyHistory;
import io.verso.surface.Resources.RowChange;
import io.verso.surface.Resources.RowPage;
import io.verso.surface.Resources.RowResult;
import io.verso.surface.Resources.TableDiff;
import io.verso.surface.Resources.Version;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.stereotype.Service;

/**
 * Reads: one row by key, pages of rows, a key's history and the diff between two commits. Every
 * read reports the commit it shows; pages stay on the commit of the first page.
 */
@Service
public class ReadService {

    public static final int MAX_LIMIT = ReadBuilder.MAX_LIMIT;

    private static final Pos TABLE = Pos.pointer("table");
    private static final Pos AS_OF = Pos.pointer("asOfCommit");
    private static final Pos AS_OF_TIME = Pos.pointer("asOfTime");

    private final Statements statements;
    private final Catalog catalog;
    private final ReadGate gate;
    private final StatementEngine engine;
    /** The current-row read of each table, by its definition ({@link #rowRead}), and its read AS OF a commit. */
    private final ReadShapes<TableDef> currentRows = new ReadShapes<>();
    private final ReadShapes<TableDef> asOfRows = new ReadShapes<>();

    ReadService(Statements statements, Catalog catalog, ReadGate gate, StatementEngine engine) {
        this.statements = statements;
        this.catalog = catalog;
        this.gate = gate;
        this.engine = engine;
    }

    // ---- one row ---------------------------------------------------------------------------------

    public RowResult row(String tableName, List<String> key, String asOfText, String asOfTime, String atLeastText) {
        return rowRead(tableName, key, asOfText, asOfTime, atLeastText).row();
    }

    /**
     * A row with what says how long its answer holds, for HTTP caching (api.rest).
     *
     * @param fixed          the answer can never change: read AS OF a commit, or a time before the latest commit
     * @param catalogVersion the catalog version the answer was read under, null when not known
     * @param lastChanged    of a current read, the latest commit that changed the key's row (0 when it has none);
     *                       null when not known
     */
    public record RowRead(RowResult row, boolean fixed, Long catalogVersion, Long lastChanged) {
    }

    public RowRead rowRead(String tableName, List<String> key, String asOfText, String asOfTime,
                           String atLeastText) {
        Long asOf = asOf(asOfText, asOfTime);
        gate.awaitCommit(Commits.parse(atLeastText, "atLeastCommit"));
        TableDef table = keyedTable(tableName);
        ReadBuilder b = new ReadBuilder();
        Statement select = rowSelect(b, table, key, asOf, asOfTime);
        ExecutionResult result = statements.run(List.of(select), b.params(), "key");
        List<Map<String, Object>> rows = rows(result, 0);
        if (rows.isEmpty()) {
            throw VersoException.pointing(ErrorCode.UNKNOWN_KEY, "table " + table.name() + " has no row with key "
                    + key + (asOf == null && asOfTime == null ? "" : " at commit " + servedAt(result, asOf)), "key");
        }
        boolean fixed = result.results().get(0) instanceof StatementResult.Rows read && read.fixed();
        return new RowRead(new RowResult(table.name(), Long.toString(servedAt(result, asOf)), rows.get(0)), fixed,
                result.catalogVersion(), result.lastChanged());
    }

    /**
     * The state a read of one current row by key would be answered at ({@link StatementEngine#keyState}), without
     * reading the row, for a caller that has seen commit {@code seen} (-1 for none); null when it cannot be had so:
     * the read then answers, with its own errors.
     */
    public StatementEngine.KeyState rowState(String tableName, List<String> key, long seen) {
        try {
            TableDef table = keyedTable(tableName);
            ReadBuilder b = new ReadBuilder();
            Statement select = rowSelect(b, table, key, null, null);
            return select instanceof Statement.Select read ? engine.keyState(read, b.params(), seen) : null;
        } catch (VersoException e) {
            return null;
        }
    }

    /** The read of one row by key, its values parameters of {@code b}: the one statement of its shape. */
    private Statement rowSelect(ReadBuilder b, TableDef table, List<String> key, Long asOf, String asOfTime) {
        Expr where = whereKey(b, table, key);
        Statement select = ReadBuilder.select(List.of(), table.name(), ReadBuilder.Source.ROWS, TABLE, where,
                List.of(), null, null, b.asOf(asOf, asOfTime, AS_OF, AS_OF_TIME), TABLE);
        // The key's values, and the commit read AS OF if any, are all in b.params().
        return asOfTime != null ? select : (asOf == null ? currentRows : asOfRows).of(table, select);
    }

    // ---- pages of rows ---------------------------------------------------------------------------

    public RowPage list(String tableName, List<String> filters, List<String> order, Integer limitParam,
                        String cursorText, String asOfText, String asOfTime, String atLeastText) {
        return listRead(tableName, filters, order, limitParam, cursorText, asOfText, asOfTime, atLeastText).page();
    }

    /**
     * A page with what says whether it can change, for HTTP caching (api.rest): {@code fixed} when every row
     * of it was read at a fixed commit (AS OF, or a cursor's commit), under {@code catalogVersion}.
     */
    public record PageRead(RowPage page, boolean fixed, Long catalogVersion) {
    }

    public PageRead listRead(String tableName, List<String> filters, List<String> order, Integer limitParam,
                             String cursorText, String asOfText, String asOfTime, String atLeastText) {
        filters = filters == null ? List.of() : filters;
        order = order == null ? List.of() : order;
        int limit = ReadBuilder.limit(limitParam, ReadBuilder.DEFAULT_LIMIT, ReadBuilder.MAX_LIMIT,
                Pos.pointer("limit"));
        Long asOf = asOf(asOfText, asOfTime);
        gate.awaitCommit(Commits.parse(atLeastText, "atLeastCommit"));
        TableDef table = TableService.table(catalog, tableName);
        boolean pinned = table.mode() != TableMode.UPSERT;

        Cursor cursor = null;
        if (cursorText != null && !cursorText.isEmpty()) {
            cursor = Cursor.decode(cursorText, Pos.pointer("cursor"));
            if (!filters.isEmpty() && !filters.equals(cursor.filters())) {
                throw sameAsCursor("filter");
            }
            if (!order.isEmpty() && !order.equals(cursor.order())) {
                throw sameAsCursor("order");
            }
            if (asOf != null && !asOf.equals(cursor.commit())) {
                throw sameAsCursor("asOfCommit");
            }
            filters = cursor.filters();
            order = cursor.order();
            asOf = cursor.commit();
            // The cursor holds the commit its first page resolved asOfTime to.
            asOfTime = null;
        }

        List<ReadBuilder.Sort> sorts = ReadBuilder.withTieBreak(table, sorts(table, order));
        ReadBuilder b = new ReadBuilder();
        Expr where = filters.isEmpty() ? null : b.where(Filters.parse(table, filters));
        boolean keyset = table.mode().keyed();
        if (cursor != null && keyset) {
            if (cursor.after().size() != sorts.size()) {
                throw VersoException.pointing(ErrorCode.INVALID_PARAMETER,
                        "cursor does not fit table " + table.name() + " (was it altered?)", "cursor");
            }
            Pos at = Pos.pointer("cursor");
            where = ReadBuilder.and(where, b.after(sorts, cursor.after(), at), at);
        }
        long offset = cursor == null ? 0 : cursor.offset();
        // One row more than asked tells whether there is a next page.
        Statement select = ReadBuilder.select(List.of(), table.name(), ReadBuilder.Source.ROWS, TABLE, where,
                ReadBuilder.orderBy(sorts, TABLE), (long) limit + 1, !keyset && offset > 0 ? offset : null,
                b.asOf(asOf, asOfTime, AS_OF, AS_OF_TIME), TABLE);
        ExecutionResult result = statements.run(List.of(select), b.params(), "table");
        List<Map<String, Object>> rows = rows(result, 0);
        Long servedAt = pinned ? (Long) servedAt(result, asOf) : null;

        String next = null;
        if (rows.size() > limit) {
            rows = rows.subList(0, limit);
            Map<String, Object> last = rows.get(limit - 1);
            List<String> after = new ArrayList<>();
            if (keyset) {
                sorts.forEach(s -> after.add((String) JsonForms.rendered(last.get(s.column().name()))));
            }
            next = new Cursor(servedAt, filters, order, after, keyset ? 0 : offset + limit).encode();
        }
        boolean fixed = result.results().get(0) instanceof StatementResult.Rows read && read.fixed();
        return new PageRead(new RowPage(table.name(), Long.toString(pinned ? servedAt : result.readCommit()), pinned,
                new ArrayList<>(rows), next), fixed, result.catalogVersion());
    }

    /** The requested order, {@code column} or {@code column:asc|desc}; NULLs last ascending, first descending. */
    private static List<ReadBuilder.Sort> sorts(TableDef table, List<String> order) {
        List<ReadBuilder.Sort> sorts = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            String pointer = "order[" + i + "]";
            String item = order.get(i);
            int colon = item.lastIndexOf(':');
            String name = item;
            boolean descending = false;
            if (colon > 0 && (item.endsWith(":asc") || item.endsWith(":desc"))) {
                name = item.substring(0, colon);
                descending = item.endsWith(":desc");
            }
            String columnName = name;
            ColumnDef column = table.column(columnName).orElseThrow(() -> Refusals.unknownColumn(columnName,
                    table.name(), "order is column or column:desc", Pos.pointer(pointer)));
            if (sorts.stream().anyMatch(s -> s.column().name().equals(columnName))) {
                throw Refusals.orderedTwice(columnName, Pos.pointer(pointer));
            }
            sorts.add(new ReadBuilder.Sort(column, descending, null));
        }
        return sorts;
    }

    private static VersoException sameAsCursor(String parameter) {
        return VersoException.pointing(ErrorCode.INVALID_PARAMETER, parameter
                + " differs from the one the cursor was made with: pass the cursor alone", parameter);
    }

    // ---- a key's history -------------------------------------------------------------------------

    public KeyHistory history(String tableName, List<String> key, String groupName, String asOfText,
                              String asOfTime, String atLeastText) {
        Long asOf = asOf(asOfText, asOfTime);
        gate.awaitCommit(Commits.parse(atLeastText, "atLeastCommit"));
        TableDef table = keyedTable(tableName);
        GroupDef group = null;
        if (groupName != null && !groupName.isEmpty()) {
            group = table.versionedGroup(groupName).orElseThrow(() -> Refusals.unknownGroup(table.name(), groupName,
                    Pos.pointer("group")));
        }
        ReadBuilder b = new ReadBuilder();
        Expr where = whereKey(b, table, key);
        if (group != null) {
            Pos at = Pos.pointer("group");
            where = ReadBuilder.and(where, new Expr.Binary(Expr.BinaryOp.EQ, ReadBuilder.column("_group", at),
                    b.param(group.name(), at), at), at);
        }
        Statement select = ReadBuilder.select(List.of(), table.name(), ReadBuilder.Source.HISTORY, TABLE, where,
                ReadBuilder.orderByNames(ReadBuilder.HISTORY_ORDER, TABLE), null, null, b.asOf(asOf, asOfTime, AS_OF, AS_OF_TIME), TABLE);
        ExecutionResult result = statements.run(List.of(select), b.params(), "key");
        List<Version> versions = new ArrayList<>();
        for (Map<String, Object> row : rows(result, 0)) {
            GroupDef g = table.group((String) row.get("_group")).orElseThrow();
            Map<String, Object> ordering = new LinkedHashMap<>();
            g.orderingColumns().forEach(c -> ordering.put(c, row.get(c)));
            Map<String, Object> values = new LinkedHashMap<>();
            table.columnsOf(g).forEach(c -> values.put(c.name(), row.get(c.name())));
            Object from = row.get("_current_from");
            Object to = row.get("_current_to");
            boolean system = table.systemVersioned();
            versions.add(new Version(g.name(), text(row.get("_commit")), text(from), text(to),
                    from != null && to == null, Boolean.TRUE.equals(row.get("_deleted")), ordering, values,
                    system ? row.get(table.period().start()) : null, system ? row.get(table.period().end()) : null));
        }
        if (versions.isEmpty()) {
            throw VersoException.pointing(ErrorCode.UNKNOWN_KEY, "table " + table.name() + " has no version of key "
                    + key + (asOf == null && asOfTime == null ? "" : " at commit " + servedAt(result, asOf)), "key");
        }
        return new KeyHistory(table.name(), Long.toString(servedAt(result, asOf)), keyValues(table, key), versions);
    }

    // ---- diff ------------------------------------------------------------------------------------

    public TableDiff diff(String tableName, String fromText, String toText, List<String> key, String atLeastText) {
        Long from = Commits.parse(fromText, "from");
        if (from == null) {
            throw VersoException.pointing(ErrorCode.INVALID_PARAMETER, "from is required", "from");
        }
        Long to = Commits.parse(toText, "to");
        gate.awaitCommit(Commits.parse(atLeastText, "atLeastCommit"));
        TableDef table = TableService.table(catalog, tableName);
        if (to != null && from > to) {
            throw VersoException.pointing(ErrorCode.INVALID_PARAMETER, "from (" + from + ") is after to (" + to + ")",
                    "from");
        }
        boolean byKey = key != null && !key.isEmpty();
        if (byKey && !table.mode().keyed()) {
            throw VersoException.pointing(ErrorCode.UNSUPPORTED_FOR_MODE, "table " + table.name()
                    + " is an APPEND table and has no key", "key");
        }
        // Both states in one request, so one snapshot; 'to' absent means the snapshot's latest commit.
        ReadBuilder b = new ReadBuilder();
        List<Statement> both = new ArrayList<>();
        Long[] commits = {from, to};
        for (int s = 0; s < 2; s++) {
            Pos at = Pos.pointer(s == 0 ? "from" : "to");
            Expr where = byKey ? whereKey(b, table, key) : null;
            if (table.mode() == TableMode.VERSIONED) {
                // Of a VERSIONED table, only the keys with a new winner in (from, to] are read at both
                // commits: the rest are equal there, and a diff of a few keys no longer reads the table twice.
                where = ReadBuilder.and(where, b.changedAfter(table, from, to, at), at);
                both.add(ReadBuilder.selectAt(table.name(), TABLE, where, b.asOf(commits[s], at), TABLE));
                continue;
            }
            both.add(ReadBuilder.select(List.of(), table.name(), ReadBuilder.Source.ROWS, TABLE, where, List.of(),
                    null, null, b.asOf(commits[s], at), TABLE));
        }
        ExecutionResult result = statements.run(both, b.params(), "from");
        long toCommit = to == null ? result.readCommit() : to;
        if (from > toCommit) {
            throw VersoException.pointing(ErrorCode.INVALID_PARAMETER, "from (" + from
                    + ") is after the latest commit " + toCommit, "from");
        }
        List<Map<String, Object>> added = new ArrayList<>();
        List<Map<String, Object>> removed = new ArrayList<>();
        List<RowChange> changed = new ArrayList<>();
        StatementResult.Rows beforeRows = (StatementResult.Rows) result.results().get(0);
        StatementResult.Rows afterRows = (StatementResult.Rows) result.results().get(1);
        if (table.mode().keyed() && beforeRows.columns().equals(afterRows.columns())) {
            // Both states have the same columns: rows are compared as value lists, and only the rows that
            // differ become column-name maps (most of a table is usually the same at both commits). When a
            // column was added or dropped between the two commits the lists differ: then rows as maps, below.
            List<String> names = beforeRows.columns().stream().map(StatementResult.Column::name).toList();
            List<ColumnDef> keyColumns = table.keyColumns();
            int[] keyAt = new int[keyColumns.size()];
            for (int k = 0; k < keyAt.length; k++) {
                keyAt[k] = names.indexOf(keyColumns.get(k).name());
            }
            List<String> tableColumns = table.columns().stream().map(ColumnDef::name).toList();
            int[] tableColumnAt = tableColumns.stream().mapToInt(names::indexOf).toArray();
            Map<List<Object>, List<Object>> old = new LinkedHashMap<>();
            for (List<Object> values : beforeRows.rows()) {
                old.put(keyOf(keyAt, values), values);
            }
            for (List<Object> values : afterRows.rows()) {
                List<Object> was = old.remove(keyOf(keyAt, values));
                if (was == null) {
                    added.add(row(names, values));
                } else if (!was.equals(values)) {
                    List<String> columns = new ArrayList<>();
                    for (int c = 0; c < tableColumnAt.length; c++) {
                        int i = tableColumnAt[c];
                        if (i >= 0 && !Objects.equals(was.get(i), values.get(i))) {
                            columns.add(tableColumns.get(c));
                        }
                    }
                    Map<String, Object> k = new LinkedHashMap<>();
                    for (int j = 0; j < keyAt.length; j++) {
                        k.put(keyColumns.get(j).name(), keyAt[j] < 0 ? null : values.get(keyAt[j]));
                    }
                    changed.add(new RowChange(k, row(names, was), row(names, values), List.copyOf(columns)));
                }
            }
            old.values().forEach(values -> removed.add(row(names, values)));
        } else if (table.mode().keyed()) {
            List<Map<String, Object>> before = rows(result, 0);
            List<Map<String, Object>> after = rows(result, 1);
            Map<List<Object>, Map<String, Object>> old = new LinkedHashMap<>();
            before.forEach(r -> old.put(keyOf(table, r), r));
            for (Map<String, Object> row : after) {
                Map<String, Object> was = old.remove(keyOf(table, row));
                if (was == null) {
                    added.add(row);
                } else if (!was.equals(row)) {
                    List<String> columns = table.columns().stream().map(ColumnDef::name)
                            .filter(c -> !Objects.equals(was.get(c), row.get(c))).toList();
                    Map<String, Object> k = new LinkedHashMap<>();
                    table.keyColumns().forEach(c -> k.put(c.name(), row.get(c.name())));
                    changed.add(new RowChange(k, was, row, columns));
                }
            }
            removed.addAll(old.values());
        } else {
            List<Map<String, Object>> before = rows(result, 0);
            List<Map<String, Object>> after = rows(result, 1);
            // No key: rows are compared whole, as multisets.
            Map<Map<String, Object>, Integer> counts = new HashMap<>();
            before.forEach(r -> counts.merge(r, 1, Integer::sum));
            for (Map<String, Object> row : after) {
                if (counts.getOrDefault(row, 0) > 0) {
                    counts.merge(row, -1, Integer::sum);
                } else {
                    added.add(row);
                }
            }
            for (Map<String, Object> row : before) {
                if (counts.getOrDefault(row, 0) > 0) {
                    counts.merge(row, -1, Integer::sum);
                    removed.add(row);
                }
            }
        }
        return new TableDiff(table.name(), Long.toString(from), Long.toString(toCommit), added, removed, changed);
    }

    private static List<Object> keyOf(TableDef table, Map<String, Object> row) {
        return table.keyColumns().stream().map(c -> row.get(c.name())).toList();
    }

    private static List<Object> keyOf(int[] keyAt, List<Object> values) {
        Object[] key = new Object[keyAt.length];
        for (int k = 0; k < keyAt.length; k++) {
            key[k] = keyAt[k] < 0 ? null : values.get(keyAt[k]);
        }
        return Arrays.asList(key);
    }

    private static Map<String, Object> row(List<String> names, List<Object> values) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int c = 0; c < names.size(); c++) {
            row.put(names.get(c), values.get(c));
        }
        return row;
    }

    // ---- shared ----------------------------------------------------------------------------------

    /** A table whose rows have a key: UPSERT, VERSIONED, or a SYSTEM table with a primary key. */
    private TableDef keyedTable(String name) {
        TableDef table = TableService.table(catalog, name);
        if (!table.mode().keyed() && (table.mode() != TableMode.SYSTEM || table.keyColumns().isEmpty())) {
            throw VersoException.pointing(ErrorCode.UNSUPPORTED_FOR_MODE, "table " + table.name() + " is "
                    + (table.mode() == TableMode.SYSTEM ? "a system-versioned table without a primary key"
                    : "an APPEND table") + ": its rows have no key (list them with filters instead)", "key");
        }
        return table;
    }

    /** {@code k1 = ? AND k2 = ? ...} for the key values, each checked against its column's type. */
    private static Expr whereKey(ReadBuilder b, TableDef table, List<String> key) {
        List<ColumnDef> columns = checkKey(table, key);
        List<Pos> positions = new ArrayList<>();
        for (int k = 0; k < columns.size(); k++) {
            positions.add(Pos.pointer("key[" + k + "]"));
        }
        return b.keyEquals(table, key, positions);
    }

    private static List<ColumnDef> checkKey(TableDef table, List<String> key) {
        List<ColumnDef> columns = table.keyColumns();
        if (key == null || key.size() != columns.size()) {
            throw VersoException.pointing(ErrorCode.INVALID_PARAMETER, "key takes " + columns.size()
                    + " value(s), one per key column " + columns.stream().map(ColumnDef::name).toList() + ", not "
                    + (key == null ? 0 : key.size()), "key");
        }
        return columns;
    }

    /** The key values in their columns' JSON forms, by column name. */
    private static Map<String, Object> keyValues(TableDef table, List<String> key) {
        Map<String, Object> values = new LinkedHashMap<>();
        List<ColumnDef> columns = checkKey(table, key);
        for (int k = 0; k < columns.size(); k++) {
            values.put(columns.get(k).name(), JsonForms.fromKeyText(columns.get(k), key.get(k)));
        }
        return values;
    }

    /** asOfCommit parsed; asOfTime is the engine's to judge (AS OF TIMESTAMP), never both. */
    private static Long asOf(String asOfCommit, String asOfTime) {
        Long asOf = Commits.asOf(asOfCommit, "asOfCommit");
        ReadBuilder.oneAsOf(asOf, asOfTime, AS_OF_TIME);
        return asOf;
    }

    /** The client's commit, else the one the (first) statement read at: AS OF TIMESTAMP resolved, or the latest. */
    private static long servedAt(ExecutionResult result, Long asOf) {
        if (asOf != null) {
            return asOf;
        }
        return result.results().get(0) instanceof StatementResult.Rows rows
                // No commit: a time before the first one, whose state (no rows) this contract numbers 0.
                ? (rows.asOfCommit() != null ? rows.asOfCommit() : 0) : result.readCommit();
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }

    /** The rows of the index-th statement as column-name maps. */
    static List<Map<String, Object>> rows(ExecutionResult result, int index) {
        StatementResult.Rows rows = (StatementResult.Rows) result.results().get(index);
        List<Map<String, Object>> out = new ArrayList<>(rows.rows().size());
        for (List<Object> values : rows.rows()) {
            Map<String, Object> row = new LinkedHashMap<>();
            for (int c = 0; c < rows.columns().size(); c++) {
                row.put(rows.columns().get(c).name(), values.get(c));
            }
            out.add(row);
        }
        return out;
    }
}
