package io.verso.compile;

import io.verso.analyze.Function;
import io.verso.analyze.ServerSettings;
import io.verso.analyze.ResolvedRef;
import io.verso.catalog.ColumnType;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Query;
import java.math.BigDecimal;
import java.util.IdentityHashMap;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Emits an analysed expression as PostgreSQL. Every construct here is one the dialect lists;
 * literals and parameters become binds, column references the quoted names the analyzer resolved.
 */
public final class ExprCompiler {

    /** Emits a subquery: the read compiler, which owns how relations are read. */
    @FunctionalInterface
    public interface QueryEmitter {
        void emit(SqlBuilder b, Query query);
    }

    private final IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs;
    private final List<Object> params;
    private final QueryEmitter queries;
    /** Guarded chains being written: only the outermost weighs what the chain compiles to. */
    private int chainsOpen;

    public ExprCompiler(IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs, List<Object> params) {
        this(refs, params, null);
    }

    /**
     * {@code refs} null: column references are emitted as written (quoted), for PostgreSQL to
     * resolve against the same scopes the analyzer checked.
     */
    /**
     * The compiler of the subquery {@code at}. A statement compiled without one (an UPDATE or DELETE of a
     * system-versioned table, a CHECK, a time bound) takes no subquery: refused as such, never a null.
     */
    private QueryEmitter queries(Expr at) {
        if (queries == null) {
            throw VersoException.at(ErrorCode.NOT_SUPPORTED, "a subquery is not supported here (in the WHERE or SET "
                    + "of an UPDATE or DELETE of a system-versioned table, a CHECK, or a time bound)", at.pos());
        }
        return queries;
    }

    public ExprCompiler(IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs, List<Object> params, QueryEmitter queries) {
        this.refs = refs;
        this.params = params;
        this.queries = queries;
    }

