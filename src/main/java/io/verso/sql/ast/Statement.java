package io.verso.sql.ast;

import io.verso.catalog.IndexScope;
import java.util.List;

/** One statement of a request, as parsed. Names are case-folded; nothing is resolved yet. */
public sealed interface Statement {
    Pos pos();

    // ---- DDL -----------------------------------------------------------------------------------

    enum Mode { APPEND, UPSERT, VERSIONED }

    record ColumnDefinition(Ident name, TypeSpec type, boolean notNull, Expr.Literal defaultValue, Pos pos) {
    }

    /** {@code VALID BY} and {@code REVISION BY} column lists of a table or group; empty when absent. */
    record Ordering(List<Ident> validBy, List<Ident> revisionBy) {
        public static final Ordering NONE = new Ordering(List.of(), List.of());
    }

    record GroupDefinition(Ident name, List<Ident> columns, Ordering ordering, Pos pos) {
    }

    record CreateTable(Ident name, boolean ifNotExists, List<ColumnDefinition> columns, List<Ident> primaryKey,
                       List<GroupDefinition> groups, Mode mode, Ordering ordering, Pos pos) implements Statement {
    }

    record DropTable(Ident name, boolean ifExists, Pos pos) implements Statement {
    }

    record AddColumn(Ident table, ColumnDefinition column, Ident group, Pos pos) implements Statement {
    }

    record DropColumn(Ident table, Ident column, Pos pos) implements Statement {
    }

    record RenameColumn(Ident table, Ident from, Ident to, Pos pos) implements Statement {
    }

    record RenameTable(Ident table, Ident to, Pos pos) implements Statement {
    }

    /**
     * {@code ALTER TABLE t SET HISTORY RETENTION n COMMITS | 'interval'}, or RESET (both null): how
     * much history the retention job keeps.
     */
    record SetRetention(Ident table, Long commits, String interval, Pos pos) implements Statement {
    }

    /** An ALTER that would change the mode or the ordering columns: parsed only to be refused clearly. */
    record ChangeOrdering(Ident table, String what, Pos pos) implements Statement {
    }

    /** Removes every version of the matched keys, current row included: for data-protection requests. */
    record Erase(Ident table, Expr where, Pos pos) implements Statement {
    }

    record CreateIndex(Ident name, boolean ifNotExists, Ident table, List<Ident> columns, IndexScope scope, Pos pos)
            implements Statement {
    }

    record DropIndex(Ident name, boolean ifExists, Pos pos) implements Statement {
    }

    record DeleteHistory(Ident table, AsOf before, Pos pos) implements Statement {
    }

    record ShowTables(Pos pos) implements Statement {
    }

    record ShowCreateTable(Ident table, Pos pos) implements Statement {
    }

    record Describe(Ident table, Pos pos) implements Statement {
    }

    // ---- writes --------------------------------------------------------------------------------

    /** UPSERT (upsert = true) or INSERT; {@code columns} empty means every column in table order. */
    record InsertRows(boolean upsert, Ident table, List<Ident> columns, List<List<Expr>> rows, Ident group, Pos pos)
            implements Statement {
    }

    record Assignment(Ident column, Expr value) {
    }

    record Update(Ident table, List<Assignment> assignments, Expr where, Pos pos) implements Statement {
    }

    /** {@code at} holds the ordering values of the tombstones; empty when the clause is absent. */
    record Delete(Ident table, Expr where, List<Assignment> at, Pos pos) implements Statement {
    }

    /**
     * A delete that names its keys: one tombstone per key, each with its key values and the
     * ordering values it is written at. Built by the REST and GraphQL surfaces (the dialect says
     * the same with a WHERE that fixes every key column); tombstones are written whether or not a
     * key has a live row.
     */
    record DeleteKeys(Ident table, List<Tombstone> keys, Pos pos) implements Statement {
    }

    /** Key and ordering column values of one tombstone. */
    record Tombstone(List<Assignment> values, Pos pos) {
    }

    // ---- reads ---------------------------------------------------------------------------------

    record Select(boolean distinct, List<SelectItem> items, Relation from, List<Join> joins, Expr where,
                  List<Expr> groupBy, Expr having, List<SortItem> orderBy, AsOf asOf, Expr limit, Expr offset,
                  Pos pos) implements Statement {
    }

    sealed interface SelectItem {
        record All(Pos pos) implements SelectItem {
        }

        record AllOf(Ident qualifier, Pos pos) implements SelectItem {
        }

        record Item(Expr expr, Ident alias, Pos pos) implements SelectItem {
        }
    }

    /** A table or {@code history(table)}, with its own AS OF (or null) and alias (or null). */
    record Relation(Ident table, boolean history, AsOf asOf, Ident alias, Pos pos) {
        public String visibleName() {
            return alias != null ? alias.name() : table.name();
        }
    }

    enum JoinType { INNER, LEFT }

    record Join(JoinType type, Relation relation, Expr on) {
    }

    record SortItem(Expr expr, boolean descending, Boolean nullsFirst) {
    }

    /** Whether the statement makes a commit: everything but reads and catalog listings. */
    default boolean writes() {
        return !(this instanceof Select || this instanceof ShowTables || this instanceof ShowCreateTable
                || this instanceof Describe);
    }
}
