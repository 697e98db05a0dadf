package io.verso.surface;

import io.verso.analyze.Values;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.Origin;
import io.verso.error.VersoException;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Query;
import io.verso.sql.ast.Statement;
import io.verso.sql.ast.TypeSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The one builder of reads over a table, shared by REST, GraphQL and the change feed: it makes
 * syntax trees ({@link Statement.Select}) directly, never statement text, so the engine gets what a
 * parse of {@code /v1/sql} would give, with every node carrying the origin of the input it came
 * from (a parameter name, a JSON pointer, a GraphQL argument). Values only ever become {@code ?}
 * parameters of this builder's list, which one request's statements share; names come from the
 * catalog.
 */
public final class ReadBuilder {

    /** The order of a key's versions on every surface: as they were committed, groups apart within a commit. */
    public static final List<String> HISTORY_ORDER = List.of("_commit", "_group");

    private final List<Object> params = new ArrayList<>();
    private final List<Origin> origins = new ArrayList<>();

    /** The values the statements built so far bind, in placeholder order. */
    public List<Object> params() {
        return params;
    }

    /**
     * A position for nodes built from {@code origin}, remembered in order, so a caller that built
     * several parts into one request can tell which part an error's origin belongs to ({@link #originsMade}).
     */
    public Pos at(Origin origin) {
        origins.add(origin);
        return Pos.of(origin);
    }

    /** How many origins {@link #at} handed out so far. */
    public int originsMade() {
        return origins.size();
    }

    /** The place of {@code origin} (this very object) among the origins handed out, or -1. */
    public int originIndex(Origin origin) {
        for (int i = 0; i < origins.size(); i++) {
            if (origins.get(i) == origin) {
                return i;
            }
        }
        return -1;
    }

    /** A {@code ?} bound to {@code value}. */
    public Expr.Parameter param(Object value, Pos pos) {
        params.add(value);
        return new Expr.Parameter(params.size() - 1, pos);
    }

    /** {@code AS OF COMMIT ?}, or null for no commit: the engine checks the commit as for any AS OF. */
    public AsOf asOf(Long commit, Pos pos) {
        if (commit == null) {
            return null;
        }
        params.add(commit);
        return new AsOf.AtParameter(params.size() - 1, pos);
    }

    /**
     * {@code AS OF COMMIT ?} for a commit, else {@code AS OF TIMESTAMP ?} for a time (the engine judges
     * the text as for any AS OF TIMESTAMP, and reports the commit it resolved), else null.
     */
    public AsOf asOf(Long commit, String time, Pos commitPos, Pos timePos) {
        if (commit != null || time == null) {
            return asOf(commit, commitPos);
        }
        return new AsOf.AtTimestamp(param(time, timePos), timePos);
    }

    /** A read names a commit or a time to read at, never both. */
    public static void oneAsOf(Long commit, String time, Pos timePos) {
        if (commit != null && time != null) {
            throw VersoException.at(ErrorCode.INVALID_PARAMETER, "give asOfCommit or asOfTime, not both", timePos);
        }
    }

    public static Expr column(ColumnDef column, Pos pos) {
        return column(column.name(), pos);
    }

    public static Expr column(String name, Pos pos) {
        return new Expr.ColumnRef(null, new Ident(name, pos), pos);
    }

    /**
     * A value compared with {@code column}: checked against the column's type by the one value
     * codec every write also goes through ({@link Values#toText}), then bound as {@code CAST(? AS
     * base type)} so a comparison value is not rounded to the column's precision first.
     */
    public Expr value(ColumnDef column, Object value, Pos pos) {
        String text = Values.toText(column, value, pos, null);
        return new Expr.Cast(param(text, pos), new TypeSpec(column.type().comparisonTypeName(), null, null, pos), pos);
    }

    // ---- filters -------------------------------------------------------------------------------

    /** The predicate of a filter tree. */
    public Expr where(Filter filter) {
        if (filter instanceof Filter.All all) {
            return junction(all.parts(), Expr.BinaryOp.AND, true, all.pos());
        }
        if (filter instanceof Filter.Any any) {
            return junction(any.parts(), Expr.BinaryOp.OR, false, any.pos());
        }
        if (filter instanceof Filter.Not not) {
            return new Expr.Not(where(not.part()), not.pos());
        }
        return compare((Filter.Compare) filter);
    }

