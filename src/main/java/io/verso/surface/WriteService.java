package io.verso.surface;

import io.verso.analyze.Values;
import io.verso.catalog.Catalog;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
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
 * Row writes: a batch of JSON rows becomes UPSERT (or INSERT) statements, a list of keys becomes
 * DELETE statements with explicit keys, all in one request and so one commit.
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
            group = table.group(groupName).orElseThrow(() -> VersoException.pointing(ErrorCode.UNKNOWN_GROUP,
                    "table " + table.name() + " has no attribute group '" + groupName + "'", "/group"));
        }
        String verb = !table.mode().keyed() || insertOnly ? "INSERT" : "UPSERT";

        // Consecutive rows naming the same columns share a statement; row order (which breaks ties
        // between versions of one key in one request) is kept across statements.
        Script script = new Script();
        List<String> runColumns = null;
        for (int i = 0; i < rows.size(); i++) {
            String at = "/rows/" + i;
            JsonNode row = RequestJson.object(rows.get(i), at);
            List<String> columns = new ArrayList<>(row.propertyNames());
            checkRow(table, group, row, columns, at);
            if (runColumns == null || !new LinkedHashSet<>(runColumns).equals(new LinkedHashSet<>(columns))) {
                if (runColumns != null) {
                    endStatement(script, group);
                }
                runColumns = columns;
                script.mark("/rows").sql(verb).sql(" INTO ").mark("table").ident(table.name()).sql(" (");
                for (int c = 0; c < columns.size(); c++) {
                    script.sql(c == 0 ? "" : ", ").mark(at + "/" + RequestJson.token(columns.get(c)))
                            .ident(columns.get(c));
                }
                script.mark("/rows").sql(") VALUES");
            } else {
                script.sql(",");
            }
            script.newline().mark(at).sql("(");
            for (int c = 0; c < runColumns.size(); c++) {
                String column = runColumns.get(c);
                String pointer = at + "/" + RequestJson.token(column);
                ColumnDef def = table.column(column).orElseThrow();
                script.sql(c == 0 ? "" : ", ").mark(pointer).param(JsonForms.valuesItem(def, row.get(column), pointer));
            }
            script.mark(at).sql(")");
        }
        endStatement(script, group);
        ExecutionResult result = statements.run(script, "/rows");
        return receipt(table, result);
    }

    private static void endStatement(Script script, GroupDef group) {
        if (group != null) {
            script.newline().mark("/group").sql("ATTRIBUTE GROUP ").ident(group.name());
        }
        script.sql(";").newline();
    }

    /** Refuses, with a pointer to the field, what the engine would refuse only by statement position. */
    private static void checkRow(TableDef table, GroupDef group, JsonNode row, List<String> columns, String at) {
        if (columns.isEmpty()) {
            throw RequestJson.invalid("a row names at least one column", at);
        }
        Set<Integer> touched = new LinkedHashSet<>();
        for (String name : columns) {
            String pointer = at + "/" + RequestJson.token(name);
            ColumnDef column = table.column(name).orElseThrow(() -> VersoException.pointing(ErrorCode.UNKNOWN_COLUMN,
                    "unknown column '" + name + "' in " + table.name(), pointer));
            if (!column.isKey() && table.mode().keyed()) {
                if (group != null && column.groupId() != group.id()) {
                    throw VersoException.pointing(ErrorCode.COLUMN_NOT_IN_GROUP, "column '" + name
                            + "' is not in attribute group " + group.name(), pointer);
                }
                touched.add(column.groupId());
            }
        }
        for (ColumnDef key : table.keyColumns()) {
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
        List<String> orderingColumns = table.groups().stream().flatMap(g -> g.orderingColumns().stream()).toList();

        // Keys with the same tombstone ordering and the same leading key values share one DELETE,
        // whose WHERE names them explicitly (so tombstones are written even for keys with no live row).
        Map<List<String>, DeleteGroup> groups = new LinkedHashMap<>();
        List<String> requestKeys = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String at = "/keys/" + i;
            JsonNode key = RequestJson.object(keys.get(i), at);
            for (String name : key.propertyNames()) {
                if (table.column(name).filter(ColumnDef::isKey).isEmpty()) {
                    orderingColumn(table, name, at + "/" + RequestJson.token(name));
                }
            }
            List<Object> keyValues = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            for (ColumnDef column : keyColumns) {
                String pointer = at + "/" + RequestJson.token(column.name());
                JsonNode value = key.get(column.name());
                if (value == null || value.isNull()) {
                    throw VersoException.pointing(ErrorCode.MISSING_KEY_VALUE, "key " + i
                            + " gives no value for key column '" + column.name() + "'", pointer);
                }
                Object param = JsonForms.param(column, value, pointer);
                keyValues.add(param);
                texts.add(Values.toText(column, param, null, null));
            }
            requestKeys.add(String.join("\u0000", texts));
            List<Object> orderingValues = new ArrayList<>();
            List<String> groupKey = new ArrayList<>();
            for (String ordering : orderingColumns) {
                String pointer = at + "/" + RequestJson.token(ordering);
                JsonNode value = key.get(ordering);
                Object param;
                if (value != null && !value.isNull()) {
                    param = JsonForms.param(table.column(ordering).orElseThrow(), value, pointer);
                } else if (defaults.get(ordering) != null) {
                    param = defaults.get(ordering);
                } else {
                    throw VersoException.pointing(ErrorCode.MISSING_ORDERING_VALUE, "the tombstone of key " + i
                            + " needs a value for ordering column '" + ordering + "' (in the key or in \"at\")",
                            pointer);
                }
                orderingValues.add(param);
                groupKey.add(Values.toText(table.column(ordering).orElseThrow(), param, null, null));
            }
            groupKey.addAll(texts.subList(0, texts.size() - 1));
            groups.computeIfAbsent(groupKey, k -> new DeleteGroup(orderingValues, keyValues, new ArrayList<>(),
                    new ArrayList<>())).add(keyValues.get(keyValues.size() - 1), at);
        }

        Script script = new Script();
        for (DeleteGroup group : groups.values()) {
            script.mark("/keys").sql("DELETE FROM ").mark("table").ident(table.name()).sql(" WHERE ");
            for (int k = 0; k < keyColumns.size() - 1; k++) {
                script.mark(group.pointers().get(0) + "/" + RequestJson.token(keyColumns.get(k).name()))
                        .ident(keyColumns.get(k).name()).sql(" = ").param(group.prefix().get(k)).sql(" AND ");
            }
            String last = keyColumns.get(keyColumns.size() - 1).name();
            script.ident(last).sql(" IN (");
            for (int v = 0; v < group.lastValues().size(); v++) {
                script.sql(v == 0 ? "" : ", ").mark(group.pointers().get(v) + "/" + RequestJson.token(last))
                        .param(group.lastValues().get(v));
            }
            script.mark("/keys").sql(")");
            if (!orderingColumns.isEmpty()) {
                script.sql(" AT (");
                for (int o = 0; o < orderingColumns.size(); o++) {
                    script.sql(o == 0 ? "" : ", ").ident(orderingColumns.get(o)).sql(" = ")
                            .mark(group.pointers().get(0) + "/" + RequestJson.token(orderingColumns.get(o)))
                            .param(group.ordering().get(o));
                }
                script.sql(")");
            }
            script.mark("/keys").sql(";").newline();
        }
        ExecutionResult result = statements.run(script, "/keys");

        Map<String, Boolean> outcomeByKey = new HashMap<>();
        Map<String, String[]> textByKey = new HashMap<>();
        long versions = 0;
        long current = 0;
        for (StatementResult statement : result.results()) {
            StatementResult.Written written = (StatementResult.Written) statement;
            versions += written.versions();
            current += written.current();
            for (int r = 0; r < written.keys().size(); r++) {
                String text = String.join("\u0000", written.keys().get(r));
                outcomeByKey.put(text, written.rowCurrent()[r]);
                textByKey.put(text, written.keys().get(r));
            }
        }
        List<KeyOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < requestKeys.size(); i++) {
            String text = requestKeys.get(i);
            outcomes.add(new KeyOutcome(i, key(table, textByKey.get(text)),
                    Boolean.TRUE.equals(outcomeByKey.get(text)) ? CURRENT : LOST));
        }
        return new WriteReceipt(Commits.text(result.commit()), table.name(), keys.size(), versions, current,
                versions - current, outcomes);
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

    private record DeleteGroup(List<Object> ordering, List<Object> prefix, List<Object> lastValues,
                               List<String> pointers) {
        DeleteGroup add(Object lastValue, String pointer) {
            lastValues.add(lastValue);
            pointers.add(pointer);
            return this;
        }
    }

    private static WriteReceipt receipt(TableDef table, ExecutionResult result) {
        List<KeyOutcome> outcomes = new ArrayList<>();
        long rows = 0;
        long versions = 0;
        long current = 0;
        long lost = 0;
        for (StatementResult statement : result.results()) {
            StatementResult.Written written = (StatementResult.Written) statement;
            for (int r = 0; r < written.rows(); r++) {
                outcomes.add(new KeyOutcome(outcomes.size(), key(table, written.keys().get(r)),
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
        Map<String, Object> key = new LinkedHashMap<>();
        if (texts == null) {
            return key;
        }
        List<ColumnDef> columns = table.keyColumns();
        for (int k = 0; k < columns.size() && k < texts.length; k++) {
            key.put(columns.get(k).name(), JsonForms.fromKeyText(columns.get(k), texts[k]));
        }
        return key;
    }

    static boolean isAppend(TableDef table) {
        return table.mode() == TableMode.APPEND;
    }
}