    public void emit(SqlBuilder b, Expr expr) {
        if (expr instanceof Expr.Literal lit) {
            literal(b, lit);
        } else if (expr instanceof Expr.Parameter p) {
            b.bind(params instanceof ParamSlots ? new ParamSlots.Slot(p.index(), false) : parameter(params.get(p.index())));
        } else if (expr instanceof Expr.ColumnRef ref && refs == null) {
            if (ref.qualifier() == null) {
                b.ident(ref.column().name());
            } else {
                b.qualified(ref.qualifier().name(), ref.column().name());
            }
        } else if (expr instanceof Expr.ColumnRef ref) {
            ResolvedRef resolved = refs.get(ref);
            if (resolved.qualifier() == null) {
                b.ident(resolved.column());
            } else {
                b.qualified(resolved.qualifier(), resolved.column());
            }
        } else if (expr instanceof Expr.Unary u) {
            b.sql(u.op() == Expr.UnaryOp.MINUS ? "(- " : "(+ ");
            emit(b, u.operand());
            b.sql(")");
        } else if (expr instanceof Expr.Binary bin && bin.op() == Expr.BinaryOp.CONCAT) {
            concatenation(b, bin);
        } else if (expr instanceof Expr.Binary bin) {
            b.sql("(");
            emit(b, bin.left());
            b.sql(" ").sql(bin.op().sql).sql(" ");
            emit(b, bin.right());
            b.sql(")");
        } else if (expr instanceof Expr.Not n) {
            b.sql("(NOT ");
            emit(b, n.operand());
            b.sql(")");
        } else if (expr instanceof Expr.Between bt) {
            b.sql("(");
            emit(b, bt.value());
            b.sql(bt.negated() ? " NOT BETWEEN " : " BETWEEN ");
            emit(b, bt.lower());
            b.sql(" AND ");
            emit(b, bt.upper());
            b.sql(")");
        } else if (expr instanceof Expr.InList in) {
            b.sql("(");
            emit(b, in.value());
            b.sql(in.negated() ? " NOT IN (" : " IN (");
            list(b, in.items());
            b.sql("))");
        } else if (expr instanceof Expr.Like l) {
            b.sql("(");
            emit(b, l.value());
            b.sql(l.negated() ? " NOT" : "").sql(l.caseInsensitive() ? " ILIKE " : " LIKE ");
            emit(b, l.pattern());
            b.sql(")");
        } else if (expr instanceof Expr.IsNull n) {
            b.sql("(");
            emit(b, n.value());
            b.sql(n.negated() ? " IS NOT NULL)" : " IS NULL)");
        } else if (expr instanceof Expr.Cast c) {
            b.sql("CAST(");
            Object text = castText(c.value());
            if (text != null) {
                // The type's input function reads it either way; typed text needs no inference (CompiledSql.TextBind).
                b.bind(text);
            } else {
                emit(b, c.value());
            }
            b.sql(" AS ").sql(ColumnType.from(c.type()).sql()).sql(")");
        } else if (expr instanceof Expr.Case c) {
            b.sql("CASE");
            if (c.operand() != null) {
                b.sql(" ");
                emit(b, c.operand());
            }
            for (Expr.When when : c.whens()) {
                b.sql(" WHEN ");
                emit(b, when.condition());
                b.sql(" THEN ");
                emit(b, when.result());
            }
            if (c.otherwise() != null) {
                b.sql(" ELSE ");
                emit(b, c.otherwise());
            }
            b.sql(" END");
        } else if (expr instanceof Expr.FunctionCall f) {
            function(b, f);
        } else if (expr instanceof Expr.Special s) {
            special(b, s);
        } else if (expr instanceof Expr.Subquery s) {
            b.sql("(");
            queries(s).emit(b, s.query());
            b.sql(")");
        } else if (expr instanceof Expr.Exists e) {
            b.sql("EXISTS (");
            queries(e).emit(b, e.query());
            b.sql(")");
        } else if (expr instanceof Expr.InSubquery in) {
            QueryEmitter query = queries(in); // before the value, which was bound only where subqueries are
            b.sql("(");
            emit(b, in.value());
            b.sql(in.negated() ? " NOT IN (" : " IN (");
            query.emit(b, in.query());
            b.sql("))");
        } else if (expr instanceof Expr.Quantified q) {
            QueryEmitter query = queries(q);
            b.sql("(");
            emit(b, q.value());
            b.sql(" ").sql(q.op().sql).sql(q.all() ? " ALL (" : " ANY (");
            query.emit(b, q.query());
            b.sql("))");
        } else if (expr instanceof Expr.DistinctFrom d) {
            b.sql("(");
            emit(b, d.left());
            b.sql(d.negated() ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ");
            emit(b, d.right());
            b.sql(")");
        } else if (expr instanceof Expr.BooleanTest t) {
            b.sql("(");
            emit(b, t.value());
            b.sql(t.negated() ? " IS NOT " : " IS ").sql(t.truth() ? "TRUE)" : "FALSE)");
        }
    }

    private void function(SqlBuilder b, Expr.FunctionCall f) {
        Function function = Function.named(f.name().name()).orElseThrow();
        if (concatCall(f)) {
            concatenation(b, f); // guarded like a || chain, which it is but for NULLs
            return;
        }
        if (function == Function.REPLACE && f.over() == null && f.filter() == null && f.args().size() == 3) {
            replacement(b, f);
            return;
        }
        if (function == Function.CURRENT_SETTING || function == Function.CURRENT_USER
                || function == Function.SESSION_USER || function == Function.USER) {
            // The service's own values (the analyzer checked the setting's name), never the storage database's.
            String value = function == Function.CURRENT_SETTING
                    ? ServerSettings.value(((Expr.Literal) f.args().get(0)).text()).orElseThrow() : ServerSettings.USER;
            b.sql("CAST(").bind(value).sql(" AS text)");
            return;
        }
        b.sql(function.sqlName());
        if (function.kind == Function.Kind.BARE) {
            return;
        }
        b.sql("(");
        if (f.star()) {
            b.sql("*");
        } else {
            if (f.distinct()) {
                b.sql("DISTINCT ");
            }
            if (function == Function.JSONB_BUILD_OBJECT || function == Function.CONCAT) {
                // These take "any": PostgreSQL cannot infer a bound string's type there, so say it.
                for (int i = 0; i < f.args().size(); i++) {
                    Expr arg = f.args().get(i);
                    boolean text = textBind(arg);
                    b.sql(i > 0 ? ", " : "").sql(text ? "CAST(" : "");
                    emit(b, arg);
                    b.sql(text ? " AS text)" : "");
                }
            } else if (function == Function.LPAD || function == Function.RPAD) {
                // The length to build, bounded like a || chain (verso.length_fits, V20): VALUE_TOO_LARGE beyond it.
                for (int i = 0; i < f.args().size(); i++) {
                    b.sql(i == 0 ? "" : i == 1 ? ", verso.length_fits(" : ", ");
                    emit(b, f.args().get(i));
                    if (i == 1) {
                        b.sql(", ").guardedValues().sql(")");
                    }
                }
            } else {
                list(b, f.args());
            }
            sortItems(b, " ORDER BY ", f.orderBy());
        }
        b.sql(")");
        if (!f.withinGroup().isEmpty()) {
            b.sql(" WITHIN GROUP (");
            sortItems(b, "ORDER BY ", f.withinGroup());
            b.sql(")");
        }
        if (f.filter() != null) {
            b.sql(" FILTER (WHERE ");
            emit(b, f.filter());
            b.sql(")");
        }
        if (f.over() != null) {
            if (f.over().name() != null) {
                b.sql(" OVER ").ident(f.over().name().name());
            } else {
                b.sql(" OVER (");
                windowSpec(b, f.over().spec());
                b.sql(")");
            }
        }
    }

    private void sortItems(SqlBuilder b, String prefix, List<Query.SortItem> items) {
        for (int i = 0; i < items.size(); i++) {
            Query.SortItem sort = items.get(i);
            b.sql(i == 0 ? prefix : ", ");
            emit(b, sort.expr());
            b.sql(sort.descending() ? " DESC" : " ASC");
            if (sort.nullsFirst() != null) {
                b.sql(sort.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
            }
        }
    }

    /** The inside of {@code OVER (...)} or of a WINDOW definition. */
    public void windowSpec(SqlBuilder b, Query.WindowSpec spec) {
        String sep = "";
        if (spec.base() != null) {
            b.ident(spec.base().name());
            sep = " ";
        }
        if (!spec.partitionBy().isEmpty()) {
            b.sql(sep).sql("PARTITION BY ");
            list(b, spec.partitionBy());
            sep = " ";
        }
        if (!spec.orderBy().isEmpty()) {
            b.sql(sep);
            sortItems(b, "ORDER BY ", spec.orderBy());
            sep = " ";
        }
        if (spec.frame() != null) {
            b.sql(sep).sql(spec.frame().unit().name());
            if (spec.frame().end() == null) {
                b.sql(" ");
                frameBound(b, spec.frame().start());
            } else {
                b.sql(" BETWEEN ");
                frameBound(b, spec.frame().start());
                b.sql(" AND ");
                frameBound(b, spec.frame().end());
            }
        }
    }

    private void frameBound(SqlBuilder b, Query.FrameBound bound) {
        switch (bound.kind()) {
            case UNBOUNDED_PRECEDING -> b.sql("UNBOUNDED PRECEDING");
            case UNBOUNDED_FOLLOWING -> b.sql("UNBOUNDED FOLLOWING");
            case CURRENT_ROW -> b.sql("CURRENT ROW");
            case PRECEDING, FOLLOWING -> {
                emit(b, bound.offset());
                b.sql(bound.kind() == Query.BoundKind.PRECEDING ? " PRECEDING" : " FOLLOWING");
            }
        }
    }

    private void special(SqlBuilder b, Expr.Special s) {
        List<Expr> args = s.args();
        switch (s.form()) {
            case EXTRACT -> {
                // The field is a keyword of a fixed set; it travels as a bind of date_part's first argument
                // would change the result type, so it is checked and emitted from our own list.
                b.sql("EXTRACT(").sql(ExtractField.of(s.text(), s.pos())).sql(" FROM ");
                emit(b, args.get(0));
                b.sql(")");
            }
            case POSITION -> {
                b.sql("position(");
                emit(b, args.get(0));
                b.sql(" IN ");
                emit(b, args.get(1));
                b.sql(")");
            }
            case SUBSTRING -> {
                b.sql("substring(");
                emit(b, args.get(0));
                b.sql(" FROM ");
                emit(b, args.get(1));
                if (args.size() > 2) {
                    b.sql(" FOR ");
                    emit(b, args.get(2));
                }
                b.sql(")");
            }
            case SUBSCRIPT -> {
                b.sql("(");
                emit(b, args.get(0));
                b.sql(")[");
                emit(b, args.get(1));
                b.sql("]");
            }
            case TRIM_BOTH, TRIM_LEADING, TRIM_TRAILING -> {
                b.sql("trim(").sql(s.form() == Expr.SpecialForm.TRIM_BOTH ? "BOTH "
                        : s.form() == Expr.SpecialForm.TRIM_LEADING ? "LEADING " : "TRAILING ");
                if (args.size() > 1) {
                    emit(b, args.get(1));
                    b.sql(" ");
                }
                b.sql("FROM ");
                emit(b, args.get(0));
                b.sql(")");
            }
        }
    }

    private void list(SqlBuilder b, List<Expr> items) {
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                b.sql(", ");
            }
            emit(b, items.get(i));
        }
    }

