package io.verso.plan;

import io.verso.analyze.AsOfResolver;
import io.verso.analyze.BoundChange;
import io.verso.analyze.BoundSelect;
import io.verso.analyze.ReadAnalyzer;
import io.verso.analyze.SystemRelation;
import io.verso.analyze.TableLookup;
import io.verso.analyze.WriteAnalyzer;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.catalog.ViewDef;
import io.verso.compile.CompiledSql;
import io.verso.compile.SelectCompiler;
import io.verso.compile.WriteCompiler;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Privilege;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;
import io.verso.sql.ast.StatementKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Statement in, {@link Plan} out: names bound against the catalog, AS OF resolved to commits, the queries
 * compiled, and what the caller needs on each table found by the lookups themselves. Every relation a
 * statement reads is looked up needing SELECT; its target needing {@link #targetPrivileges}.
 */
public final class Planner {

    /**
     * The catalog as the planner sees it: {@link #table} finds a table and checks that the caller holds
     * {@code privileges} on it, failing as a table that does not exist when it holds nothing there.
     */
    public interface Tables {
        TableDef table(Ident name, Set<Privilege> privileges);

        default Optional<ViewDef> view(String name) {
            return Optional.empty();
        }

        /** A relation of a system schema, as {@link TableLookup#system}. */
        default Optional<SystemRelation> system(Ident schema, Ident name) {
            return Optional.empty();
        }
    }

    private final Tables tables;
    private final AsOfResolver asOf;
    private final List<Object> params;
    private final Set<Plan.Need> needs = new LinkedHashSet<>();
    /** What the analyzers see: every table they bind is read, so needs SELECT. */
    private final TableLookup reads = new TableLookup() {
        @Override
        public TableDef table(Ident name) {
            return lookup(name, EnumSet.of(Privilege.SELECT));
        }

        @Override
        public Optional<ViewDef> view(String name) {
            return tables.view(name);
        }

        @Override
        public Optional<SystemRelation> system(Ident schema, Ident name) {
            return tables.system(schema, name);
        }
    };

    private Planner(Tables tables, AsOfResolver asOf, List<Object> params) {
        this.tables = tables;
        this.asOf = asOf;
        this.params = params;
    }

    /** Plans one statement of a request whose parameters are {@code params}. */
    public static Plan plan(Statement statement, Tables tables, AsOfResolver asOf, List<Object> params) {
        Planner planner = new Planner(tables, asOf, params);
        if (statement instanceof Statement.Select select) {
            return planner.read(select);
        }
        if (statement instanceof Statement.InsertRows insert && insert.query() != null) {
            return planner.queriedWrite(insert);
        }
        if (statement instanceof Statement.Update update) {
            return planner.update(update);
        }
        if (statement instanceof Statement.Delete delete) {
            return planner.delete(delete);
        }
        return planner.direct(statement);
    }

    public static Plan.Read read(Statement.Select select, Tables tables, AsOfResolver asOf, List<Object> params) {
        return new Planner(tables, asOf, params).read(select);
    }

    public static Plan.QueriedWrite queriedWrite(Statement.InsertRows insert, Tables tables, AsOfResolver asOf,
                                                 List<Object> params) {
        return new Planner(tables, asOf, params).queriedWrite(insert);
    }

    /**
     * A {@link Plan.Update}, or for a system-versioned or APPEND table a {@link Plan.Direct} (one set-based
     * statement of its own).
     */
    public static Plan update(Statement.Update update, Tables tables, AsOfResolver asOf, List<Object> params) {
        return new Planner(tables, asOf, params).update(update);
    }

    /**
     * A {@link Plan.Delete}, or for a system-versioned or APPEND table a {@link Plan.Direct} (one set-based
     * statement of its own).
     */
    public static Plan delete(Statement.Delete delete, Tables tables, AsOfResolver asOf, List<Object> params) {
        return new Planner(tables, asOf, params).delete(delete);
    }

    private Plan.Read read(Statement.Select select) {
        BoundSelect bound = ReadAnalyzer.select(select, reads, asOf, params.size());
        return new Plan.Read(bound, SelectCompiler.compile(bound, params), needs());
    }

    private Plan update(Statement.Update update) {
        TableDef table = target(update.table(), update);
        if (wholeRows(table)) {
            return direct(update);
        }
        BoundChange.Update bound = WriteAnalyzer.update(update, table, reads, asOf, params.size());
        return new Plan.Update(bound, WriteCompiler.updatedRows(bound, params), needs());
    }

    private Plan delete(Statement.Delete delete) {
        TableDef table = target(delete.table(), delete);
        if (wholeRows(table)) {
            return direct(delete);
        }
        BoundChange.Delete bound = WriteAnalyzer.delete(delete, table, reads, asOf, params);
        return new Plan.Delete(bound, bound.keys() == null ? WriteCompiler.deletedKeys(bound, params) : null,
                needs());
    }

    /**
     * SYSTEM and APPEND tables store whole rows, not versions per key and group: their UPDATE and DELETE
     * are one set-based statement each (engine/SystemVersioning, engine/AppendChanges).
     */
    private static boolean wholeRows(TableDef table) {
        return table.mode() == TableMode.SYSTEM || table.mode() == TableMode.APPEND;
    }

    /**
     * INSERT/UPSERT ... query: the target needs WRITE, the query's relations SELECT. The query runs in the
     * request's transaction (so at its snapshot, AS OF any commit), each value cast to its column's type as
     * an INSERT would, in the query's order, else ordered by the target's key so the write is deterministic.
     */
    private Plan.QueriedWrite queriedWrite(Statement.InsertRows insert) {
        TableDef table = target(insert.table(), insert);
        checkMode(insert, table);
        List<Ident> named = WriteAnalyzer.namedColumns(insert, table);
        BoundSelect bound = ReadAnalyzer.query(insert.query(), reads, asOf, params.size());
        if (bound.columns().size() != named.size()) {
            throw VersoException.at(ErrorCode.COLUMN_COUNT_MISMATCH, "the query returns " + bound.columns().size()
                    + " columns for " + named.size() + " columns of " + table.name(), insert.query().pos());
        }
        List<ColumnDef> columns = named.stream().map(n -> table.column(n.name()).orElseThrow()).toList();
        CompiledSql read = WriteCompiler.queriedRows(bound, table, columns, insert.query().orderBy().isEmpty(), params);
        return new Plan.QueriedWrite(insert, table, columns, bound, read, needs());
    }

    private Plan direct(Statement statement) {
        // DESCRIBE and SHOW CREATE name a table they only read; target() is what a statement changes.
        Ident target = statement instanceof Statement.Describe d ? d.table()
                : statement instanceof Statement.ShowCreateTable s ? s.table() : statement.target();
        List<Plan.Need> direct = new ArrayList<>(needs);
        if (target != null && needs.isEmpty()) {
            for (Privilege privilege : targetPrivileges(statement)) {
                direct.add(new Plan.Need(privilege, target.name()));
            }
        }
        if (globalAdmin(statement)) {
            direct.add(new Plan.Need(Privilege.ADMIN, null));
        }
        if (statement instanceof Statement.Grant grant) {
            for (Ident table : grant.tables()) {
                direct.add(new Plan.Need(Privilege.ADMIN, table.name()));
            }
        }
        return new Plan.Direct(statement, kind(statement), target == null ? null : target.name(), List.copyOf(direct));
    }

    private TableDef target(Ident name, Statement statement) {
        return lookup(name, targetPrivileges(statement));
    }

    private TableDef lookup(Ident name, Set<Privilege> privileges) {
        TableDef table = tables.table(name, privileges);
        for (Privilege privilege : privileges) {
            needs.add(new Plan.Need(privilege, table.name()));
        }
        return table;
    }

    private List<Plan.Need> needs() {
        return List.copyOf(needs);
    }

    /** UPSERT and ATTRIBUTE GROUP write versions per key: an APPEND table refuses them (INSERT appends). */
    public static void checkMode(Statement.InsertRows insert, TableDef table) {
        if (table.mode() == TableMode.APPEND && (insert.upsert() || insert.group() != null)) {
            throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, (insert.upsert() ? "UPSERT"
                    : "ATTRIBUTE GROUP") + " needs a keyed table; " + table.name()
                    + " is an APPEND table: use INSERT", insert.pos());
        }
    }

    /** A DELETE of named keys (REST, GraphQL) needs a key: an APPEND table's rows have none. */
    public static void requireKeyed(TableDef table, Ident name, String statement) {
        if (table.mode() == TableMode.APPEND) {
            throw VersoException.at(ErrorCode.UNSUPPORTED_FOR_MODE, statement + " of keys needs a keyed table; "
                    + table.name() + " is an APPEND table, whose rows have no key (DELETE FROM " + table.name()
                    + " WHERE ... removes rows by their values)", name.pos());
        }
    }

    /**
     * What a statement needs on its target (or, for reads, DESCRIBE and SHOW CREATE, on the table it names).
     * Reads need SELECT; CREATE DERIVED TABLE names no existing target (creating it needs ADMIN on ALL TABLES,
     * {@link #globalAdmin}) and reads its sources, so SELECT on each. A write needs WRITE; UPDATE and DELETE
     * ... WHERE also read the target's rows (their WHERE and SET see its values, their row counts say which
     * rows matched), so they need SELECT as PostgreSQL's do, else a writer could read through a rolled-back
     * UPDATE's count or a cast error quoting a value. INSERT and DELETE of named keys read nothing.
     * Everything else (DDL, DELETE HISTORY, ERASE, retention) needs ADMIN.
     */
    public static Set<Privilege> targetPrivileges(Statement statement) {
        return switch (statement.kind().use()) {
            case READS -> EnumSet.of(Privilege.SELECT);
            case READS_AND_WRITES -> EnumSet.of(Privilege.SELECT, Privilege.WRITE);
            case WRITES -> EnumSet.of(Privilege.WRITE);
            // A statement that names no table looks none up; should one, it would need the most.
            case DEFINES, NONE -> EnumSet.of(Privilege.ADMIN);
        };
    }

    /**
     * Statements on the shared namespace or on access itself ({@link StatementKind#sharedNamespace}): they need
     * ADMIN on ALL TABLES; so does a grant on ALL TABLES.
     */
    static boolean globalAdmin(Statement statement) {
        return statement.kind().sharedNamespace()
                || statement instanceof Statement.Grant grant && grant.tables().isEmpty();
    }

    /** How results name a statement's kind. */
    static String kind(Statement statement) {
        return statement.kind().words();
    }
}