    private Expr junction(List<Filter> parts, Expr.BinaryOp op, boolean empty, Pos pos) {
        Expr out = null;
        for (Filter part : parts) {
            Expr e = where(part);
            out = out == null ? e : new Expr.Binary(op, out, e, pos);
        }
        return out != null ? out : bool(empty, pos);
    }

    private Expr compare(Filter.Compare c) {
        Expr column = column(c.column(), c.pos());
        switch (c.op()) {
            case IS_NULL, NOT_NULL -> {
                return new Expr.IsNull(c.op() == Filter.Op.NOT_NULL, column, c.pos());
            }
            case IN, NOT_IN -> {
                if (c.values().isEmpty()) {
                    return bool(c.op() == Filter.Op.NOT_IN, c.pos());
                }
                List<Expr> items = new ArrayList<>();
                c.values().forEach(v -> items.add(value(c.column(), v, c.pos())));
                return new Expr.InList(c.op() == Filter.Op.NOT_IN, column, items, c.pos());
            }
            case LIKE, ILIKE -> {
                return new Expr.Like(false, c.op() == Filter.Op.ILIKE, column,
                        new Expr.Cast(param(text(c), c.pos()), new TypeSpec("text", null, null, c.pos()), c.pos()),
                        c.pos());
            }
            default -> {
                Expr.BinaryOp op = switch (c.op()) {
                    case EQ -> Expr.BinaryOp.EQ;
                    case NE -> Expr.BinaryOp.NEQ;
                    case LT -> Expr.BinaryOp.LT;
                    case LE -> Expr.BinaryOp.LTE;
                    case GT -> Expr.BinaryOp.GT;
                    default -> Expr.BinaryOp.GTE;
                };
                return new Expr.Binary(op, column, value(c.column(), c.values().get(0), c.pos()), c.pos());
            }
        }
    }

    private static String text(Filter.Compare c) {
        Object value = c.values().get(0);
        return value == null ? null : value.toString();
    }

    private static Expr bool(boolean value, Pos pos) {
        return new Expr.Literal(Expr.LiteralKind.BOOLEAN, Boolean.toString(value), pos);
    }

    /** {@code k1 = v1 AND k2 = v2 ...} over the key columns, one origin per key value. */
    public Expr keyEquals(TableDef table, List<?> values, List<Pos> positions) {
        List<ColumnDef> keys = table.keyColumns();
        Expr out = null;
        for (int k = 0; k < keys.size(); k++) {
            Pos pos = positions.get(k);
            Expr e = new Expr.Binary(Expr.BinaryOp.EQ, column(keys.get(k), pos), value(keys.get(k), values.get(k), pos),
                    pos);
            out = out == null ? e : new Expr.Binary(Expr.BinaryOp.AND, out, e, pos);
        }
        return out;
    }

    public static Expr and(Expr left, Expr right, Pos pos) {
        if (left == null) {
            return right;
        }
        return right == null ? left : new Expr.Binary(Expr.BinaryOp.AND, left, right, pos);
    }

    public static Expr or(List<Expr> terms, Pos pos) {
        Expr out = null;
        for (Expr e : terms) {
            out = out == null ? e : new Expr.Binary(Expr.BinaryOp.OR, out, e, pos);
        }
        return out != null ? out : bool(false, pos);
    }

    // ---- order and pages -----------------------------------------------------------------------

    /** One column of a page's order; {@code nullsFirst} null means PostgreSQL's default (last ascending). */
    public record Sort(ColumnDef column, boolean descending, Boolean nullsFirst) {
    }

    /**
     * The page order: the asked columns, then the key (without a key, every column), so a page
     * boundary is the same on every read of the same commit.
     */
    public static List<Sort> withTieBreak(TableDef table, List<Sort> asked) {
        List<Sort> sorts = new ArrayList<>(asked);
        for (ColumnDef column : table.mode().keyed() ? table.keyColumns() : table.columns()) {
            if (sorts.stream().noneMatch(s -> s.column().name().equals(column.name()))) {
                sorts.add(new Sort(column, false, null));
            }
        }
        return sorts;
    }

