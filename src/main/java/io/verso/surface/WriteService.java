package io.verso.surface;

import io.verso.catalog.Catalog;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.surface.Resources.WriteReceipt;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;

/**
 * Row writes: a batch of JSON rows becomes UPSERT (or INSERT) statements, a list of keys one
 * delete that names its keys, built as syntax trees (never text) in one request and so one commit.
 */
@Service
public class WriteService {

    private final Statements statements;
    private final Catalog catalog;

    WriteService(Statements statements, Catalog catalog) {
        this.statements = statements;
        this.catalog = catalog;
    }

    public WriteReceipt write(String tableName, byte[] body) {
        TableDef table = TableService.table(catalog, tableName);
        RowsBody request = RowsBody.read(body, table);
        List<RowsBody.Row> rows = request.rows();
        String groupName = RequestJson.string(request.fields(), "group", "/group", false);
        boolean insertOnly = RequestJson.bool(request.fields(), "insertOnly", "/insertOnly");
        GroupDef group = null;
        if (groupName != null) {
            if (!table.mode().keyed()) {
                throw VersoException.pointing(ErrorCode.UNSUPPORTED_FOR_MODE, "table " + table.name()
                        + " is an APPEND table and has no attribute groups", "/group");
            }
            group = table.versionedGroup(groupName).orElseThrow(() -> Refusals.unknownGroup(table.name(), groupName,
                    Pos.pointer("/group")));
        }
        boolean insert = !table.mode().keyed() || insertOnly;

        // Consecutive rows naming the same columns share a statement; row order (which breaks ties
        // between versions of one key in one request) is kept across statements. Every value keeps the
        // pointer of the body field it came from, built only for a message, so the engine's errors name it.
        Ident tableIdent = new Ident(table.name(), Pos.pointer("table"));
        Ident groupIdent = group == null ? null : new Ident(group.name(), Pos.pointer("/group"));
        List<Statement> built = new ArrayList<>();
        RowChecks checks = null;
        Run run = null;
        for (int i = 0; i < rows.size(); i++) {
            RowsBody.Row row = rows.get(i);
            if (!row.isObject()) {
                throw RequestJson.notObject("/rows/" + i);
            }
            if (checks == null || !checks.named(row)) {
                checks = new RowChecks(table, group, row, i);
            }
            checks.given(row, i);
            if (run == null || !run.takes(row)) {
                if (run != null) {
                    built.add(run.statement(!insert, tableIdent, groupIdent));
                }
                // Nearly every request is one run: the first is sized for every row, later ones grow.
                run = new Run(row, i, run == null ? rows.size() : 16);
            }
            run.add(row, i);
        }
        built.add(run.statement(!insert, tableIdent, groupIdent));
        return receipt(table, statements.run(built, List.of(), "/rows"));
    }

    /**
     * What the engine would refuse only by statement position, refused with a pointer to the field, for
     * rows that name the same columns in the same order: the names are checked once, each row's values
     * for the key and ordering columns it must give.
     */
    private static final class RowChecks {
        private final String[] names;
        private final int size;
        /**
         * The columns a row must give a value for, the key columns then the ordering columns of each group
         * the rows write; each one's group (null for a key column) and field index in the rows (-1: absent).
         */
        private final List<String> required = new ArrayList<>();
        private final List<GroupDef> groups = new ArrayList<>();
        private final int[] at;

        RowChecks(TableDef table, GroupDef group, RowsBody.Row row, int index) {
            if (row.size == 0) {
                throw RequestJson.invalid("a row names at least one column", "/rows/" + index);
            }
            Set<Integer> touched = new LinkedHashSet<>();
            for (int f = 0; f < row.size; f++) {
                String name = row.names[f];
                // The field's pointer is built only to refuse it.
                ColumnDef column = row.columns[f];
                if (column == null) {
                    throw Refusals.unknownColumn(name, table.name(), Pos.pointer(field(index, name)));
                }
                if (!column.isKey() && table.mode().keyed()) {
                    if (group != null && column.groupId() != group.id()) {
                        throw Refusals.columnNotInGroup(name, group.name(), table.group(column.groupId()).name(),
                                Pos.pointer(field(index, name)));
                    }
                    touched.add(column.groupId());
                }
            }
            for (ColumnDef key : table.keyColumns()) {
                groups.add(null);
                required.add(key.name());
            }
            if (group != null) {
                touched.add(group.id());
            }
            for (int groupId : touched) {
                GroupDef g = table.group(groupId);
                for (String ordering : g.orderingColumns()) {
                    groups.add(g);
                    required.add(ordering);
                }
            }
            this.names = row.names;
            this.size = row.size;
            this.at = new int[required.size()];
            for (int k = 0; k < at.length; k++) {
                at[k] = row.indexOf(required.get(k));
            }
        }

