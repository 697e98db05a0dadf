package io.verso.engine;

import io.verso.analyze.DdlAnalyzer;
import io.verso.catalog.Catalog;
import io.verso.analyze.KeyPredicate;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.ColumnType;
import io.verso.catalog.GroupDef;
import io.verso.catalog.IndexDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.analyze.CheckConstraints;
import io.verso.compile.LifecycleCompiler;
import io.verso.compile.SqlBuilder;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;
import io.verso.catalog.IndexScope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;

/**
 * The life of a table after CREATE: columns added, dropped and renamed, the table renamed,
 * indexes, history deleted or kept for a retention window, keys erased. Each is part of its
 * request's commit, so a concurrent reader sees the table before or after the change, never half.
 */
final class Lifecycle {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Catalog catalog;
    private final SqlRunner sql;

    Lifecycle(Catalog catalog, SqlRunner sql) {
        this.catalog = catalog;
        this.sql = sql;
    }

    StatementResult execute(Statement statement, RequestContext request) {
        if (statement instanceof Statement.AddColumn add) {
            return addColumn(add, request);
        }
        if (statement instanceof Statement.DropColumn drop) {
            return dropColumn(drop, request);
        }
        if (statement instanceof Statement.RenameColumn rename) {
            return renameColumn(rename, request);
        }
        if (statement instanceof Statement.RenameTable rename) {
            return renameTable(rename, request);
        }
        if (statement instanceof Statement.CreateIndex create) {
            return createIndex(create, request);
        }
        if (statement instanceof Statement.DropIndex drop) {
            return dropIndex(drop, request);
        }
        if (statement instanceof Statement.DeleteHistory delete) {
            return deleteHistory(delete, request);
        }
        if (statement instanceof Statement.SetRetention retention) {
            return setRetention(retention, request);
        }
        if (statement instanceof Statement.Erase erase) {
            return erase(erase, request);
        }
        Statement.ChangeOrdering change = (Statement.ChangeOrdering) statement;
        TableDef table = request.table(change.table());
        throw VersoException.at(ErrorCode.INVALID_ALTER, "the " + change.what() + " of " + table.name()
                + " cannot change: every retained version was ordered by them; create a new table instead",
                change.pos());
    }

    private StatementResult changed(String statement, TableDef table, RequestContext request, Long count) {
        request.catalogChanged();
        request.touch(table.name(), count == null ? 0 : count);
        return new StatementResult.Changed(statement, table.name(), true, count);
    }

    // ---- columns -------------------------------------------------------------------------------

    private StatementResult addColumn(Statement.AddColumn add, RequestContext request) {
        TableDef table = request.table(add.table());
        Statement.ColumnDefinition definition = add.column();
        DdlAnalyzer.checkName(definition.name(), "column");
        if (table.column(definition.name().name()).isPresent()) {
            throw VersoException.at(ErrorCode.DUPLICATE_NAME, "table " + table.name() + " already has a column '"
                    + definition.name() + "'", definition.name().pos());
        }
        int groupId = 0;
        if (add.group() != null) {
            if (table.mode() == TableMode.APPEND) {
                throw VersoException.at(ErrorCode.ORDERING_ON_APPEND_TABLE,
                        "an APPEND table has no attribute groups", add.group().pos());
            }
            groupId = table.group(add.group().name()).orElseThrow(() -> VersoException.at(ErrorCode.UNKNOWN_GROUP,
                    "table " + table.name() + " has no attribute group '" + add.group() + "'", add.group().pos())).id();
        }
        boolean hasDefault = definition.defaultValue() != null && definition.defaultValue().kind() != Expr.LiteralKind.NULL;
        if (definition.notNull() && !hasDefault) {
            throw VersoException.at(ErrorCode.INVALID_ALTER, "NOT NULL column '" + definition.name()
                    + "' needs a DEFAULT: every existing row and version takes it", definition.pos());
        }
        int next = table.columns().stream().mapToInt(c -> Integer.parseInt(c.physical().substring(1))).max().orElse(0) + 1;
        ColumnDef column = DdlAnalyzer.withDefault(new ColumnDef(definition.name().name(), "c" + next,
                ColumnType.from(definition.type()), definition.notNull(), null, -1, groupId), definition.defaultValue());
        String quotedDefault = column.defaultValue() == null ? null
                : sql.texts(new SqlBuilder().sql("SELECT quote_literal(CAST(").bind(column.defaultValue())
                        .sql(" AS text))").build()).get(0)[0];
        List<ColumnDef> columns = new ArrayList<>(table.columns());
        columns.add(column);
        TableDef altered = catalog.update(table.withColumns(columns, table.groups()));
        LifecycleCompiler.addColumn(altered, column, quotedDefault).forEach(sql::update);
        return changed("ALTER TABLE", altered, request, null);
    }

