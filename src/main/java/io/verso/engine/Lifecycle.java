package io.verso.engine;

import io.verso.analyze.DdlAnalyzer;
import io.verso.analyze.LifecycleAnalyzer;
import io.verso.catalog.Catalog;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.IndexDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.Views;
import io.verso.compile.LifecycleCompiler;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;

/**
 * The life of a table after CREATE: columns added, dropped and renamed, the table renamed,
 * indexes, history deleted or kept for a retention window, keys erased. {@link LifecycleAnalyzer}
 * checks each and says what changes, {@code LifecycleCompiler} writes its SQL; this class runs them
 * and keeps the catalog. Each is part of its request's commit, so a concurrent reader sees the
 * table before or after the change, never half.
 */
final class Lifecycle {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Catalog catalog;
    private final Views views;
    private final SqlRunner sql;

    Lifecycle(Catalog catalog, Views views, SqlRunner sql) {
        this.catalog = catalog;
        this.views = views;
        this.sql = sql;
    }

    /** ALTER TABLE ... VALID BY / REVISION BY: refused, naming what would keep the table's ordering. */
    StatementResult changeOrdering(Statement.ChangeOrdering change, RequestContext request) {
        throw LifecycleAnalyzer.changeOrdering(change, request.table(change.table()));
    }

    private StatementResult changed(String statement, TableDef table, RequestContext request, Long count) {
        request.catalogChanged();
        request.touch(table.name(), count == null ? 0 : count);
        return new StatementResult.Changed(statement, table.name(), true, count);
    }

    // ---- columns -------------------------------------------------------------------------------

    StatementResult addColumn(Statement.AddColumn add, RequestContext request) {
        LifecycleAnalyzer.AddedColumn added = LifecycleAnalyzer.addColumn(add, request.table(add.table()));
        ColumnDef column = added.column();
        // The DEFAULT as PostgreSQL quotes it: the one value LifecycleCompiler writes into DDL.
        String quotedDefault = column.defaultValue() == null ? null
                : sql.texts(LifecycleCompiler.quoteLiteral(column.defaultValue())).get(0)[0];
        TableDef altered = catalog.update(added.altered());
        LifecycleCompiler.addColumn(altered, column, quotedDefault).forEach(sql::update);
        return changed("ALTER TABLE", altered, request, null);
    }

    StatementResult dropColumn(Statement.DropColumn drop, RequestContext request) {
        TableDef table = request.table(drop.table());
        LifecycleAnalyzer.DroppedColumn dropped = LifecycleAnalyzer.dropColumn(drop, table);
        TableDef altered = catalog.update(dropped.altered());
        LifecycleCompiler.dropColumn(table, dropped.column()).forEach(sql::update);
        return changed("ALTER TABLE", altered, request, null);
    }

    StatementResult renameColumn(Statement.RenameColumn rename, RequestContext request) {
        // Storage names are stable ids, so history follows the rename with nothing to rewrite.
        TableDef renamed = LifecycleAnalyzer.renameColumn(rename, request.table(rename.table()));
        return changed("ALTER TABLE", catalog.update(renamed), request, null);
    }

    StatementResult renameTable(Statement.RenameTable rename, RequestContext request) {
        TableDef table = request.table(rename.table());
        boolean taken = catalog.find(rename.to().name()).isPresent();
        if (!taken) {
            DdlStatements.refuseViewName(views, rename.to());
        }
        TableDef renamed = catalog.update(LifecycleAnalyzer.renameTable(rename, table, taken));
        request.touch(table.name(), 0);
        return changed("ALTER TABLE", renamed, request, null);
    }

    // ---- indexes -------------------------------------------------------------------------------

    StatementResult createIndex(Statement.CreateIndex create, RequestContext request) {
        TableDef table = request.table(create.table());
        DdlAnalyzer.checkName(create.name(), "index");
        if (catalog.findByIndex(create.name().name()).isPresent()) {
            if (create.ifNotExists()) {
                return new StatementResult.Changed("CREATE INDEX", table.name(), false, null);
            }
            throw VersoException.at(ErrorCode.DUPLICATE_NAME, "index '" + create.name() + "' already exists",
                    create.name().pos());
        }
        LifecycleAnalyzer.NewIndex created = LifecycleAnalyzer.createIndex(create, table);
        TableDef altered = catalog.update(created.altered());
        LifecycleCompiler.createIndex(altered, created.index()).forEach(sql::update);
        return changed("CREATE INDEX", altered, request, null);
    }

    StatementResult dropIndex(Statement.DropIndex drop, RequestContext request) {
        // An index of a table the caller may not know of is unknown, as one that does not exist.
        Optional<TableDef> found = catalog.findByIndex(drop.name().name()).filter(request::visible);
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

    StatementResult deleteHistory(Statement.DeleteHistory delete, RequestContext request) {
        TableDef table = request.table(delete.table());
        LifecycleAnalyzer.deleteHistory(delete, table);
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

    StatementResult setRetention(Statement.SetRetention retention, RequestContext request) {
        TableDef table = request.table(retention.table());
        LifecycleAnalyzer.setRetention(retention, table);
        String interval = retention.interval();
        if (interval != null) {
            // Validated and normalised by PostgreSQL itself (a bind, then read back as text).
            interval = sql.texts(LifecycleCompiler.normaliseInterval(interval)).get(0)[0];
            LifecycleAnalyzer.checkRetentionInterval(retention, interval);
        }
        return changed("ALTER TABLE", catalog.update(table.withRetention(retention.commits(), interval)), request, null);
    }

    // ---- erasure -------------------------------------------------------------------------------

    StatementResult erase(Statement.Erase erase, RequestContext request) {
        TableDef table = request.table(erase.table());
        LifecycleAnalyzer.Erasure erasure = LifecycleAnalyzer.erase(erase, table, request.params());
        String[][] values = erasure.values();
        List<Map<String, String>> recorded = erasure.recorded();
        long removed = 0;
        for (var statement : LifecycleCompiler.erase(table, values)) {
            removed += sql.update(statement);
        }
        sql.update(LifecycleCompiler.recordErasure(request.commit(), table.name(), JSON.writeValueAsString(recorded),
                request.actor()));
        // Erased keys change answers AS OF earlier commits: a new catalog version tells replicas'
        // readers to wait for it (io.verso.replica).
        catalog.historyRewritten();
        request.catalogChanged();
        request.touch(table.name(), removed);
        return new StatementResult.Changed("ERASE", table.name(), true, removed);
    }
}