    private static void literal(SqlBuilder b, Expr.Literal lit) {
        switch (lit.kind()) {
            case NULL -> b.sql("NULL");
            case BOOLEAN -> b.sql(Boolean.parseBoolean(lit.text()) ? "TRUE" : "FALSE");
            // Numerals are inlined (see SqlBuilder.numeral): GROUP BY ix % 10 must be the same tree as the SELECT's.
            case INTEGER, DECIMAL -> {
                if (SqlBuilder.isNumeral(lit.text())) {
                    b.numeral(lit.text());
                } else {
                    BigDecimal value = new BigDecimal(lit.text());
                    b.bind(lit.kind() == Expr.LiteralKind.INTEGER ? integer(value) : value);
                }
            }
            case STRING -> b.bind(lit.text());
            case DATE -> b.sql("CAST(").bind(lit.text()).sql(" AS date)");
            case TIMESTAMP -> b.sql("CAST(").bind(lit.text()).sql(" AS timestamp)");
            case TIMESTAMPTZ -> b.sql("CAST(").bind(lit.text()).sql(" AS timestamptz)");
            case INTERVAL -> b.sql("CAST(").bind(lit.text()).sql(" AS interval)");
        }
    }

    /** Smallest Java type for an integer, so PostgreSQL sees int4 where it expects one (round(x, 2)). */
    static Object integer(BigDecimal value) {
        try {
            return value.intValueExact();
        } catch (ArithmeticException notInt) {
            try {
                return value.longValueExact();
            } catch (ArithmeticException notLong) {
                return value;
            }
        }
    }