    private StatementResult dropColumn(Statement.DropColumn drop, RequestContext request) {
        TableDef table = request.table(drop.table());
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
        List<IndexDef> indexes = table.indexes().stream().filter(i -> !i.columns().contains(column.physical())).toList();
        // CHECK constraints that read the column go with it, as in PostgreSQL.
        TableDef altered = catalog.update(table.withColumns(columns, table.groups()).withIndexes(indexes)
                .withChecks(CheckConstraints.withoutColumn(table, column.name())));
        LifecycleCompiler.dropColumn(table, column).forEach(sql::update);
        return changed("ALTER TABLE", altered, request, null);
    }

    private StatementResult renameColumn(Statement.RenameColumn rename, RequestContext request) {
        TableDef table = request.table(rename.table());
        ColumnDef column = column(table, rename.from());
        String to = rename.to().name();
        DdlAnalyzer.checkName(rename.to(), "column");
        if (table.column(to).isPresent()) {
            throw VersoException.at(ErrorCode.DUPLICATE_NAME, "table " + table.name() + " already has a column '"
                    + to + "'", rename.to().pos());
        }
        List<ColumnDef> columns = table.columns().stream().map(c -> c == column ? c.renamed(to) : c).toList();
        List<GroupDef> groups = table.groups().stream()
                .map(g -> new GroupDef(g.id(), g.name(), rename(g.validBy(), column.name(), to),
                        rename(g.revisionBy(), column.name(), to)))
                .toList();
        // Storage names are stable ids, so history follows the rename with nothing to rewrite.
        return changed("ALTER TABLE", catalog.update(table.withColumns(columns, groups)
                .withChecks(CheckConstraints.renamed(table, rename.from(), to))), request, null);
    }

    private static List<String> rename(List<String> names, String from, String to) {
        return names.stream().map(n -> n.equals(from) ? to : n).toList();
    }

    private StatementResult renameTable(Statement.RenameTable rename, RequestContext request) {
        TableDef table = request.table(rename.table());
        DdlAnalyzer.checkName(rename.to(), "table");
        if (catalog.find(rename.to().name()).isPresent()) {
            throw VersoException.at(ErrorCode.TABLE_EXISTS, "table '" + rename.to() + "' already exists",
                    rename.to().pos());
        }
        TableDef renamed = catalog.update(table.withName(rename.to().name()));
        request.touch(table.name(), 0);
        return changed("ALTER TABLE", renamed, request, null);
    }

    private static ColumnDef column(TableDef table, Ident name) {
        return table.column(name.name()).orElseThrow(() -> VersoException.at(ErrorCode.UNKNOWN_COLUMN,
                "unknown column '" + name + "' in " + table.name(), name.pos()));
    }

    // ---- indexes -------------------------------------------------------------------------------

    private StatementResult createIndex(Statement.CreateIndex create, RequestContext request) {
        TableDef table = request.table(create.table());
        DdlAnalyzer.checkName(create.name(), "index");
        if (catalog.findByIndex(create.name().name()).isPresent()) {
            if (create.ifNotExists()) {
                return new StatementResult.Changed("CREATE INDEX", table.name(), false, null);
            }
            throw VersoException.at(ErrorCode.DUPLICATE_NAME, "index '" + create.name() + "' already exists",
                    create.name().pos());
        }
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
        int next = table.indexes().stream().mapToInt(i -> Integer.parseInt(i.physical().substring(1))).max().orElse(0) + 1;
        IndexDef index = new IndexDef(create.name().name(), "i" + next, physical, create.scope(), create.unique());
        List<IndexDef> indexes = new ArrayList<>(table.indexes());
        indexes.add(index);
        TableDef altered = catalog.update(table.withIndexes(indexes));
        LifecycleCompiler.createIndex(altered, index).forEach(sql::update);
        return changed("CREATE INDEX", altered, request, null);
    }

    private StatementResult dropIndex(Statement.DropIndex drop, RequestContext request) {
        Optional<TableDef> found = catalog.findByIndex(drop.name().name());
        if (found.isEmpty()) {
            if (drop.ifExists()) {
                return new StatementResult.Changed("DROP INDEX", null, false, null);
            }
            throw VersoException.at(ErrorCode.UNKNOWN_INDEX, "unknown index '" + drop.name() + "'", drop.name().pos());
        }
        TableDef table = found.get();
        request.authorize(table, drop.name());
        IndexDef index = table.indexes().stream().filter(i -> i.name().equals(drop.name().name())).findFirst().orElseThrow();
        TableDef altered = catalog.update(table.withIndexes(table.indexes().stream().filter(i -> i != index).toList()));
        LifecycleCompiler.dropIndex(table, index).forEach(sql::update);
        return changed("DROP INDEX", altered, request, null);
    }

    // ---- history -------------------------------------------------------------------------------

