package io.verso.plan;

import io.verso.analyze.CheckConstraints;
import io.verso.analyze.DdlAnalyzer;
import io.verso.analyze.SystemTables;
import io.verso.catalog.TableDef;
import io.verso.catalog.ViewDef;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Privilege;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An in-memory catalog for planner tests: a few tables (one of each mode, one with an attribute group, a CHECK
 * and deleted history, one system-versioned) and a view, no database. It records every lookup the planner made
 * with the privileges it asked, so tests see what a plan needs without any grants.
 */
final class PlanCatalog implements Planner.Tables {

    private final Map<String, TableDef> tables = new LinkedHashMap<>();
    private final Map<String, ViewDef> views = new LinkedHashMap<>();
    final List<String> asked = new ArrayList<>();

    PlanCatalog() {
        table(2, "CREATE TABLE items (id BIGINT PRIMARY KEY, name TEXT NOT NULL DEFAULT 'unnamed', "
                + "price NUMERIC(12,2), ix INT) VERSIONED VALID BY (ix)");
        table(3, "CREATE TABLE events (at TIMESTAMPTZ, kind TEXT, body JSONB) APPEND");
        table(4, "CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT)");
        // History before commit 10 deleted: AS OF earlier commits is refused.
        table(5, "CREATE TABLE people (id INT PRIMARY KEY, name TEXT NOT NULL, age INT CHECK (age >= 0), city TEXT, "
                + "moved TIMESTAMP, ATTRIBUTE GROUP home (city, moved) VALID BY (moved)) VERSIONED");
        tables.put("people", tables.get("people").withHorizon(10));
        table(6, "CREATE TABLE ledger (id INT PRIMARY KEY, amount INT NOT NULL) WITH SYSTEM VERSIONING");
        views.put("cheap", new ViewDef("cheap", List.of(), "SELECT id, name FROM items WHERE price < 5"));
    }

    private void table(long id, String ddl) {
        Statement.CreateTable create = (Statement.CreateTable) SqlParser.parse(ddl).statements().get(0);
        TableDef t = create.systemVersioning() != null ? SystemTables.createTable(create, 1).table()
                : DdlAnalyzer.createTable(create, 1);
        tables.put(t.name(), new TableDef(id, t.name(), t.mode(), t.columns(), t.groups(), t.horizon(), 1,
                t.indexes(), null, null, t.period(), CheckConstraints.define(create, t)));
    }

    /** Whether a table of this name exists, as the engine asks before a rename. */
    boolean has(String name) {
        return tables.containsKey(name);
    }

    @Override
    public TableDef table(Ident name, Set<Privilege> privileges) {
        TableDef table = tables.get(name.name());
        if (table == null) {
            throw VersoException.at(ErrorCode.UNKNOWN_TABLE, "unknown table '" + name.name() + "'", name.pos());
        }
        asked.add(name.name() + " " + privileges);
        return table;
    }

    @Override
    public Optional<ViewDef> view(String name) {
        return Optional.ofNullable(views.get(name));
    }
}