    /**
     * The bind of a CAST's operand as typed text when it is a string literal or a request parameter holding one
     * (a {@link ParamSlots.Slot} for a parameter of a statement that may be kept), else null.
     */
    private Object castText(Expr value) {
        if (value instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING) {
            return new CompiledSql.TextBind(lit.text());
        }
        if (!(value instanceof Expr.Parameter p) || !isText(p.index())) {
            return null;
        }
        return params instanceof ParamSlots ? new ParamSlots.Slot(p.index(), true)
                : new CompiledSql.TextBind((String) parameter(params.get(p.index())));
    }

    /** Whether parameter {@code index} is bound as a string: decided by its class (ParamSlots#isText). */
    private boolean isText(int index) {
        return params instanceof ParamSlots slots ? slots.isText(index) : parameter(params.get(index)) instanceof String;
    }

    /** A request parameter as a bind value: numbers keep their precision, JSON structures become text. */
    static Object parameter(Object value) {
        if (value instanceof BigDecimal d) {
            return d.scale() <= 0 ? integer(d) : d;
        }
        if (value instanceof Long l) {
            return integer(BigDecimal.valueOf(l));
        }
        if (value instanceof JsonNode node) {
            return node.isString() ? node.asString() : node.toString();
        }
        return value;
    }