    private StatementResult deleteHistory(Statement.DeleteHistory delete, RequestContext request) {
        TableDef table = request.table(delete.table());
        if (table.mode() != TableMode.VERSIONED) {
            throw VersoException.at(table.mode() == TableMode.UPSERT ? ErrorCode.NO_HISTORY : ErrorCode.UNSUPPORTED_FOR_MODE,
                    "DELETE HISTORY needs a VERSIONED table; " + table.name() + " is " + table.mode()
                            + (table.mode() == TableMode.APPEND ? ": its rows are never superseded" : ""),
                    delete.pos());
        }
        long before = request.asOf().resolve(delete.before());
        return new StatementResult.Changed("DELETE HISTORY", table.name(), true, deleteHistory(table, before, request));
    }

    /** Deletes history before {@code before} and moves the table's horizon there; returns the count. */
    long deleteHistory(TableDef table, long before, RequestContext request) {
        long deleted = sql.update(LifecycleCompiler.deleteHistory(table, before));
        if (before > table.horizon()) {
            catalog.update(table.withHorizon(before));
        } else if (deleted > 0) {
            catalog.historyRewritten();
        }
        request.catalogChanged();
        request.touch(table.name(), deleted);
        return deleted;
    }

    private StatementResult setRetention(Statement.SetRetention retention, RequestContext request) {
        TableDef table = request.table(retention.table());
        if (table.mode() != TableMode.VERSIONED && (retention.commits() != null || retention.interval() != null)) {
            throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, "history retention needs a VERSIONED table; "
                    + table.name() + " is " + table.mode(), retention.pos());
        }
        String interval = retention.interval();
        if (interval != null) {
            // Validated and normalised by PostgreSQL itself (a bind, then read back as text).
            interval = sql.texts(new SqlBuilder().sql("SELECT CAST(CAST(").bind(interval)
                    .sql(" AS interval) AS text)").build()).get(0)[0];
            if (interval.startsWith("-") || interval.equals("00:00:00")) {
                throw VersoException.at(ErrorCode.INVALID_VALUE, "history retention must be a positive interval, not '"
                        + retention.interval() + "'", retention.pos());
            }
        }
        return changed("ALTER TABLE", catalog.update(table.withRetention(retention.commits(), interval)), request, null);
    }

    // ---- erasure -------------------------------------------------------------------------------

    private StatementResult erase(Statement.Erase erase, RequestContext request) {
        TableDef table = request.table(erase.table());
        if (!table.mode().keyed() && (table.mode() != TableMode.SYSTEM || table.keyColumns().isEmpty())) {
            throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, "ERASE removes keys; " + table.name()
                    + (table.mode() == TableMode.SYSTEM ? " is a system-versioned table without a primary key "
                    + "(DELETE the rows, then DELETE HISTORY removes their versions)" : " is an APPEND table without "
                    + "a key"), erase.pos());
        }
        List<ColumnDef> keys = table.keyColumns();
        List<Map<String, Object>> named = KeyPredicate.explicitKeys(erase.where(), keys, request.params());
        if (named == null) {
            throw VersoException.at(ErrorCode.INVALID_REQUEST, "ERASE names the keys it removes: its WHERE must fix "
                    + "every key column of " + table.name() + " with = or IN", erase.where().pos());
        }
        String[][] values = new String[keys.size()][named.size()];
        List<Map<String, String>> recorded = new ArrayList<>();
        for (int r = 0; r < named.size(); r++) {
            Map<String, String> key = new LinkedHashMap<>();
            for (int k = 0; k < keys.size(); k++) {
                values[k][r] = io.verso.analyze.Values.toText(keys.get(k), named.get(r).get(keys.get(k).name()),
                        erase.pos(), "ERASE");
                key.put(keys.get(k).name(), values[k][r]);
            }
            recorded.add(key);
        }
        long removed = 0;
        for (var statement : LifecycleCompiler.erase(table, values)) {
            removed += sql.update(statement);
        }
        sql.update(new SqlBuilder().sql("INSERT INTO verso.erasures (commit_seq, table_name, keys, actor) VALUES (")
                .bind(request.commit()).sql(", ").bind(table.name()).sql(", CAST(")
                .bind(JSON.writeValueAsString(recorded)).sql(" AS jsonb), ").bind(request.actor()).sql(")")
                .sql(" ON CONFLICT (commit_seq, table_name) DO UPDATE SET keys = verso.erasures.keys || EXCLUDED.keys")
                .build());
        // Erased keys change answers AS OF earlier commits: a new catalog version tells replicas'
        // readers to wait for it (io.verso.replica).
        catalog.historyRewritten();
        request.catalogChanged();
        request.touch(table.name(), removed);
        return new StatementResult.Changed("ERASE", table.name(), true, removed);
    }
}
