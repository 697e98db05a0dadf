package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement.ColumnDefinition;
import io.verso.sql.ast.Statement.CreateTable;
import io.verso.sql.ast.Statement.GroupDefinition;
import io.verso.sql.ast.Statement.Ordering;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks a CREATE TABLE against every rule of the dialect and builds the catalog definition. */
public final class DdlAnalyzer {

    private DdlAnalyzer() {
    }

    public static TableDef createTable(CreateTable create, long commit) {
        checkName(create.name(), "table");
        if (create.columns().isEmpty()) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "table " + create.name() + " has no columns",
                    create.pos());
        }
        Map<String, ColumnDefinition> columns = new LinkedHashMap<>();
        for (ColumnDefinition column : create.columns()) {
            checkName(column.name(), "column");
            if (columns.put(column.name().name(), column) != null) {
                throw Refusals.definedTwice("column", column.name().name(), column.name().pos());
            }
        }
        TableMode mode = create.mode() != null ? TableMode.valueOf(create.mode().name())
                : create.primaryKey().isEmpty() ? TableMode.APPEND : TableMode.UPSERT;
        Ordering tableOrdering = create.ordering();
        boolean hasOrdering = !tableOrdering.validBy().isEmpty() || !tableOrdering.revisionBy().isEmpty();
        if (mode == TableMode.APPEND) {
            if (hasOrdering || !create.groups().isEmpty()) {
                throw VersoException.at(ErrorCode.ORDERING_ON_APPEND_TABLE, "an APPEND table takes no VALID BY, "
                        + "REVISION BY or ATTRIBUTE GROUP: it keeps every row, so nothing is ordered",
                        hasOrdering ? concat(tableOrdering).get(0).pos() : create.groups().get(0).pos());
            }
            if (!create.primaryKey().isEmpty()) {
                throw VersoException.at(ErrorCode.INVALID_DEFINITION,
                        "an APPEND table has no primary key: use UPSERT or VERSIONED for keyed rows",
                        create.primaryKey().get(0).pos());
            }
        } else if (create.primaryKey().isEmpty()) {
            throw VersoException.at(ErrorCode.PRIMARY_KEY_REQUIRED,
                    "a " + mode + " table needs a PRIMARY KEY", create.pos());
        }

        Map<String, Integer> keyPosition = new HashMap<>();
        for (Ident key : create.primaryKey()) {
            requireColumn(columns, key, create.name());
            if (keyPosition.put(key.name(), keyPosition.size()) != null) {
                throw Refusals.inKeyTwice(key.name(), key.pos());
            }
        }

        List<GroupDef> groups = new ArrayList<>();
        Map<String, Integer> groupOf = new HashMap<>();
        if (mode.keyed()) {
            groups.add(null); // the default group, built below once its columns are known
            Set<String> groupNames = new HashSet<>();
            for (GroupDefinition group : create.groups()) {
                checkName(group.name(), "attribute group");
                if (group.name().name().equals(GroupDef.DEFAULT_NAME)) {
                    throw VersoException.at(ErrorCode.RESERVED_NAME,
                            "'default' names the table's default group and is reserved", group.name().pos());
                }
                if (!groupNames.add(group.name().name())) {
                    throw Refusals.definedTwice("attribute group", group.name().name(), group.name().pos());
                }
                int id = groups.size();
                for (Ident column : group.columns()) {
                    requireColumn(columns, column, create.name());
                    if (keyPosition.containsKey(column.name())) {
                        throw VersoException.at(ErrorCode.KEY_COLUMN_IN_GROUP, "key column '" + column
                                + "' belongs to no attribute group", column.pos());
                    }
                    Integer previous = groupOf.put(column.name(), id);
                    if (previous != null) {
                        throw VersoException.at(ErrorCode.COLUMN_IN_TWO_GROUPS, "column '" + column + "' is in "
                                + (previous == id ? "group " + group.name() + " twice" : "two attribute groups"),
                                column.pos());
                    }
                }
                checkOrdering(group.ordering(), columns, groupOf, id, "attribute group " + group.name());
                groups.add(new GroupDef(id, group.name().name(), names(group.ordering().validBy()),
                        names(group.ordering().revisionBy())));
            }
            for (Ident ordering : concat(tableOrdering)) {
                requireColumn(columns, ordering, create.name());
                if (keyPosition.containsKey(ordering.name())) {
                    throw VersoException.at(ErrorCode.INVALID_ORDERING_COLUMN, "key column '" + ordering
                            + "' cannot order versions of its own key", ordering.pos());
                }
            }
            checkOrdering(tableOrdering, columns, groupOf, 0, "the table's default group");
            groups.set(0, new GroupDef(0, GroupDef.DEFAULT_NAME, names(tableOrdering.validBy()),
                    names(tableOrdering.revisionBy())));
        } else {
            groups.add(new GroupDef(0, GroupDef.DEFAULT_NAME, List.of(), List.of()));
        }

        Set<String> orderingColumns = new HashSet<>();
        groups.forEach(g -> orderingColumns.addAll(g.orderingColumns()));
        List<ColumnDef> defs = new ArrayList<>();
        int physical = 1;
        for (ColumnDefinition column : create.columns()) {
            String name = column.name().name();
            ColumnType type = ColumnType.from(column.type());
            boolean key = keyPosition.containsKey(name);
            boolean notNull = column.notNull() || key || orderingColumns.contains(name);
            ColumnDef def = new ColumnDef(name, "c" + physical++, type, notNull, null,
                    key ? keyPosition.get(name) : -1, key ? -1 : groupOf.getOrDefault(name, 0));
            defs.add(withDefault(def, column.defaultValue()));
        }
        return new TableDef(0, create.name().name(), mode, defs, groups, 0, commit);
    }

    /** Validates a DEFAULT literal against the column's type and stores it as text. */
    public static ColumnDef withDefault(ColumnDef column, Expr.Literal literal) {
        if (literal == null) {
            return column;
        }
        if (literal.kind() == Expr.LiteralKind.NULL) {
            if (column.notNull()) {
                throw VersoException.at(ErrorCode.INVALID_DEFAULT, "column '" + column.name()
                        + "' is NOT NULL and cannot default to NULL", literal.pos());
            }
            return column;
        }
        String text;
        try {
            text = Values.toStoredText(column, Values.valueOf(literal, List.of()), literal.pos(), "its DEFAULT");
        } catch (VersoException.UserError e) {
            throw VersoException.at(ErrorCode.INVALID_DEFAULT, e.getMessage(), literal.pos());
        }
        return new ColumnDef(column.name(), column.physical(), column.type(), column.notNull(), text,
                column.keyPosition(), column.groupId());
    }

    private static void checkOrdering(Ordering ordering, Map<String, ColumnDefinition> columns,
                                      Map<String, Integer> groupOf, int groupId, String where) {
        Set<String> seen = new HashSet<>();
        for (Ident name : concat(ordering)) {
            ColumnDefinition column = columns.get(name.name());
            if (column == null) {
                throw Refusals.unknownColumn(name.name(), name.pos());
            }
            if (groupOf.getOrDefault(name.name(), 0) != groupId) {
                throw VersoException.at(ErrorCode.ORDERING_COLUMN_OUTSIDE_GROUP, "ordering column '" + name
                        + "' of " + where + " is not a column of that group", name.pos());
            }
            if (!ColumnType.from(column.type()).canOrder()) {
                throw VersoException.at(ErrorCode.INVALID_ORDERING_COLUMN, "ordering column '" + name + "' is "
                        + ColumnType.from(column.type()).display()
                        + "; VALID BY and REVISION BY take integer or timestamp columns", name.pos());
            }
            if (!seen.add(name.name())) {
                throw VersoException.at(ErrorCode.DUPLICATE_NAME, "ordering column '" + name + "' is named twice in "
                        + where, name.pos());
            }
        }
    }

    private static List<Ident> concat(Ordering ordering) {
        List<Ident> all = new ArrayList<>(ordering.validBy());
        all.addAll(ordering.revisionBy());
        return all;
    }

    private static List<String> names(List<Ident> idents) {
        return idents.stream().map(Ident::name).toList();
    }

    private static void requireColumn(Map<String, ColumnDefinition> columns, Ident name, Ident table) {
        if (!columns.containsKey(name.name())) {
            throw Refusals.unknownColumn(name.name(), table.name(), name.pos());
        }
    }

    /**
     * Names starting with an underscore are kept for history's pseudo-columns and storage; pg_ for
     * PostgreSQL's own. Neither can name a user table, column or group.
     */
    public static void checkName(Ident name, String what) {
        String n = name.name();
        if (n.startsWith("_") || n.startsWith("pg_")) {
            throw VersoException.at(ErrorCode.RESERVED_NAME, what + " name '" + n
                    + "' is reserved: names may not start with '_' or 'pg_'", name.pos());
        }
    }

    /** SHOW CREATE TABLE text, in the dialect. */
    public static String showCreate(TableDef table) {
        StringBuilder out = new StringBuilder("CREATE TABLE ").append(quoteIfNeeded(table.name())).append(" (\n");
        List<String> lines = new ArrayList<>();
        for (ColumnDef c : table.columns()) {
            StringBuilder line = new StringBuilder("    ").append(quoteIfNeeded(c.name())).append(' ')
                    .append(c.type().display());
            if (c.notNull() && !c.isKey() && !table.isOrderingColumn(c)) {
                line.append(" NOT NULL");
            }
            if (c.defaultValue() != null) {
                line.append(" DEFAULT ").append(defaultLiteral(c));
            }
            lines.add(line.toString());
        }
        if (table.systemVersioned() && !table.period().implicit()) {
            lines.add("    " + quoteIfNeeded(table.period().start()) + " TIMESTAMP(6) GENERATED ALWAYS AS ROW START");
            lines.add("    " + quoteIfNeeded(table.period().end()) + " TIMESTAMP(6) GENERATED ALWAYS AS ROW END");
        }
        if (!table.keyColumns().isEmpty()) {
            lines.add("    PRIMARY KEY (" + String.join(", ",
                    table.keyColumns().stream().map(c -> quoteIfNeeded(c.name())).toList()) + ")");
        }
        for (GroupDef g : table.groups()) {
            if (g.id() == 0) {
                continue;
            }
            lines.add("    ATTRIBUTE GROUP " + quoteIfNeeded(g.name()) + " (" + String.join(", ",
                    table.columnsOf(g).stream().map(c -> quoteIfNeeded(c.name())).toList()) + ")" + ordering(g));
        }
        for (var check : table.checks()) {
            lines.add("    CONSTRAINT " + quoteIfNeeded(check.name()) + " CHECK (" + check.expression() + ")");
        }
        if (table.systemVersioned() && !table.period().implicit()) {
            lines.add("    PERIOD FOR SYSTEM_TIME (" + quoteIfNeeded(table.period().start()) + ", "
                    + quoteIfNeeded(table.period().end()) + ")");
        }
        out.append(String.join(",\n", lines)).append("\n)");
        if (table.mode() == TableMode.SYSTEM) {
            // Implicit period columns are invisible, here too; a table whose versioning was dropped keeps SQL semantics.
            out.append(table.systemVersioned() ? " WITH SYSTEM VERSIONING" : "");
        } else {
            out.append(' ').append(table.mode().name());
        }
        if (table.mode().keyed()) {
            out.append(ordering(table.defaultGroup()));
        }
        out.append(';');
        for (var index : table.indexes()) {
            out.append(index.unique() ? "\nCREATE UNIQUE INDEX " : "\nCREATE INDEX ").append(quoteIfNeeded(index.name())).append(" ON ")
                    .append(quoteIfNeeded(table.name())).append(" (")
                    .append(String.join(", ", index.columns().stream()
                            .map(p -> quoteIfNeeded(table.columnByPhysical(p).map(ColumnDef::name).orElse(p))).toList()))
                    .append(") SCOPE ").append(index.scope().name()).append(';');
        }
        if (table.retentionCommits() != null || table.retentionInterval() != null) {
            out.append("\nALTER TABLE ").append(quoteIfNeeded(table.name())).append(" SET HISTORY RETENTION ")
                    .append(table.retentionCommits() != null ? table.retentionCommits() + " COMMITS"
                            : "'" + table.retentionInterval().replace("'", "''") + "'").append(';');
        }
        return out.toString();
    }

    private static String ordering(GroupDef g) {
        StringBuilder out = new StringBuilder();
        if (!g.validBy().isEmpty()) {
            out.append(" VALID BY (").append(String.join(", ", g.validBy().stream().map(DdlAnalyzer::quoteIfNeeded).toList())).append(')');
        }
        if (!g.revisionBy().isEmpty()) {
            out.append(" REVISION BY (").append(String.join(", ", g.revisionBy().stream().map(DdlAnalyzer::quoteIfNeeded).toList())).append(')');
        }
        return out.toString();
    }

    private static String defaultLiteral(ColumnDef c) {
        return switch (c.type().base()) {
            case SMALLINT, INTEGER, BIGINT, NUMERIC, REAL, DOUBLE -> c.defaultValue();
            case BOOLEAN -> c.defaultValue().toUpperCase(java.util.Locale.ROOT);
            default -> "'" + c.defaultValue().replace("'", "''") + "'";
        };
    }

    static String quoteIfNeeded(String name) {
        return name.matches("[a-z_][a-z0-9_]*") ? name : '"' + name.replace("\"", "\"\"") + '"';
    }
}
