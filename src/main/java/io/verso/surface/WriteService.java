package io.verso.surface;

import io.verso.catalog.Catalog;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.surface.Resources.KeyOutcome;
import io.verso.surface.Resources.WriteReceipt;
import java.util.ArrayList;
import java.util.HashMap;
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

    private static final String CURRENT = "CURRENT";
    private static final String LOST = "LOST";

    private final Statements statements;
    private final Catalog catalog;

    WriteService(Statements statements, Catalog catalog) {
        this.statements = statements;
        this.catalog = catalog;
    }

    public WriteReceipt write(String tableName, String body) {
        TableDef table = TableService.table(catalog, tableName);
        JsonNode request = RequestJson.object(body);
        List<JsonNode> rows = RequestJson.array(request, "rows", "/rows", true);
        String groupName = RequestJson.string(request, "group", "/group", false);
        boolean insertOnly = RequestJson.bool(request, "insertOnly", "/insertOnly");
        GroupDef group = null;
        if (groupName != null) {
            if (!table.mode().keyed()) {
                throw VersoException.pointing(ErrorCode.UNSUPPORTED_FOR_MODE, "table " + table.name()
                        + " is an APPEND table and has no attribute groups", "/group");
            }
            group = table.versionedGroup(groupName).orElseThrow(() -> VersoException.pointing(ErrorCode.UNKNOWN_GROUP,
                    "table " + table.name() + " has no attribute group '" + groupName + "'", "/group"));
        }
        boolean insert = !table.mode().keyed() || insertOnly;

        // Consecutive rows naming the same columns share a statement; row order (which breaks ties
        // between versions of one key in one request) is kept across statements. Every node carries
        // the pointer of the body field it came from, so the engine's errors name that field.
        // A statement's own position is its first row: a refusal of the whole statement names that row.
        Pos runPos = null;
        Ident tableIdent = new Ident(table.name(), Pos.pointer("table"));
        Ident groupIdent = group == null ? null : new Ident(group.name(), Pos.pointer("/group"));
        List<ColumnDef> keyColumns = table.keyColumns();
        List<Statement> built = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        List<String> runColumns = null;
        List<Ident> runIdents = null;
        List<List<Expr>> runRows = null;
        // Per column of the run, once: its definition and the pointer suffix of its field.
        ColumnDef[] runDefs = null;
        String[] runTokens = null;
        for (int i = 0; i < rows.size(); i++) {
            String at = "/rows/" + i;
            JsonNode row = RequestJson.object(rows.get(i), at);
            List<String> columns = new ArrayList<>(row.propertyNames());
            checkRow(table, keyColumns, group, row, columns, at);
            // Rows of one client nearly always name their columns in the same order: compare lists first.
            if (runColumns == null || !runColumns.equals(columns)
                    && !new LinkedHashSet<>(runColumns).equals(new LinkedHashSet<>(columns))) {
                if (runColumns != null) {
                    built.add(new Statement.InsertRows(!insert, tableIdent, runIdents, runRows, groupIdent, runPos));
                }
                runPos = Pos.pointer(at);
                runColumns = columns;
                runIdents = new ArrayList<>();
                runDefs = new ColumnDef[columns.size()];
                runTokens = new String[columns.size()];
                for (int c = 0; c < columns.size(); c++) {
                    runDefs[c] = table.column(columns.get(c)).orElseThrow();
                    runTokens[c] = "/" + RequestJson.token(columns.get(c));
                    runIdents.add(new Ident(columns.get(c), Pos.pointer(at + runTokens[c])));
                }
                runRows = new ArrayList<>();
            }
            List<Expr> values = new ArrayList<>(runColumns.size());
            for (int c = 0; c < runColumns.size(); c++) {
                String pointer = at + runTokens[c];
                values.add(new Expr.Parameter(params.size(), Pos.pointer(pointer)));
                params.add(JsonForms.valuesItem(runDefs[c], row.get(runColumns.get(c)), pointer));
            }
            runRows.add(values);
        }
        built.add(new Statement.InsertRows(!insert, tableIdent, runIdents, runRows, groupIdent, runPos));
        return receipt(table, statements.run(built, params, "/rows"));
    }

    /** Refuses, with a pointer to the field, what the engine would refuse only by statement position. */
    private static void checkRow(TableDef table, List<ColumnDef> keyColumns, GroupDef group, JsonNode row,
                                 List<String> columns, String at) {
        if (columns.isEmpty()) {
            throw RequestJson.invalid("a row names at least one column", at);
        }
        Set<Integer> touched = new LinkedHashSet<>();
        for (String name : columns) {
            // The field's pointer is built only to refuse it: this runs for every field of every row.
            ColumnDef column = table.column(name).orElseThrow(() -> VersoException.pointing(ErrorCode.UNKNOWN_COLUMN,
                    "unknown column '" + name + "' in " + table.name(), at + "/" + RequestJson.token(name)));
            if (!column.isKey() && table.mode().keyed()) {
                if (group != null && column.groupId() != group.id()) {
                    throw VersoException.pointing(ErrorCode.COLUMN_NOT_IN_GROUP, "column '" + name
                            + "' is not in attribute group " + group.name(), at + "/" + RequestJson.token(name));
                }
                touched.add(column.groupId());
            }
        }
        for (ColumnDef key : keyColumns) {
            JsonNode value = row.get(key.name());
            if (value == null || value.isNull()) {
                throw VersoException.pointing(ErrorCode.MISSING_KEY_VALUE, "row " + at.substring(6)
                        + " gives no value for key column '" + key.name() + "'", at + "/" + RequestJson.token(key.name()));
            }
        }
        if (group != null) {
            touched.add(group.id());
        }
        for (int groupId : touched) {
            GroupDef g = table.group(groupId);
            for (String ordering : g.orderingColumns()) {
                JsonNode value = row.get(ordering);
                if (value == null || value.isNull()) {
                    throw VersoException.pointing(ErrorCode.MISSING_ORDERING_VALUE, "row " + at.substring(6)
                            + " writes " + (g.id() == 0 ? "the default group" : "attribute group " + g.name())
                            + " and must give its ordering column '" + ordering + "'",
                            at + "/" + RequestJson.token(ordering));
                }
            }
        }
    }

    public WriteReceipt delete(String tableName, String body) {
        TableDef table = TableService.table(catalog, tableName);
        if (!table.mode().keyed()) {
            throw VersoException.pointing(ErrorCode.UNSUPPORTED_FOR_MODE, "table " + table.name()
                    + " is an APPEND table, which keeps every row as written: nothing can be deleted", "table");
        }
        JsonNode request = RequestJson.object(body);
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
                    throw VersoException.pointing(ErrorCode.MISSING_KEY_VALUE, "key " + i
                            + " gives no value for key column '" + column.name() + "'", pointer);
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
                    throw VersoException.pointing(ErrorCode.MISSING_ORDERING_VALUE, "the tombstone of key " + i
                            + " needs a value for ordering column '" + ordering + "' (in the key or in \"at\")",
                            pointer);
                }
            }
            tombstones.add(new Statement.Tombstone(values, Pos.pointer(at)));
        }
        Statement delete = new Statement.DeleteKeys(new Ident(table.name(), Pos.pointer("table")), tombstones,
                Pos.pointer("/keys"));
        ExecutionResult result = statements.run(List.of(delete), params, "/keys");
        StatementResult.Written written = (StatementResult.Written) result.results().get(0);
        List<KeyOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < written.rows(); i++) {
            outcomes.add(new KeyOutcome(i, key(table, written.keys().get(i)), written.rowCurrent()[i] ? CURRENT : LOST));
        }
        return new WriteReceipt(Commits.text(result.commit()), table.name(), keys.size(), written.versions(),
                written.current(), written.lost(), outcomes);
    }

    private static Statement.Assignment assignment(String column, Object value, String pointer, List<Object> params) {
        Statement.Assignment a = new Statement.Assignment(new Ident(column, Pos.pointer(pointer)),
                new Expr.Parameter(params.size(), Pos.pointer(pointer)));
        params.add(value);
        return a;
    }

    private static ColumnDef orderingColumn(TableDef table, String name, String pointer) {
        ColumnDef column = table.column(name).orElseThrow(() -> VersoException.pointing(ErrorCode.UNKNOWN_COLUMN,
                "unknown column '" + name + "' in " + table.name(), pointer));
        if (!table.isOrderingColumn(column)) {
            throw VersoException.pointing(ErrorCode.INVALID_AT_CLAUSE, "a delete takes the key and the ordering "
                    + "columns of " + table.name() + "; '" + name + "' is neither", pointer);
        }
        return column;
    }

    private static WriteReceipt receipt(TableDef table, ExecutionResult result) {
        List<KeyOutcome> outcomes = new ArrayList<>();
        List<ColumnDef> keyColumns = table.keyColumns();
        long rows = 0;
        long versions = 0;
        long current = 0;
        long lost = 0;
        for (StatementResult statement : result.results()) {
            StatementResult.Written written = (StatementResult.Written) statement;
            for (int r = 0; r < written.rows(); r++) {
                outcomes.add(new KeyOutcome(outcomes.size(), key(keyColumns, written.keys().get(r)),
                        written.rowCurrent()[r] ? CURRENT : LOST));
            }
            rows += written.rows();
            versions += written.versions();
            current += written.current();
            lost += written.lost();
        }
        return new WriteReceipt(Commits.text(result.commit()), table.name(), rows, versions, current, lost, outcomes);
    }

    static Map<String, Object> key(TableDef table, String[] texts) {
        return key(table.keyColumns(), texts);
    }

    private static Map<String, Object> key(List<ColumnDef> columns, String[] texts) {
        Map<String, Object> key = new LinkedHashMap<>();
        if (texts == null) {
            return key;
        }
        for (int k = 0; k < columns.size() && k < texts.length; k++) {
            key.put(columns.get(k).name(), JsonForms.fromKeyText(columns.get(k), texts[k]));
        }
        return key;
    }

    static boolean isAppend(TableDef table) {
        return table.mode() == TableMode.APPEND;
    }
}
