package io.verso.surface;

import io.verso.analyze.Values;
import io.verso.catalog.Catalog;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.Ordering;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementResult;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.sql.ast.TypeSpec;
import io.verso.surface.Resources.ColumnDescription;
import io.verso.surface.Resources.GroupDescription;
import io.verso.surface.Resources.TableCreated;
import io.verso.surface.Resources.IndexDescription;
import io.verso.surface.Resources.TableDescription;
import io.verso.surface.Resources.TableDropped;
import io.verso.surface.Resources.TableList;
import io.verso.surface.Resources.TableSummary;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;

/** Tables: list, describe, create from a JSON definition (CREATE TABLE in JSON), drop. */
@Service
public class TableService {

    private static final Pattern TYPE = Pattern.compile(
            "\\s*([A-Za-z]+(?:\\s+[A-Za-z]+)*)\\s*(?:\\(\\s*(\\d{1,8})\\s*(?:,\\s*(\\d{1,8})\\s*)?\\))?\\s*");

    private final Statements statements;
    private final Catalog catalog;
    private final ReadGate gate;

    private static final Pos TABLE = Pos.pointer("table");

    private final io.verso.security.AccessControl access;

    TableService(Statements statements, Catalog catalog, ReadGate gate, io.verso.security.AccessControl access) {
        this.access = access;
        this.statements = statements;
        this.catalog = catalog;
        this.gate = gate;
    }

    public TableList list() {
        ExecutionResult result = statements.run(List.of(new Statement.ShowTables(Pos.pointer("/"))), List.of(), "/");
        StatementResult.Rows rows = (StatementResult.Rows) result.results().get(0);
        List<TableSummary> tables = rows.rows().stream()
                .map(r -> new TableSummary((String) r.get(0), (String) r.get(1), (String) r.get(2)))
                .toList();
        return new TableList(Long.toString(result.readCommit()), tables);
    }

    public TableDescription describe(String name) {
        long readCommit = gate.latest();
        TableDef table = table(catalog, name);
        try {
            access.check(io.verso.security.Caller.current(), table, io.verso.security.Privilege.SELECT, name, null);
        } catch (VersoException.UserError e) {
            throw VersoException.pointing(e.code(), e.getMessage(), "table");
        }
        return describe(table, readCommit);
    }

    /** The table of a path parameter, or UNKNOWN_TABLE (404) pointing at it. */
    static TableDef table(Catalog catalog, String name) {
        return catalog.findLatest(name).orElseThrow(() -> Refusals.unknownTable(name, Pos.pointer("table")));
    }

    static TableDescription describe(TableDef table, long readCommit) {
        List<ColumnDescription> columns = new ArrayList<>();
        for (ColumnDef c : table.columns()) {
            String group = !c.isKey() && table.mode().keyed() ? table.group(c.groupId()).name() : null;
            columns.add(new ColumnDescription(c.name(), c.type().display(), !c.notNull(), c.defaultValue(),
                    c.isKey() ? c.keyPosition() + 1 : null, group, Ordering.spelled(table, c)));
        }
        if (table.systemVersioned() && !table.period().implicit()) {
            // Declared period columns, as DESCRIBE lists them: after the others, never null, never written.
            columns.add(new ColumnDescription(table.period().start(), table.period().type().display(), false, null,
                    null, null, Ordering.ROW_START.spelling()));
            columns.add(new ColumnDescription(table.period().end(), table.period().type().display(), false, null,
                    null, null, Ordering.ROW_END.spelling()));
        }
        List<GroupDescription> groups = table.mode().keyed() ? table.versionedGroups().stream()
                .map(g -> new GroupDescription(g.name(), table.columnsOf(g).stream().map(ColumnDef::name).toList(),
                        g.validBy(), g.revisionBy()))
                .toList() : List.of();
        List<IndexDescription> indexes = table.indexes().stream()
                .map(i -> new IndexDescription(i.name(), i.columns().stream()
                        .map(p -> table.columnByPhysical(p).map(ColumnDef::name).orElse(p)).toList(), i.scope().name()))
                .toList();
        return new TableDescription(table.name(), table.mode().name(), Long.toString(table.createdCommit()),
                Long.toString(table.horizon()), Long.toString(readCommit),
                table.keyColumns().stream().map(ColumnDef::name).toList(), columns, groups, indexes);
    }