    public static List<Query.SortItem> orderBy(List<Sort> sorts, Pos pos) {
        return sorts.stream().map(s -> new Query.SortItem(column(s.column(), pos), s.descending(), s.nullsFirst()))
                .toList();
    }

    /** ORDER BY the named columns (pseudo-columns of history(t) and changes(t) included), ascending. */
    public static List<Query.SortItem> orderByNames(List<String> columns, Pos pos) {
        return columns.stream().map(c -> new Query.SortItem(column(c, pos), false, null)).toList();
    }

    /**
     * Rows after {@code values} in the order {@code sorts} (keyset paging): for each position i, the
     * rows equal on the columns before i and after the value at i. NULLs sort last ascending and
     * first descending (PostgreSQL's default), which every keyset sort uses.
     */
    public Expr after(List<Sort> sorts, List<?> values, Pos pos) {
        List<Expr> terms = new ArrayList<>();
        for (int i = 0; i < sorts.size(); i++) {
            Expr term = null;
            for (int j = 0; j < i; j++) {
                ColumnDef column = sorts.get(j).column();
                Expr equal = values.get(j) == null ? new Expr.IsNull(false, column(column, pos), pos)
                        : new Expr.Binary(Expr.BinaryOp.EQ, column(column, pos), value(column, values.get(j), pos), pos);
                term = and(term, equal, pos);
            }
            Sort sort = sorts.get(i);
            Object value = values.get(i);
            Expr beyond;
            if (sort.descending()) {
                beyond = value == null ? new Expr.IsNull(true, column(sort.column(), pos), pos)
                        : new Expr.Binary(Expr.BinaryOp.LT, column(sort.column(), pos),
                                value(sort.column(), value, pos), pos);
            } else if (value == null) {
                beyond = bool(false, pos);
            } else {
                beyond = new Expr.Binary(Expr.BinaryOp.OR, new Expr.Binary(Expr.BinaryOp.GT, column(sort.column(), pos),
                        value(sort.column(), value, pos), pos), new Expr.IsNull(false, column(sort.column(), pos), pos),
                        pos);
            }
            terms.add(and(term, beyond, pos));
        }
        return or(terms, pos);
    }

    // ---- statements ----------------------------------------------------------------------------

    /** What a read reads from: a table, its {@code history(t)} or its {@code changes(t)}. */
    public enum Source { ROWS, HISTORY, CHANGES }

    /**
     * {@code SELECT items FROM source(table) [WHERE] [ORDER BY] [LIMIT] [OFFSET] [AS OF COMMIT]}.
     * {@code items} empty means {@code *}; {@code tablePos} is the origin of the table's name.
     */
    public static Statement.Select select(List<Query.SelectItem> items, String table, Source source, Pos tablePos,
                                          Expr where, List<Query.SortItem> orderBy, Long limit, Long offset,
                                          AsOf asOf, Pos pos) {
        Query.TableRef from = new Query.TableRef(new Ident(table, tablePos), source == Source.HISTORY,
                source == Source.CHANGES, null, null, List.of(), tablePos);
        Query.Block block = new Query.Block(false, items.isEmpty() ? List.of(new Query.SelectItem.All(pos)) : items,
                List.of(from), where, List.of(), null, List.of(), pos);
        return new Statement.Select(new Query(List.of(), block, orderBy, asOf, number(limit, pos), number(offset, pos),
                pos), pos);
    }

    /**
     * {@code SELECT * FROM table AS OF COMMIT ? [WHERE]}, the AS OF on the table itself rather than
     * trailing, so subqueries of {@code where} read as of nothing unless they say so.
     */
    public static Statement.Select selectAt(String table, Pos tablePos, Expr where, AsOf asOf, Pos pos) {
        Query.TableRef from = new Query.TableRef(new Ident(table, tablePos), false, false, asOf, null, List.of(),
                tablePos);
        Query.Block block = new Query.Block(false, List.of(new Query.SelectItem.All(pos)), List.of(from), where,
                List.of(), null, List.of(), pos);
        return new Statement.Select(new Query(List.of(), block, List.of(), null, null, null, pos), pos);
    }