    /**
     * A {@code ||} chain, guarded: PostgreSQL keeps every intermediate result of a row's expression until
     * the row is done, so the chain builds each term once per concatenation above it ({@code s || s || s}
     * builds 2s then 3s). The guard adds up the terms' lengths so weighted before building anything, and
     * {@code verso.concat_fits} (V20) refuses a chain over its share of {@code verso.max-concat-bytes} with
     * VALUE_TOO_LARGE. The statement's guarded values share that bound ({@link SqlBuilder#guardedValues}):
     * PostgreSQL holds all of a row's values until the row is done, so a hundred chains side by side, each
     * under the bound, would otherwise hold a hundred times it. The chain itself is emitted as written, so
     * its types and NULL handling are PostgreSQL's.
     */
    private void concatenation(SqlBuilder b, Expr chain) {
        if (chainsOpen == 0 && emitted(chain) > SqlBuilder.MAX_CHARS) {
            // Each node emits at least a character: refused as the builder would refuse it, before building any.
            throw SqlBuilder.tooLarge();
        }
        chainsOpen++;
        try {
            guardedConcatenation(b, chain);
        } finally {
            chainsOpen--;
        }
    }

    /**
     * How many nodes {@code e} compiles to, counted in one walk of its tree: a guarded chain writes each of its
     * terms twice (in its guard, then in itself) and {@code replace} its arguments four times, so chains nested
     * in each other's terms double at each level. Saturates far below overflow.
     */
    private static long emitted(Expr e) {
        long n;
        if (e instanceof Expr.Binary bin && bin.op() == Expr.BinaryOp.CONCAT || concatCall(e)) {
            n = 1;
            for (Term term : chainTerms(e)) {
                n += 2 * emitted(term.expr()) + 1;
            }
        } else {
            long copies = e instanceof Expr.FunctionCall f && f.args().size() == 3
                    && Function.named(f.name().name()).orElse(null) == Function.REPLACE ? 4 : 1;
            n = 1;
            for (Expr child : io.verso.analyze.ReadAnalyzer.children(e)) {
                n += copies * emitted(child);
            }
        }
        return Math.min(n, Long.MAX_VALUE / 16);
    }

    /** A term of a chain, and how many concatenations above it build it again ({@link #guardedConcatenation}). */
    private record Term(Expr expr, int depth) {
    }

    /** The terms of a {@code ||} chain or {@code concat(...)} call, nested chains flattened, in order. */
    private static List<Term> chainTerms(Expr chain) {
        List<Term> terms = new java.util.ArrayList<>();
        java.util.ArrayDeque<Term> pending = new java.util.ArrayDeque<>();
        pending.push(new Term(chain, 0));
        while (!pending.isEmpty()) {
            Term next = pending.pop();
            Expr e = next.expr();
            if (e instanceof Expr.Binary bin && bin.op() == Expr.BinaryOp.CONCAT) {
                pending.push(new Term(bin.right(), next.depth() + 1));
                pending.push(new Term(bin.left(), next.depth() + 1));
            } else if (concatCall(e)) {
                // concat(a, b, c) builds its result once: one level above each argument.
                List<Expr> args = ((Expr.FunctionCall) e).args();
                for (int i = args.size() - 1; i >= 0; i--) {
                    pending.push(new Term(args.get(i), next.depth() + 1));
                }
            } else {
                terms.add(next);
            }
        }
        return terms;
    }