    public TableCreated create(String body) {
        JsonNode definition = RequestJson.object(body);
        String name = RequestJson.string(definition, "name", "/name", true);
        if (name.isEmpty()) {
            throw RequestJson.invalid("\"name\" must not be empty", "/name");
        }
        String mode = RequestJson.string(definition, "mode", "/mode", false);
        if (mode != null && !List.of("APPEND", "UPSERT", "VERSIONED", "SYSTEM").contains(mode)) {
            throw RequestJson.invalid("\"mode\" is one of APPEND, UPSERT, VERSIONED, SYSTEM", "/mode");
        }
        boolean ifNotExists = RequestJson.bool(definition, "ifNotExists", "/ifNotExists");
        List<JsonNode> columns = RequestJson.array(definition, "columns", "/columns", true);
        List<Statement.ColumnDefinition> definitions = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            String at = "/columns/" + i;
            JsonNode column = RequestJson.object(columns.get(i), at);
            String columnName = RequestJson.string(column, "name", at + "/name", true);
            if (columnName.isEmpty()) {
                throw RequestJson.invalid("\"name\" must not be empty", at + "/name");
            }
            String typeText = RequestJson.string(column, "type", at + "/type", true);
            ColumnType type = type(typeText, at + "/type");
            boolean notNull = RequestJson.bool(column, "notNull", at + "/notNull");
            JsonNode defaultValue = column.get("default");
            Expr.Literal literal = defaultValue == null || defaultValue.isNull() ? null
                    : literal(defaultValue, at + "/default");
            definitions.add(new Statement.ColumnDefinition(new Ident(columnName, Pos.pointer(at)),
                    typeSpec(type, Pos.pointer(at + "/type")), notNull, literal, Pos.pointer(at)));
        }
        List<Ident> primaryKey = names(RequestJson.names(definition, "primaryKey", "/primaryKey"), "/primaryKey");
        List<JsonNode> groups = RequestJson.array(definition, "groups", "/groups", false);
        List<Statement.GroupDefinition> groupDefinitions = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            String at = "/groups/" + i;
            JsonNode group = RequestJson.object(groups.get(i), at);
            String groupName = RequestJson.string(group, "name", at + "/name", true);
            if (groupName.isEmpty()) {
                throw RequestJson.invalid("\"name\" must not be empty", at + "/name");
            }
            groupDefinitions.add(new Statement.GroupDefinition(new Ident(groupName, Pos.pointer(at)),
                    names(RequestJson.names(group, "columns", at + "/columns"), at + "/columns"),
                    ordering(group, at), Pos.pointer(at)));
        }
        Pos modePos = Pos.pointer("/mode");
        Statement.Mode tableMode = mode == null || mode.equals("SYSTEM") ? null : Statement.Mode.valueOf(mode);
        Statement.SystemVersioning system = "SYSTEM".equals(mode) ? new Statement.SystemVersioning(null, null, modePos)
                : null;
        Statement create = new Statement.CreateTable(new Ident(name, Pos.pointer("/name")), ifNotExists, definitions,
                primaryKey, groupDefinitions, tableMode, ordering(definition, ""), List.of(), List.of(), system,
                modePos);
        ExecutionResult result = statements.run(List.of(create), List.of(), "/");
        TableDef created = table(catalog, name);
        return new TableCreated(Commits.text(result.commit()), describe(created, result.readCommit()));
    }

    public TableDropped drop(String name) {
        ExecutionResult result = statements.run(List.of(new Statement.DropTable(new Ident(name, TABLE), false, TABLE)),
                List.of(), "table");
        return new TableDropped(Commits.text(result.commit()), name);
    }

    private static Statement.Ordering ordering(JsonNode node, String at) {
        return new Statement.Ordering(names(RequestJson.names(node, "validBy", at + "/validBy"), at + "/validBy"),
                names(RequestJson.names(node, "revisionBy", at + "/revisionBy"), at + "/revisionBy"));
    }

    private static List<Ident> names(List<String> names, String pointer) {
        return names.stream().map(n -> new Ident(n, Pos.pointer(pointer))).toList();
    }

    /** The syntax tree's spelling of a type the catalog already checked. */
    private static TypeSpec typeSpec(ColumnType type, Pos pos) {
        return new TypeSpec(type.base() == ColumnType.Base.DOUBLE ? "double precision"
                : type.base().name().toLowerCase(Locale.ROOT), type.precision(), type.scale(), pos);
    }

    /**
     * A type from the definition, checked against the dialect's types and re-spelt from the
     * catalog's own enum, so the syntax tree holds the dialect's spelling, not the client's.
     */
    static ColumnType type(String text, String pointer) {
        Matcher m = TYPE.matcher(text);
        if (!m.matches()) {
            throw Refusals.unknownType(Commits.shorten(text), Pos.pointer(pointer));
        }
        String name = m.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        name = switch (name) {
            case "timestamp with time zone" -> "timestamptz";
            case "timestamp without time zone" -> "timestamp";
            default -> name;
        };
        try {
            return ColumnType.from(new TypeSpec(name, m.group(2) == null ? null : Integer.valueOf(m.group(2)),
                    m.group(3) == null ? null : Integer.valueOf(m.group(3)), null));
        } catch (VersoException.UserError e) {
            throw VersoException.pointing(e.code(), e.getMessage(), pointer);
        }
    }

    /** A DEFAULT as a literal of the syntax tree (DEFAULT takes no parameter); the analyzer checks it. */
    private static Expr.Literal literal(JsonNode value, String pointer) {
        Pos pos = Pos.pointer(pointer);
        if (value.isBoolean()) {
            return new Expr.Literal(Expr.LiteralKind.BOOLEAN, Boolean.toString(value.booleanValue()), pos);
        }
        if (value.isNumber()) {
            BigDecimal number = value.isIntegralNumber() ? new BigDecimal(value.bigIntegerValue()) : value.decimalValue();
            try {
                String text = Values.bounded(number).toPlainString();
                return new Expr.Literal(value.isIntegralNumber() ? Expr.LiteralKind.INTEGER : Expr.LiteralKind.DECIMAL,
                        text, pos);
            } catch (IllegalArgumentException e) {
                throw RequestJson.invalid("the default is out of range for any column type", pointer);
            }
        }
        if (value.isString()) {
            return new Expr.Literal(Expr.LiteralKind.STRING, value.asString(), pos);
        }
        if (value.isContainer()) {
            return new Expr.Literal(Expr.LiteralKind.STRING, RequestJson.JSON.writeValueAsString(value), pos);
        }
        throw RequestJson.invalid("a default is a JSON number, string, boolean, object or array", pointer);
    }
}
