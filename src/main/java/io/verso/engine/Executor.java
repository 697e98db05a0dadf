package io.verso.engine;

import io.verso.catalog.Catalog;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;

/**
 * The one place where each kind of statement meets the part of the engine that carries it out: row writes
 * ({@link RowWrites}), tables and views ({@link DdlStatements}), what changes a table after it is made ({@link
 * Lifecycle}), system versioning ({@link SystemVersioning}), roles and grants ({@link AccessStatements}),
 * listings of the catalog ({@link CatalogListings}), and the steps the request carries out itself ({@link
 * Steps}). One per request. A new kind of statement does not compile until it has its method here.
 */
final class Executor implements Statement.Visitor<StatementResult> {

    /** The steps a request carries out itself, over its own state: reads, framing, derived tables. */
    interface Steps extends RowWrites.Context {
        StatementResult select(Statement.Select select);

        StatementResult explain(Statement.Explain explain);

        StatementResult transactionControl(Statement.TransactionControl control);

        StatementResult createDerived(Statement.CreateDerived create);

        StatementResult showDerived();

        /** ERASE of {@code table} is about to run: derived tables built from it are rebuilt, not followed. */
        void erasing(Ident table);
    }

    /** The parts of the engine every request shares. */
    record Parts(Catalog catalog, DdlStatements ddl, Lifecycle lifecycle, SystemVersioning system,
                 AccessStatements access) {
    }

    private final Parts parts;
    private final Steps request;
    private final RowWrites rows;

    Executor(Parts parts, Steps request, RowWrites rows) {
        this.parts = parts;
        this.request = request;
        this.rows = rows;
    }

    // ---- reads and listings --------------------------------------------------------------------

    @Override
    public StatementResult select(Statement.Select statement) {
        return request.select(statement);
    }

    @Override
    public StatementResult explain(Statement.Explain statement) {
        return request.explain(statement);
    }

    @Override
    public StatementResult showTables(Statement.ShowTables statement) {
        return CatalogListings.showTables(parts.catalog().all(), request::visible);
    }

    @Override
    public StatementResult describe(Statement.Describe statement) {
        return CatalogListings.describe(request.table(statement.table()));
    }

    @Override
    public StatementResult showCreateTable(Statement.ShowCreateTable statement) {
        return CatalogListings.showCreate(request.table(statement.table()));
    }

    @Override
    public StatementResult showDerived(Statement.ShowDerived statement) {
        return request.showDerived();
    }

    @Override
    public StatementResult transactionControl(Statement.TransactionControl statement) {
        return request.transactionControl(statement);
    }

    // ---- row writes ----------------------------------------------------------------------------

    @Override
    public StatementResult insertRows(Statement.InsertRows statement) {
        return rows.insertRows(statement);
    }

    @Override
    public StatementResult update(Statement.Update statement) {
        return rows.update(statement);
    }

    @Override
    public StatementResult delete(Statement.Delete statement) {
        return rows.delete(statement);
    }

    @Override
    public StatementResult deleteKeys(Statement.DeleteKeys statement) {
        return rows.deleteKeys(statement);
    }

    // ---- tables and views ----------------------------------------------------------------------

    @Override
    public StatementResult createTable(Statement.CreateTable statement) {
        return parts.ddl().createTable(statement, request);
    }

    @Override
    public StatementResult dropTable(Statement.DropTable statement) {
        return parts.ddl().dropTable(statement, request);
    }

    @Override
    public StatementResult createView(Statement.CreateView statement) {
        return parts.ddl().createView(statement, request);
    }

    @Override
    public StatementResult dropView(Statement.DropView statement) {
        return parts.ddl().dropView(statement, request);
    }

    @Override
    public StatementResult createDerived(Statement.CreateDerived statement) {
        return request.createDerived(statement);
    }

    // ---- what changes a table after it is made -------------------------------------------------

    @Override
    public StatementResult addColumn(Statement.AddColumn statement) {
        return parts.lifecycle().addColumn(statement, request);
    }

    @Override
    public StatementResult dropColumn(Statement.DropColumn statement) {
        return parts.lifecycle().dropColumn(statement, request);
    }

    @Override
    public StatementResult renameColumn(Statement.RenameColumn statement) {
        return parts.lifecycle().renameColumn(statement, request);
    }

    @Override
    public StatementResult renameTable(Statement.RenameTable statement) {
        return parts.lifecycle().renameTable(statement, request);
    }

    @Override
    public StatementResult setRetention(Statement.SetRetention statement) {
        return parts.lifecycle().setRetention(statement, request);
    }

    @Override
    public StatementResult changeOrdering(Statement.ChangeOrdering statement) {
        return parts.lifecycle().changeOrdering(statement, request);
    }

    @Override
    public StatementResult createIndex(Statement.CreateIndex statement) {
        return parts.lifecycle().createIndex(statement, request);
    }

    @Override
    public StatementResult dropIndex(Statement.DropIndex statement) {
        return parts.lifecycle().dropIndex(statement, request);
    }

    @Override
    public StatementResult erase(Statement.Erase statement) {
        request.erasing(statement.table());
        return parts.lifecycle().erase(statement, request);
    }

    /**
     * DELETE HISTORY of a system-versioned table, or with no BEFORE or a BEFORE SYSTEM_TIME, is MariaDB's and
     * removes versions by their period; DELETE HISTORY BEFORE COMMIT of a Verso table is the lifecycle's.
     */
    @Override
    public StatementResult deleteHistory(Statement.DeleteHistory statement) {
        TableDef table = request.table(statement.table());
        if (table.mode() == TableMode.SYSTEM || statement.before() == null
                || statement.before() instanceof AsOf.SystemTime) {
            return parts.system().deleteHistory(statement, table, request);
        }
        return parts.lifecycle().deleteHistory(statement, request);
    }

    @Override
    public StatementResult alterSystemVersioning(Statement.AlterSystemVersioning statement) {
        return parts.system().alter(statement, request.table(statement.table()), request, request.commitTime());
    }

    // ---- roles and grants ----------------------------------------------------------------------

    @Override
    public StatementResult createRole(Statement.CreateRole statement) {
        return parts.access().createRole(statement, request.principal());
    }

    @Override
    public StatementResult dropRole(Statement.DropRole statement) {
        return parts.access().dropRole(statement, request.principal());
    }

    @Override
    public StatementResult grant(Statement.Grant statement) {
        return parts.access().grant(statement, request.principal());
    }

    @Override
    public StatementResult showGrants(Statement.ShowGrants statement) {
        return parts.access().showGrants(statement, request.principal());
    }
}
