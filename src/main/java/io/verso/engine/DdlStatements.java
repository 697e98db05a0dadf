package io.verso.engine;

import io.verso.analyze.CheckConstraints;
import io.verso.analyze.DdlAnalyzer;
import io.verso.analyze.ReadAnalyzer;
import io.verso.catalog.Catalog;
import io.verso.catalog.IndexScope;
import io.verso.catalog.TableDef;
import io.verso.catalog.ViewDef;
import io.verso.catalog.Views;
import io.verso.compile.DdlCompiler;
import io.verso.derive.Deriver;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.security.AccessControl;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * The catalog's DDL: tables and views made and dropped ({@code CREATE}/{@code DROP TABLE}, {@code CREATE}/{@code
 * DROP VIEW}) in the namespace they share, and, through {@link Lifecycle}, what changes a table after it is
 * made. Each runs inside its request's transaction and is part of its commit; who may run it is asked before
 * anything about a name is looked at, so a refusal tells nothing of what exists.
 */
final class DdlStatements {

    private final Catalog catalog;
    private final Views views;
    private final AccessControl access;
    private final SqlRunner sql;
    private final SystemVersioning system;
    private final Lifecycle lifecycle;
    private final Deriver deriver;

    DdlStatements(Catalog catalog, Views views, AccessControl access, SqlRunner sql, SystemVersioning system,
                  Lifecycle lifecycle, Deriver deriver) {
        this.deriver = deriver;
        this.catalog = catalog;
        this.views = views;
        this.access = access;
        this.sql = sql;
        this.system = system;
        this.lifecycle = lifecycle;
    }

    /**
     * Refuses {@code name} for a new table (CREATE TABLE, CREATE DERIVED TABLE, or a table renamed to it) when a
     * view has it: tables and views share one namespace.
     */
    static void refuseViewName(Views views, Ident name) {
        if (views.find(name.name()).isPresent()) {
            throw VersoException.at(ErrorCode.TABLE_EXISTS, "a view named '" + name.name() + "' already exists",
                    name.pos());
        }
    }

    StatementResult createTable(Statement.CreateTable create, RequestContext request) {
        access.requireGlobalAdmin(request.principal(), "CREATE TABLE", create.pos());
        if (catalog.find(create.name().name()).isPresent()) {
            if (create.ifNotExists()) {
                return new StatementResult.Changed("CREATE TABLE", create.name().name(), false, null);
            }
            throw Refusals.tableExists(create.name().name(), create.name().pos());
        }
        refuseViewName(views, create.name());
        if (create.systemVersioning() != null) {
            StatementResult created = system.create(create, request.commit());
            request.catalogChanged();
            request.touch(create.name().name(), 0);
            return created;
        }
        TableDef defined = DdlAnalyzer.createTable(create, request.commit());
        TableDef table = catalog.create(defined.withChecks(CheckConstraints.define(create,
                defined)));
        DdlCompiler.createTable(table).forEach(sql::update);
        Checks.validate(sql, table);
        request.catalogChanged();
        request.touch(table.name(), 0);
        // UNIQUE columns and column sets: unique indexes over current rows, named as PostgreSQL would.
        for (List<Ident> unique : create.unique()) {
            String name = table.name() + "_" + String.join("_", unique.stream().map(Ident::name).toList()) + "_key";
            if (name.getBytes(StandardCharsets.UTF_8).length > 63) {
                name = name.substring(0, 40) + "_" + Integer.toHexString(name.hashCode()) + "_key";
            }
            lifecycle.createIndex(new Statement.CreateIndex(new Ident(name, create.pos()), false, create.name(),
                    unique, IndexScope.CURRENT, true, unique.stream().map(u -> false).toList(),
                    create.pos()), request);
        }
        return new StatementResult.Changed("CREATE TABLE", table.name(), true, null);
    }

    /**
     * Views are named like tables and serve everyone who may read what they read (their body runs with
     * the caller's privileges), so making or dropping one is DDL on the shared namespace: ADMIN on ALL
     * TABLES, as CREATE TABLE, asked before anything about the name is looked at.
     */
    StatementResult createView(Statement.CreateView create, RequestContext request) {
        access.requireGlobalAdmin(request.principal(), "CREATE VIEW", create.pos());
        String name = create.name().name();
        if (catalog.find(name).isPresent() || views.find(name).isPresent()) {
            if (create.ifNotExists()) {
                return new StatementResult.Changed("CREATE VIEW", name, false, null);
            }
            throw VersoException.at(ErrorCode.VIEW_EXISTS, "a table or view named '" + name + "' already exists",
                    create.name().pos());
        }
        if (SqlParser.parse(create.text()).parameterCount() > 0) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "a view's query cannot hold ? parameters",
                    create.query().pos());
        }
        // Analysed now so a view that cannot be read is refused; read again at every use.
        List<String> columns = ReadAnalyzer.query(create.query(), request.reads(), request.asOf(), 0).columns();
        if (create.columns().size() > columns.size()) {
            throw VersoException.at(ErrorCode.COLUMN_COUNT_MISMATCH, "view " + name + " names "
                    + create.columns().size() + " columns but its query returns " + columns.size(), create.pos());
        }
        List<String> names = new ArrayList<>(create.columns().isEmpty() ? List.of()
                : create.columns().stream().map(Ident::name).toList());
        if (!names.isEmpty()) {
            names.addAll(columns.subList(names.size(), columns.size()));
        }
        if (new HashSet<>(names.isEmpty() ? columns : names).size() != columns.size()) {
            throw VersoException.at(ErrorCode.DUPLICATE_NAME, "view " + name + " would have two columns of the "
                    + "same name: give them aliases", create.query().pos());
        }
        views.create(new ViewDef(name, names, create.text()), request.commit());
        catalog.viewsChanged();
        request.catalogChanged();
        request.touch(name, 0);
        return new StatementResult.Changed("CREATE VIEW", name, true, null);
    }

    StatementResult dropView(Statement.DropView drop, RequestContext request) {
        access.requireGlobalAdmin(request.principal(), "DROP VIEW", drop.pos());
        String name = drop.name().name();
        if (views.find(name).isPresent()) {
            deriver.refuseDroppingView(deriver.all(), drop.name(), views::find);
        }
        if (!views.delete(name)) {
            if (drop.ifExists()) {
                return new StatementResult.Changed("DROP VIEW", name, false, null);
            }
            throw VersoException.at(ErrorCode.UNKNOWN_TABLE, "unknown view '" + name + "'", drop.name().pos());
        }
        catalog.viewsChanged();
        request.catalogChanged();
        request.touch(name, 0);
        return new StatementResult.Changed("DROP VIEW", name, true, null);
    }

    StatementResult dropTable(Statement.DropTable drop, RequestContext request) {
        var found = catalog.find(drop.name().name()).filter(t -> request.visible(t));
        if (found.isEmpty()) {
            if (drop.ifExists()) {
                return new StatementResult.Changed("DROP TABLE", drop.name().name(), false, null);
            }
            throw Refusals.unknownTable(drop.name().name(), drop.name().pos());
        }
        request.authorize(found.get(), drop.name());
        sql.update(DdlCompiler.dropTable(found.get()));
        catalog.delete(found.get());
        request.catalogChanged();
        request.touch(found.get().name(), 0);
        return new StatementResult.Changed("DROP TABLE", found.get().name(), true, null);
    }
}