        /** Whether {@code row} names the columns these checks were made for, in the same order. */
        boolean named(RowsBody.Row row) {
            return row.size == size && (row.names == names || Arrays.equals(row.names, 0, size, names, 0, size));
        }

        /** Row {@code index} gives a value for each key column, and each ordering column of a group it writes. */
        void given(RowsBody.Row row, int index) {
            for (int k = 0; k < at.length; k++) {
                if (at[k] < 0 || row.values[at[k]] == null || row.values[at[k]] instanceof JsonNode node && node.isNull()) {
                    GroupDef g = groups.get(k);
                    String column = required.get(k);
                    throw g == null
                            ? Refusals.missingKeyValue("row " + index, column, Pos.pointer(field(index, column)))
                            : VersoException.pointing(ErrorCode.MISSING_ORDERING_VALUE, "row " + index + " writes "
                                    + (g.id() == 0 ? "the default group" : "attribute group " + g.name())
                                    + " and must give its ordering column '" + column + "'", field(index, column));
                }
            }
        }
    }

    private static String field(int row, String column) {
        return "/rows/" + row + "/" + RequestJson.token(column);
    }

    /** Consecutive rows naming the same columns (in any order): one statement, its values in column arrays. */
    private static final class Run {
        private final String[] names;
        private final ColumnDef[] columns;
        private final String[] tokens;
        private final int first;
        private final Object[][] values;
        private int size;

        Run(RowsBody.Row row, int first, int capacity) {
            this.names = Arrays.copyOf(row.names, row.size);
            this.columns = Arrays.copyOf(row.columns, row.size);
            this.tokens = new String[names.length];
            for (int c = 0; c < names.length; c++) {
                tokens[c] = "/" + RequestJson.token(names[c]);
            }
            this.first = first;
            this.values = new Object[names.length][capacity];
        }

        boolean takes(RowsBody.Row row) {
            if (row.size != names.length) {
                return false;
            }
            for (String name : names) {
                if (row.indexOf(name) < 0) {
                    return false;
                }
            }
            return true;
        }

        /** Row {@code index}'s values, each in the form its column binds (INVALID_VALUE pointing at it if none). */
        void add(RowsBody.Row row, int index) {
            boolean inOrder = Arrays.equals(row.names, 0, row.size, names, 0, names.length);
            for (int c = 0; c < names.length; c++) {
                if (size == values[c].length) {
                    values[c] = Arrays.copyOf(values[c], size * 2);
                }
                Object value = row.values[inOrder ? c : row.indexOf(names[c])];
                values[c][size] = value instanceof JsonNode node
                        ? JsonForms.valuesItem(columns[c], node, "/rows/" + index + tokens[c]) : value;
            }
            size++;
        }

        Statement statement(boolean upsert, Ident table, Ident group) {
            List<Ident> idents = new ArrayList<>();
            for (int c = 0; c < names.length; c++) {
                idents.add(new Ident(names[c], Pos.pointer("/rows/" + first + tokens[c])));
                if (values[c].length > size) {
                    values[c] = Arrays.copyOf(values[c], size);
                }
            }
            Statement.ColumnValues given = new Statement.ColumnValues(values, size,
                    (column, row) -> Pos.pointer("/rows/" + (first + row) + tokens[column]));
            // A refusal of the whole statement names its first row.
            return new Statement.InsertRows(upsert, table, idents, given, group, Pos.pointer("/rows/" + first));
        }
    }

