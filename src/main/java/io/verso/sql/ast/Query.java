package io.verso.sql.ast;

import java.util.List;

/**
 * A read: optional CTEs, a body of blocks combined by set operations, and the trailing clauses
 * that apply to the whole body. {@code asOf} is the trailing AS OF (null when absent); which AS OF
 * applies to a relation is decided once, in the analyzer (the nearest wins).
 */
public record Query(List<Cte> with, Body body, List<SortItem> orderBy, AsOf asOf, Expr limit, Expr offset,
                    Pos pos) {

    /**
     * {@code name [(columns)] AS (query)}; {@code recursive} when its WITH says RECURSIVE (then every CTE of
     * that WITH may read itself and the others).
     */
    public record Cte(Ident name, List<Ident> columns, Query query, boolean recursive, Pos pos) {
    }

    /** What a query combines: a block, a set operation of two bodies, or a parenthesised query. */
    public sealed interface Body {
        Pos pos();
    }

    public record Block(boolean distinct, List<SelectItem> items, List<FromItem> from, Expr where,
                        List<Expr> groupBy, Expr having, List<WindowDef> windows, Pos pos) implements Body {
    }

    public enum SetOpKind { UNION, INTERSECT, EXCEPT }

    public record SetOp(SetOpKind kind, boolean all, Body left, Body right, Pos pos) implements Body {
    }

    public record Nested(Query query, Pos pos) implements Body {
    }

    public sealed interface SelectItem {
        Pos pos();

        record All(Pos pos) implements SelectItem {
        }

        record AllOf(Ident qualifier, Pos pos) implements SelectItem {
        }

        record Item(Expr expr, Ident alias, Pos pos) implements SelectItem {
        }
    }

    /** An entry of FROM. */
    public sealed interface FromItem {
        Pos pos();
    }

    /**
     * A name in FROM: a table, a view, a CTE, {@code history(table)} or {@code changes(table)}, with its own AS OF (or
     * null), alias (or null) and column aliases (empty when none). {@code schema} is null but for a relation of a
     * system schema ({@code information_schema.tables}): the only names that are ever schema-qualified.
     */
    public record TableRef(Ident schema, Ident name, boolean history, boolean changes, AsOf asOf, Ident alias,
                           List<Ident> columnAliases, Pos pos) implements FromItem {
        /** The schemas whose relations the service makes from its catalog, as PostgreSQL's clients read them. */
        public static final List<String> SYSTEM_SCHEMAS = List.of("information_schema", "pg_catalog");

        public TableRef(Ident name, boolean history, boolean changes, AsOf asOf, Ident alias,
                        List<Ident> columnAliases, Pos pos) {
            this(null, name, history, changes, asOf, alias, columnAliases, pos);
        }

        public TableRef(Ident name, boolean history, AsOf asOf, Ident alias, List<Ident> columnAliases, Pos pos) {
            this(name, history, false, asOf, alias, columnAliases, pos);
        }

        /** {@code history(t)} or {@code changes(t)}: a table's own pseudo-relation, never a CTE or view. */
        public boolean pseudo() {
            return history || changes;
        }

        public String visibleName() {
            return alias != null ? alias.name() : name.name();
        }
    }

    /**
     * A function in FROM, {@code generate_series(1, 3) AS i}: the rows of a set-returning function, or the one
     * row of another; {@code alias} null when none is given (the function's name is then the relation's).
     */
    public record FunctionTable(Expr.FunctionCall call, Ident alias, List<Ident> columnAliases, Pos pos)
            implements FromItem {
        public String visibleName() {
            return alias != null ? alias.name() : call.name().name();
        }
    }

    /** {@code (query) [AS OF ...] AS alias [(columns)]}. */
    public record Derived(Query query, AsOf asOf, Ident alias, List<Ident> columnAliases, Pos pos)
            implements FromItem {
    }

    public enum JoinType { INNER, LEFT, RIGHT, FULL, CROSS }

    /** A join; {@code on} null and {@code using} empty for CROSS (and for {@code FROM a, b}, kept as a list). */
    public record Join(JoinType type, FromItem left, FromItem right, Expr on, List<Ident> using, Pos pos)
            implements FromItem {
    }

    public record SortItem(Expr expr, boolean descending, Boolean nullsFirst) {
    }

    public record WindowDef(Ident name, WindowSpec spec, Pos pos) {
    }

    public enum FrameUnit { ROWS, RANGE }

    public enum BoundKind { UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING }

    public record FrameBound(BoundKind kind, Expr offset) {
    }

    public record Frame(FrameUnit unit, FrameBound start, FrameBound end) {
    }

    /** {@code [base] [PARTITION BY ...] [ORDER BY ...] [frame]}; {@code end} of the frame may be null. */
    public record WindowSpec(Ident base, List<Expr> partitionBy, List<SortItem> orderBy, Frame frame, Pos pos) {
    }
}
