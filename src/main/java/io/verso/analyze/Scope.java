package io.verso.analyze;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Names visible to the expressions of one statement: its relations, and for ORDER BY / GROUP BY
 * the output aliases. Resolves and validates every column reference and function call.
 */
public final class Scope {

    private final List<BoundRelation> relations;
    private final Set<String> outputAliases;
    private final int parameterCount;
    private final IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs = new IdentityHashMap<>();

    public Scope(List<BoundRelation> relations, Set<String> outputAliases, int parameterCount) {
        this.relations = relations;
        this.outputAliases = outputAliases;
        this.parameterCount = parameterCount;
    }

    public IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs() {
        return refs;
    }

    public BoundRelation relation(Ident qualifier) {
        return relations.stream().filter(r -> r.alias().equals(qualifier.name())).findFirst()
                .orElseThrow(() -> VersoException.at(ErrorCode.UNKNOWN_TABLE,
                        "'" + qualifier.name() + "' is not a table or alias of this statement", qualifier.pos()));
    }

    /** Checks an expression; {@code aliases} lets bare names refer to output columns. */
    public void check(Expr expr, boolean aliases) {
        if (expr == null) {
            return;
        }
        if (expr instanceof Expr.ColumnRef ref) {
            refs.put(ref, resolve(ref, aliases));
        } else if (expr instanceof Expr.Literal || expr instanceof Expr.Parameter) {
            return;
        } else if (expr instanceof Expr.Unary u) {
            check(u.operand(), aliases);
        } else if (expr instanceof Expr.Binary b) {
            check(b.left(), aliases);
            check(b.right(), aliases);
        } else if (expr instanceof Expr.Not n) {
            check(n.operand(), aliases);
        } else if (expr instanceof Expr.Between b) {
            check(b.value(), aliases);
            check(b.lower(), aliases);
            check(b.upper(), aliases);
        } else if (expr instanceof Expr.InList in) {
            check(in.value(), aliases);
            in.items().forEach(i -> check(i, aliases));
        } else if (expr instanceof Expr.Like l) {
            check(l.value(), aliases);
            check(l.pattern(), aliases);
        } else if (expr instanceof Expr.IsNull n) {
            check(n.value(), aliases);
        } else if (expr instanceof Expr.Cast c) {
            io.verso.catalog.ColumnType.from(c.type());
            check(c.value(), aliases);
        } else if (expr instanceof Expr.Case c) {
            check(c.operand(), aliases);
            c.whens().forEach(w -> {
                check(w.condition(), aliases);
                check(w.result(), aliases);
            });
            check(c.otherwise(), aliases);
        } else if (expr instanceof Expr.FunctionCall f) {
            checkFunction(f);
            f.args().forEach(a -> check(a, aliases));
        }
    }

    private void checkFunction(Expr.FunctionCall f) {
        Function function = Function.resolve(f);
        if (f.distinct() && !function.aggregate) {
            throw invalid(f.pos(), "DISTINCT applies to aggregate functions only, not " + function.sqlName());
        }
    }

    private static VersoException invalid(Pos pos, String message) {
        return VersoException.at(ErrorCode.INVALID_EXPRESSION, message, pos);
    }

    private ResolvedRef resolve(Expr.ColumnRef ref, boolean aliases) {
        String column = ref.column().name();
        if (ref.qualifier() != null) {
            BoundRelation relation = relation(ref.qualifier());
            if (!relation.columns().contains(column)) {
                throw unknown(ref, relation);
            }
            return new ResolvedRef(relation.alias(), column);
        }
        List<BoundRelation> matches = relations.stream().filter(r -> r.columns().contains(column)).toList();
        if (matches.size() > 1) {
            throw VersoException.at(ErrorCode.AMBIGUOUS_COLUMN, "column '" + column + "' is in "
                    + String.join(" and ", matches.stream().map(BoundRelation::alias).toList())
                    + ": qualify it", ref.pos());
        }
        if (matches.size() == 1) {
            return new ResolvedRef(matches.get(0).alias(), column);
        }
        if (aliases && outputAliases.contains(column)) {
            return new ResolvedRef(null, column);
        }
        throw unknown(ref, relations.size() == 1 ? relations.get(0) : null);
    }

    private static VersoException unknown(Expr.ColumnRef ref, BoundRelation relation) {
        String name = ref.qualifier() == null ? ref.column().name() : ref.qualifier().name() + "." + ref.column().name();
        return VersoException.at(ErrorCode.UNKNOWN_COLUMN, "unknown column '" + name + "'"
                + (relation == null ? "" : " in " + relation.table().name()), ref.pos());
    }

    public int parameterCount() {
        return parameterCount;
    }
}