    public WriteReceipt delete(String tableName, byte[] body) {
        TableDef table = TableService.table(catalog, tableName);
        if (!table.mode().keyed()) {
            throw VersoException.pointing(ErrorCode.UNSUPPORTED_FOR_MODE, "table " + table.name()
                    + " is an APPEND table, which keeps every row as written: nothing can be deleted", "table");
        }
        JsonNode request = RequestJson.object(body == null ? null : new String(body, StandardCharsets.UTF_8));
        List<JsonNode> keys = RequestJson.array(request, "keys", "/keys", true);
        JsonNode atNode = request.get("at");
        Map<String, Object> defaults = new LinkedHashMap<>();
        if (atNode != null && !atNode.isNull()) {
            RequestJson.object(atNode, "/at");
            for (String name : atNode.propertyNames()) {
                String pointer = "/at/" + RequestJson.token(name);
                defaults.put(name, JsonForms.param(orderingColumn(table, name, pointer), atNode.get(name), pointer));
            }
        }
        List<ColumnDef> keyColumns = table.keyColumns();
        List<String> orderingColumns = table.versionedGroups().stream().flatMap(g -> g.orderingColumns().stream())
                .toList();

        // One statement that names its keys: each tombstone carries its key and ordering values, each
        // value the pointer of the field it came from.
        List<Statement.Tombstone> tombstones = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String at = "/keys/" + i;
            JsonNode key = RequestJson.object(keys.get(i), at);
            for (String name : key.propertyNames()) {
                if (table.column(name).filter(ColumnDef::isKey).isEmpty()) {
                    orderingColumn(table, name, at + "/" + RequestJson.token(name));
                }
            }
            List<Statement.Assignment> values = new ArrayList<>();
            for (ColumnDef column : keyColumns) {
                String pointer = at + "/" + RequestJson.token(column.name());
                JsonNode value = key.get(column.name());
                if (value == null || value.isNull()) {
                    throw Refusals.missingKeyValue("key " + i, column.name(), Pos.pointer(pointer));
                }
                values.add(assignment(column.name(), JsonForms.param(column, value, pointer), pointer, params));
            }
            for (String ordering : orderingColumns) {
                String pointer = at + "/" + RequestJson.token(ordering);
                JsonNode value = key.get(ordering);
                if (value != null && !value.isNull()) {
                    values.add(assignment(ordering, JsonForms.param(table.column(ordering).orElseThrow(), value,
                            pointer), pointer, params));
                } else if (defaults.get(ordering) != null) {
                    values.add(assignment(ordering, defaults.get(ordering), "/at/" + RequestJson.token(ordering),
                            params));
                } else {
                    throw Refusals.missingOrderingValue("the tombstone of key " + i, ordering,
                            "in the key or in \"at\"", Pos.pointer(pointer));
                }
            }
            tombstones.add(new Statement.Tombstone(values, Pos.pointer(at)));
        }
        Statement delete = new Statement.DeleteKeys(new Ident(table.name(), Pos.pointer("table")), tombstones,
                Pos.pointer("/keys"));
        ExecutionResult result = statements.run(List.of(delete), params, "/keys");
        StatementResult.Written written = (StatementResult.Written) result.results().get(0);
        return new WriteReceipt(Commits.text(result.commit()), table.name(), keys.size(), written.versions(),
                written.current(), written.lost(), new KeyOutcomes(table.keyColumns(), List.of(written)));
    }

    private static Statement.Assignment assignment(String column, Object value, String pointer, List<Object> params) {
        Statement.Assignment a = new Statement.Assignment(new Ident(column, Pos.pointer(pointer)),
                new Expr.Parameter(params.size(), Pos.pointer(pointer)));
        params.add(value);
        return a;
    }

    private static ColumnDef orderingColumn(TableDef table, String name, String pointer) {
        ColumnDef column = table.column(name).orElseThrow(() -> Refusals.unknownColumn(name, table.name(),
                Pos.pointer(pointer)));
        if (!table.isOrderingColumn(column)) {
            throw Refusals.notKeyOrOrdering(table.name(), name, Pos.pointer(pointer));
        }
        return column;
    }

    private static WriteReceipt receipt(TableDef table, ExecutionResult result) {
        List<StatementResult.Written> statements = new ArrayList<>();
        long rows = 0;
        long versions = 0;
        long current = 0;
        long lost = 0;
        for (StatementResult statement : result.results()) {
            StatementResult.Written written = (StatementResult.Written) statement;
            statements.add(written);
            rows += written.rows();
            versions += written.versions();
            current += written.current();
            lost += written.lost();
        }
        return new WriteReceipt(Commits.text(result.commit()), table.name(), rows, versions, current, lost,
                new KeyOutcomes(table.keyColumns(), statements));
    }

    static boolean isAppend(TableDef table) {
        return table.mode() == TableMode.APPEND;
    }
}