    private void guardedConcatenation(SqlBuilder b, Expr chain) {
        List<Term> terms = chainTerms(chain);
        b.sql("(CASE WHEN verso.concat_fits(ARRAY[");
        for (int i = 0; i < terms.size(); i++) {
            b.sql(i == 0 ? "" : ", ");
            textLength(b, terms.get(i).expr());
            b.sql(" * ").number(terms.get(i).depth());
        }
        b.sql("], ").guardedValues().sql(") THEN ");
        concatenationTree(b, chain);
        b.sql(" END)");
    }

    /**
     * {@code replace(s, from, to)}, guarded: every occurrence of {@code from} in {@code s} can grow the
     * result by {@code to}'s extra length, so the largest result, {@code len(s) + len(s) / len(from) *
     * (len(to) - len(from))}, is checked by {@code verso.replace_fits} (V20) against its share of
     * {@code verso.max-concat-bytes}, as a chain is, before anything is built (VALUE_TOO_LARGE beyond it).
     */
    private void replacement(SqlBuilder b, Expr.FunctionCall f) {
        Expr source = f.args().get(0);
        Expr from = f.args().get(1);
        Expr to = f.args().get(2);
        b.sql("(CASE WHEN verso.replace_fits(");
        textLength(b, source);
        b.sql(" + ");
        textLength(b, source);
        b.sql(" / greatest(");
        textLength(b, from);
        b.sql(", 1) * greatest(");
        textLength(b, to);
        b.sql(" - ");
        textLength(b, from);
        b.sql(", 0), ").guardedValues().sql(") THEN ").sql(Function.REPLACE.sqlName()).sql("(");
        list(b, f.args());
        b.sql(") END)");
    }

    /** {@code coalesce(octet_length(CAST(e AS text)), 0)} as a bigint: a term's size for the guards above. */
    private void textLength(SqlBuilder b, Expr e) {
        b.sql("coalesce(CAST(octet_length(CAST(");
        emit(b, e);
        b.sql(" AS text)) AS bigint), 0)");
    }

    private void concatenationTree(SqlBuilder b, Expr expr) {
        if (expr instanceof Expr.Binary bin && bin.op() == Expr.BinaryOp.CONCAT) {
            b.sql("(");
            concatenationTree(b, bin.left());
            b.sql(" || ");
            concatenationTree(b, bin.right());
            b.sql(")");
        } else if (concatCall(expr)) {
            List<Expr> args = ((Expr.FunctionCall) expr).args();
            b.sql(Function.CONCAT.sqlName()).sql("(");
            for (int i = 0; i < args.size(); i++) {
                // concat takes "any": PostgreSQL cannot infer a bound string's type there, so say it.
                boolean text = textBind(args.get(i));
                b.sql(i > 0 ? ", " : "").sql(text ? "CAST(" : "");
                concatenationTree(b, args.get(i));
                b.sql(text ? " AS text)" : "");
            }
            b.sql(")");
        } else {
            emit(b, expr);
        }
    }

    /**
     * {@code concat(...)}: nested in a {@code ||} chain or in another concat, or holding them, it builds its
     * arguments' intermediate values just the same, so the chain guard counts it as one more level.
     */
    private static boolean concatCall(Expr expr) {
        return expr instanceof Expr.FunctionCall f && f.over() == null && !f.star() && !f.distinct()
                && Function.named(f.name().name()).orElse(null) == Function.CONCAT;
    }

    private boolean textBind(Expr arg) {
        return arg instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.STRING
                || arg instanceof Expr.Parameter p && (params instanceof ParamSlots slots ? slots.isString(p.index())
                        : params.get(p.index()) instanceof String);
    }
}
