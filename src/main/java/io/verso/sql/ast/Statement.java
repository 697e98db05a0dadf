package io.verso.sql.ast;

import io.verso.catalog.IndexScope;
import java.util.List;

/** One statement of a request, as parsed. Names are case-folded; nothing is resolved yet. */
public sealed interface Statement {
    Pos pos();

    /** What kind of statement this is, and so what it does ({@link StatementKind}). */
    StatementKind kind();

    /**
     * Does to a statement what its kind calls for, with no cast and no default: each kind of statement has its
     * own method, so a new one does not compile until every visitor says what it does with it.
     */
    <R> R accept(Visitor<R> visitor);

    /** One method per kind of statement; see {@link #accept}. */
    interface Visitor<R> {
        R createTable(CreateTable statement);

        R dropTable(DropTable statement);

        R addColumn(AddColumn statement);

        R dropColumn(DropColumn statement);

        R renameColumn(RenameColumn statement);

        R renameTable(RenameTable statement);

        R setRetention(SetRetention statement);

        R alterSystemVersioning(AlterSystemVersioning statement);

        R transactionControl(TransactionControl statement);

        R changeOrdering(ChangeOrdering statement);

        R erase(Erase statement);

        R createIndex(CreateIndex statement);

        R dropIndex(DropIndex statement);

        R deleteHistory(DeleteHistory statement);

        R showTables(ShowTables statement);

        R showCreateTable(ShowCreateTable statement);

        R describe(Describe statement);

        R createRole(CreateRole statement);

        R dropRole(DropRole statement);

        R grant(Grant statement);

        R showGrants(ShowGrants statement);

        R insertRows(InsertRows statement);

        R update(Update statement);

        R delete(Delete statement);

        R deleteKeys(DeleteKeys statement);

        R select(Select statement);

        R createView(CreateView statement);

        R dropView(DropView statement);

        R createDerived(CreateDerived statement);

        R showDerived(ShowDerived statement);

        R explain(Explain statement);
    }

    // ---- DDL -----------------------------------------------------------------------------------

    enum Mode { APPEND, UPSERT, VERSIONED }

    /** {@code rowBound} is START or END for MariaDB's {@code GENERATED ALWAYS AS ROW START|END}, else null. */
    record ColumnDefinition(Ident name, TypeSpec type, boolean notNull, Expr.Literal defaultValue, boolean unique,
                            RowBound rowBound, Pos pos) {
        public ColumnDefinition(Ident name, TypeSpec type, boolean notNull, Expr.Literal defaultValue, boolean unique,
                                Pos pos) {
            this(name, type, notNull, defaultValue, unique, null, pos);
        }

        public ColumnDefinition(Ident name, TypeSpec type, boolean notNull, Expr.Literal defaultValue, Pos pos) {
            this(name, type, notNull, defaultValue, false, pos);
        }
    }

    enum RowBound { START, END }

    /**
     * MariaDB's system versioning of a CREATE TABLE: {@code start}/{@code end} name the declared
     * period columns of {@code PERIOD FOR SYSTEM_TIME}, both null for the implicit invisible ones.
     */
    record SystemVersioning(Ident start, Ident end, Pos pos) {
    }

    /** {@code VALID BY} and {@code REVISION BY} column lists of a table or group; empty when absent. */
    record Ordering(List<Ident> validBy, List<Ident> revisionBy) {
        public static final Ordering NONE = new Ordering(List.of(), List.of());
    }

    record GroupDefinition(Ident name, List<Ident> columns, Ordering ordering, Pos pos) {
    }

    /**
     * A CHECK constraint: its name if given ({@code CONSTRAINT name}), the column it was written on (a
     * column constraint) or null, the expression and its source text, as written.
     */
    record Check(Ident name, Ident column, Expr expr, String text, Pos pos) {
    }

    /** {@code unique} holds the UNIQUE column sets, column constraints included; {@code checks} the CHECKs. */
    record CreateTable(Ident name, boolean ifNotExists, List<ColumnDefinition> columns, List<Ident> primaryKey,
                       List<GroupDefinition> groups, Mode mode, Ordering ordering, List<List<Ident>> unique,
                       List<Check> checks, SystemVersioning systemVersioning, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.CREATE_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.createTable(this);
        }