    /**
     * {@code EXISTS (SELECT 1 FROM history(table) AS h WHERE h.k = table.k ... AND h._current_from > ?
     * [AND h._current_from <= ?])}: a group of the row's key got a new winner after commit {@code from}
     * (and at or before {@code to}, when given). A key's row can differ between two commits only then:
     * a winner stops being current only at the commit its successor starts, so every change of a row
     * has a version starting it. {@code table} is read without an alias.
     */
    public Expr changedAfter(TableDef table, long from, Long to, Pos pos) {
        // Any name but the table's own, which the condition refers to from inside.
        String inner = table.name().equalsIgnoreCase("_changed") ? "_changed_" : "_changed";
        Query.TableRef history = new Query.TableRef(new Ident(table.name(), pos), true, false, null,
                new Ident(inner, pos), List.of(), pos);
        Expr start = new Expr.ColumnRef(new Ident(inner, pos), new Ident("_current_from", pos), pos);
        // Implied by the bounds, but said as such: it is what skips the versions that never were current
        // (RelationCompiler.wasCurrent).
        Expr where = new Expr.IsNull(true, start, pos);
        for (ColumnDef key : table.keyColumns()) {
            where = and(where, new Expr.Binary(Expr.BinaryOp.EQ,
                    new Expr.ColumnRef(new Ident(inner, pos), new Ident(key.name(), pos), pos),
                    new Expr.ColumnRef(new Ident(table.name(), pos), new Ident(key.name(), pos), pos), pos), pos);
        }
        where = and(where, new Expr.Binary(Expr.BinaryOp.GT, start, param(from, pos), pos), pos);
        if (to != null) {
            where = and(where, new Expr.Binary(Expr.BinaryOp.LTE, start, param(to, pos), pos), pos);
        }
        Query.Block block = new Query.Block(false, List.of(new Query.SelectItem.Item(
                new Expr.Literal(Expr.LiteralKind.INTEGER, "1", pos), null, pos)), List.of(history), where, List.of(),
                null, List.of(), pos);
        return new Expr.Exists(new Query(List.of(), block, List.of(), null, null, null, pos), pos);
    }

    /** A row count or position the service computed itself (never request text): a literal. */
    private static Expr number(Long value, Pos pos) {
        return value == null ? null : new Expr.Literal(Expr.LiteralKind.INTEGER, Long.toString(value), pos);
    }

    /** {@code name(column)}, an aggregate over one column. */
    public static Query.SelectItem call(String function, ColumnDef column, Pos pos) {
        return new Query.SelectItem.Item(new Expr.FunctionCall(new Ident(function, pos), false, false,
                List.of(column(column, pos)), pos), null, pos);
    }

    public static Query.SelectItem countStar(Pos pos) {
        return new Query.SelectItem.Item(new Expr.FunctionCall(new Ident("count", pos), false, true, List.of(), pos),
                null, pos);
    }

    // ---- shared rules --------------------------------------------------------------------------

    /** Page sizes: the same default, bounds and code on every surface. */
    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1000;

    /** A page size asked for, or the default; INVALID_LIMIT at {@code pos} outside 1 to {@code max}. */
    public static int limit(Integer asked, int defaultLimit, int max, Pos pos) {
        if (asked == null) {
            return defaultLimit;
        }
        if (asked < 1 || asked > max) {
            throw VersoException.at(ErrorCode.INVALID_LIMIT, "limit must be between 1 and " + max + ", not " + asked,
                    pos);
        }
        return asked;
    }

    /** A page's starting row; INVALID_LIMIT at {@code pos} when negative. */
    public static long offset(Integer asked, Pos pos) {
        if (asked == null) {
            return 0;
        }
        if (asked < 0) {
            throw VersoException.at(ErrorCode.INVALID_LIMIT, "offset must not be negative, not " + asked, pos);
        }
        return asked;
    }
}