        public CreateTable(Ident name, boolean ifNotExists, List<ColumnDefinition> columns, List<Ident> primaryKey,
                           List<GroupDefinition> groups, Mode mode, Ordering ordering, List<List<Ident>> unique,
                           List<Check> checks, Pos pos) {
            this(name, ifNotExists, columns, primaryKey, groups, mode, ordering, unique, checks, null, pos);
        }

        public CreateTable(Ident name, boolean ifNotExists, List<ColumnDefinition> columns, List<Ident> primaryKey,
                           List<GroupDefinition> groups, Mode mode, Ordering ordering, Pos pos) {
            this(name, ifNotExists, columns, primaryKey, groups, mode, ordering, List.of(), List.of(), pos);
        }
    }

    record DropTable(Ident name, boolean ifExists, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.DROP_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.dropTable(this);
        }

        @Override
        public Ident target() {
            return name;
        }

        @Override
        public String dependencyVerb() {
            return "DROP TABLE";
        }
    }

    record AddColumn(Ident table, ColumnDefinition column, Ident group, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.ALTER_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.addColumn(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String writeVerb() {
            return "ALTER TABLE";
        }
    }

    record DropColumn(Ident table, Ident column, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.ALTER_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.dropColumn(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String writeVerb() {
            return "ALTER TABLE";
        }

        @Override
        public String dependencyVerb() {
            return "DROP COLUMN of";
        }
    }

    record RenameColumn(Ident table, Ident from, Ident to, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.ALTER_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.renameColumn(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String writeVerb() {
            return "ALTER TABLE";
        }

        @Override
        public String dependencyVerb() {
            return "RENAME COLUMN of";
        }
    }

    record RenameTable(Ident table, Ident to, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.ALTER_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.renameTable(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String dependencyVerb() {
            return "RENAME of";
        }
    }

    /**
     * {@code ALTER TABLE t SET HISTORY RETENTION n COMMITS | 'interval'}, or RESET (both null): how
     * much history the retention job keeps.
     */
    record SetRetention(Ident table, Long commits, String interval, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.ALTER_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.setRetention(this);
        }

        @Override
        public Ident target() {
            return table;
        }
    }

    /** {@code ALTER TABLE t ADD SYSTEM VERSIONING} ({@code add}) or {@code DROP SYSTEM VERSIONING}. */
    record AlterSystemVersioning(Ident table, boolean add, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.ALTER_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.alterSystemVersioning(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String writeVerb() {
            return "ALTER TABLE";
        }

        @Override
        public String dependencyVerb() {
            return "SYSTEM VERSIONING of";
        }
    }

    /** START TRANSACTION / BEGIN, COMMIT or ROLLBACK framing statements of a request. */
    record TransactionControl(TransactionAction action, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return switch (action) {
                case START -> StatementKind.START_TRANSACTION;
                case COMMIT -> StatementKind.COMMIT;
                case ROLLBACK -> StatementKind.ROLLBACK;
            };
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.transactionControl(this);
        }
    }

    enum TransactionAction { START, COMMIT, ROLLBACK }

    /** An ALTER that would change the mode or the ordering columns: parsed only to be refused clearly. */
    record ChangeOrdering(Ident table, String what, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.ALTER_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.changeOrdering(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String writeVerb() {
            return "ALTER TABLE";
        }
    }

    /** Removes every version of the matched keys, current row included: for data-protection requests. */
    record Erase(Ident table, Expr where, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.ERASE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.erase(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String writeVerb() {
            return "ERASE";
        }
    }

    record CreateIndex(Ident name, boolean ifNotExists, Ident table, List<Ident> columns, IndexScope scope,
                       boolean unique, List<Boolean> descending, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.CREATE_INDEX;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.createIndex(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        public CreateIndex(Ident name, boolean ifNotExists, Ident table, List<Ident> columns, IndexScope scope,
                           Pos pos) {
            this(name, ifNotExists, table, columns, scope, false, columns.stream().map(c -> false).toList(), pos);
        }
    }

    record DropIndex(Ident name, boolean ifExists, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.DROP_INDEX;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.dropIndex(this);
        }
    }

    /**
     * {@code DELETE HISTORY FROM t BEFORE COMMIT n} ({@code before} an AsOf of a commit), {@code BEFORE
     * SYSTEM_TIME t} ({@code before} a {@link AsOf.SystemTime} AS OF t), or with no BEFORE (null).
     */
    record DeleteHistory(Ident table, AsOf before, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.DELETE_HISTORY;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.deleteHistory(this);
        }

        @Override
        public Ident target() {
            return table;
        }
    }

    /** A statement that reads the catalog, not rows: SHOW TABLES, DESCRIBE, SHOW CREATE TABLE, SHOW DERIVED TABLES. */
    sealed interface Listing extends Statement {
    }

    record ShowTables(Pos pos) implements Listing {
        @Override
        public StatementKind kind() {
            return StatementKind.SHOW_TABLES;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.showTables(this);
        }
    }

    record ShowCreateTable(Ident table, Pos pos) implements Listing {
        @Override
        public StatementKind kind() {
            return StatementKind.SHOW_CREATE_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.showCreateTable(this);
        }
    }

    record Describe(Ident table, Pos pos) implements Listing {
        @Override
        public StatementKind kind() {
            return StatementKind.DESCRIBE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.describe(this);
        }
    }

    // ---- access control ------------------------------------------------------------------------

    /** Statements that manage roles and grants; they need ADMIN, checked where they run. */
    sealed interface Access extends Statement {
    }

    record CreateRole(Ident role, Pos pos) implements Access {
        @Override
        public StatementKind kind() {
            return StatementKind.CREATE_ROLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.createRole(this);
        }
    }

    record DropRole(Ident role, boolean ifExists, Pos pos) implements Access {
        @Override
        public StatementKind kind() {
            return StatementKind.DROP_ROLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.dropRole(this);
        }
    }

    /**
     * GRANT, or REVOKE ({@code revoke}); {@code privilege} null means ALL; {@code tables} empty means
     * ALL TABLES.
     */
    record Grant(boolean revoke, String privilege, List<Ident> tables, List<Ident> roles, Pos pos)
            implements Access {
        @Override
        public StatementKind kind() {
            return revoke ? StatementKind.REVOKE : StatementKind.GRANT;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.grant(this);
        }
    }

    /** {@code role} null lists every role. */
    record ShowGrants(Ident role, Pos pos) implements Access {
        @Override
        public StatementKind kind() {
            return StatementKind.SHOW_GRANTS;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.showGrants(this);
        }
    }

    // ---- writes --------------------------------------------------------------------------------

    /**
     * UPSERT (upsert = true) or INSERT; {@code columns} empty means every column in table order.
     * The rows are listed ({@code rows}), read by {@code query}, or given as {@code columnValues} by a
     * surface that read them straight into columns (then {@code rows} is empty).
     */
    /** A statement that writes rows of one table: INSERT, UPSERT, UPDATE, DELETE. */
    sealed interface RowWrite extends Statement {
    }

    record InsertRows(boolean upsert, Ident table, List<Ident> columns, List<List<Expr>> rows, Query query,
                      Ident group, Pos pos, ColumnValues columnValues) implements RowWrite {
        @Override
        public StatementKind kind() {
            return upsert ? StatementKind.UPSERT : StatementKind.INSERT;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.insertRows(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String writeVerb() {
            return upsert ? "UPSERT" : "INSERT";
        }

        public InsertRows(boolean upsert, Ident table, List<Ident> columns, List<List<Expr>> rows, Query query,
                          Ident group, Pos pos) {
            this(upsert, table, columns, rows, query, group, pos, null);
        }

        public InsertRows(boolean upsert, Ident table, List<Ident> columns, List<List<Expr>> rows, Ident group,
                          Pos pos) {
            this(upsert, table, columns, rows, null, group, pos, null);
        }

        public InsertRows(boolean upsert, Ident table, List<Ident> columns, ColumnValues values, Ident group,
                          Pos pos) {
            this(upsert, table, columns, List.of(), null, group, pos, values);
        }
    }

    /**
     * Rows a surface read straight into column arrays instead of one parameter expression per value (a
     * REST batch of a thousand rows is then no tree of seven thousand nodes): {@code values[c][r]} is row
     * r's value for the c-th named column, in the forms a bound parameter takes (String, BigDecimal,
     * Boolean, null). {@code origin} says where a value came from; it is asked only for a message.
     */
    record ColumnValues(Object[][] values, int size, ItemOrigin origin) {
        /** Where row {@code row}'s value of the {@code column}-th named column came from. */
        public interface ItemOrigin {
            Pos at(int column, int row);
        }
    }

    record Assignment(Ident column, Expr value) {
    }

    record Update(Ident table, List<Assignment> assignments, Expr where, Pos pos) implements RowWrite {
        @Override
        public StatementKind kind() {
            return StatementKind.UPDATE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.update(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String writeVerb() {
            return "UPDATE";
        }
    }

    /** {@code at} holds the ordering values of the tombstones; empty when the clause is absent. */
    record Delete(Ident table, Expr where, List<Assignment> at, Pos pos) implements RowWrite {
        @Override
        public StatementKind kind() {
            return StatementKind.DELETE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.delete(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String writeVerb() {
            return "DELETE";
        }
    }

    /**
     * A delete that names its keys: one tombstone per key, each with its key values and the
     * ordering values it is written at. Built by the REST and GraphQL surfaces (the dialect says
     * the same with a WHERE that fixes every key column); tombstones are written whether or not a
     * key has a live row.
     */
    record DeleteKeys(Ident table, List<Tombstone> keys, Pos pos) implements RowWrite {
        @Override
        public StatementKind kind() {
            return StatementKind.DELETE_KEYS;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.deleteKeys(this);
        }

        @Override
        public Ident target() {
            return table;
        }

        @Override
        public String writeVerb() {
            return "DELETE";
        }
    }

    /** Key and ordering column values of one tombstone. */
    record Tombstone(List<Assignment> values, Pos pos) {
    }

    // ---- reads ---------------------------------------------------------------------------------

    record Select(Query query, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.SELECT;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.select(this);
        }
    }

    /** {@code CREATE VIEW}: {@code text} is the query as written, expanded again at every use. */
    record CreateView(Ident name, boolean ifNotExists, List<Ident> columns, Query query, String text, Pos pos)
            implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.CREATE_VIEW;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.createView(this);
        }
    }

    record DropView(Ident name, boolean ifExists, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.DROP_VIEW;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.dropView(this);
        }
    }

    /**
     * {@code CREATE DERIVED TABLE name [PRIMARY KEY (...)] AS query}: {@code text} is the query as
     * written, kept in the catalog and analysed again at every source commit.
     */
    record CreateDerived(Ident name, List<Ident> primaryKey, Query query, String text, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.CREATE_DERIVED_TABLE;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.createDerived(this);
        }
    }

    record ShowDerived(Pos pos) implements Listing {
        @Override
        public StatementKind kind() {
            return StatementKind.SHOW_DERIVED_TABLES;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.showDerived(this);
        }
    }

    /**
     * {@code EXPLAIN [ANALYZE] statement}: the plan made for {@code statement}, which does not run; ANALYZE
     * runs its reads under PostgreSQL's EXPLAIN ANALYZE and adds PostgreSQL's plan and timings.
     */
    record Explain(Statement statement, boolean analyze, Pos pos) implements Statement {
        @Override
        public StatementKind kind() {
            return StatementKind.EXPLAIN;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.explain(this);
        }
    }

    /**
     * The one existing table the statement writes, alters, indexes or drops, or null (reads, catalog
     * listings, CREATE, access control, statements on no single table).
     */
    default Ident target() {
        return null;
    }

    /**
     * How a refusal names a change of the target's rows or columns (UPSERT, INSERT, UPDATE, DELETE,
     * ERASE, ALTER TABLE), or null when the statement changes neither: a derived table refuses these.
     */
    default String writeVerb() {
        return null;
    }

    /**
     * How a refusal names dropping or renaming the target or one of its columns (DROP TABLE, RENAME
     * of, DROP COLUMN of, RENAME COLUMN of), or null: a table derived tables read refuses these.
     */
    default String dependencyVerb() {
        return null;
    }

    /** Whether the statement makes a commit: everything but reads, listings and transaction framing. */
    default boolean writes() {
        return kind().writes();
    }
}
