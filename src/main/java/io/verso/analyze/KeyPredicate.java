package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.sql.ast.Expr;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Recognises a DELETE whose WHERE fixes every key column by equality or IN lists. Such a delete
 * names its keys, and writes their tombstones whether or not they have a live row, so that it also
 * wins over writes it supersedes that arrive after it.
 */
public final class KeyPredicate {

    private KeyPredicate() {
    }

    /** The keys named, as value maps, or null when the predicate does not fix every key column. */
    public static List<Map<String, Object>> explicitKeys(Expr where, List<ColumnDef> keys, List<Object> params) {
        if (where == null) {
            return null;
        }
        List<Expr> conjuncts = new ArrayList<>();
        flatten(where, conjuncts);
        Map<String, List<Object>> valuesByKey = new LinkedHashMap<>();
        for (Expr conjunct : conjuncts) {
            String column;
            List<Expr> items;
            if (conjunct instanceof Expr.Binary b && b.op() == Expr.BinaryOp.EQ) {
                if (b.left() instanceof Expr.ColumnRef ref && isValue(b.right())) {
                    column = ref.column().name();
                    items = List.of(b.right());
                } else if (b.right() instanceof Expr.ColumnRef ref && isValue(b.left())) {
                    column = ref.column().name();
                    items = List.of(b.left());
                } else {
                    return null;
                }
            } else if (conjunct instanceof Expr.InList in && !in.negated() && in.value() instanceof Expr.ColumnRef ref
                    && in.items().stream().allMatch(KeyPredicate::isValue)) {
                column = ref.column().name();
                items = in.items();
            } else {
                return null;
            }
            if (keys.stream().noneMatch(k -> k.name().equals(column)) || valuesByKey.containsKey(column)) {
                return null;
            }
            List<Object> values = new ArrayList<>();
            for (Expr item : items) {
                Object value = Values.valueOf(item, params);
                if (value == null) {
                    return null;
                }
                values.add(value);
            }
            valuesByKey.put(column, values);
        }
        if (valuesByKey.size() != keys.size()) {
            return null;
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(new LinkedHashMap<>());
        for (ColumnDef key : keys) {
            List<Map<String, Object>> next = new ArrayList<>();
            for (Map<String, Object> partial : rows) {
                for (Object value : valuesByKey.get(key.name())) {
                    Map<String, Object> row = new LinkedHashMap<>(partial);
                    row.put(key.name(), value);
                    next.add(row);
                }
            }
            rows = next;
        }
        return rows;
    }

    /**
     * Whether the predicate is a conjunction of equalities and IN lists of literals and parameters that
     * covers every key column (other conjuncts may narrow it further; values are not looked at): what admission
     * calls a one-key statement ({@link Weight}).
     */
    public static boolean fixesEveryKey(Expr where, List<ColumnDef> keys) {
        return keyConjuncts(where, keys) != null;
    }

    /**
     * The conjuncts of {@code where} that fix a key column by equality or an IN list of literals and parameters,
     * in order, or null when they do not fix every key column; the others only narrow the rows those select.
     * Flattened without recursion, as chains may be long.
     */
    public static List<Expr> keyConjuncts(Expr where, List<ColumnDef> keys) {
        if (where == null) {
            return null;
        }
        List<Expr> conjuncts = new ArrayList<>();
        ArrayDeque<Expr> pending = new ArrayDeque<>();
        pending.push(where);
        while (!pending.isEmpty()) {
            Expr expr = pending.pop();
            if (expr instanceof Expr.Binary b && b.op() == Expr.BinaryOp.AND) {
                pending.push(b.right());
                pending.push(b.left());
            } else {
                conjuncts.add(expr);
            }
        }
        Map<String, ColumnDef> byName = new HashMap<>();
        keys.forEach(k -> byName.put(k.name(), k));
        Set<String> fixed = new HashSet<>();
        List<Expr> fixing = new ArrayList<>();
        for (Expr conjunct : conjuncts) {
            String column = null;
            if (conjunct instanceof Expr.Binary b && b.op() == Expr.BinaryOp.EQ
                    && b.left() instanceof Expr.ColumnRef ref && isConstant(b.right(), byName.get(ref.column().name()))) {
                column = ref.column().name();
            } else if (conjunct instanceof Expr.Binary b && b.op() == Expr.BinaryOp.EQ
                    && b.right() instanceof Expr.ColumnRef ref && isConstant(b.left(), byName.get(ref.column().name()))) {
                column = ref.column().name();
            } else if (conjunct instanceof Expr.InList in && !in.negated() && in.value() instanceof Expr.ColumnRef ref
                    && in.items().stream().allMatch(i -> isConstant(i, byName.get(ref.column().name())))) {
                column = ref.column().name();
            }
            if (column != null && byName.containsKey(column)) {
                fixed.add(column);
                fixing.add(conjunct);
            }
        }
        return fixed.size() == byName.size() ? fixing : null;
    }

    /**
     * The keys an UPDATE names when it reads nothing but their rows, else null: its WHERE is only equalities
     * and IN lists of values that fix every key column ({@link #explicitKeys}), and no value it assigns holds
     * a subquery, an aggregate or a window ({@link Weight#plain}). Such an UPDATE matches the same rows whatever
     * another UPDATE of other keys writes before it, since no UPDATE changes a key, so several of them may be
     * read together and written together.
     */
    public static List<Map<String, Object>> onlyNamedKeys(io.verso.sql.ast.Statement.Update update,
                                                        List<ColumnDef> keys, List<Object> params) {
        if (!update.assignments().stream().allMatch(a -> Weight.plain(a.value()))) {
            return null;
        }
        return explicitKeys(update.where(), keys, params);
    }

    private static boolean isValue(Expr expr) {
        return expr instanceof Expr.Literal || expr instanceof Expr.Parameter;
    }

    /**
     * A value, or one cast to the type {@code column} compares with (as REST and GraphQL send key values): its
     * index is probed all the same. A cast to another type may not use the index, so it does not fix the key.
     */
    private static boolean isConstant(Expr expr, ColumnDef column) {
        return isValue(expr) || column != null && expr instanceof Expr.Cast cast && isValue(cast.value())
                && cast.type().name().equalsIgnoreCase(column.type().comparisonTypeName());
    }

    private static void flatten(Expr expr, List<Expr> out) {
        if (expr instanceof Expr.Binary b && b.op() == Expr.BinaryOp.AND) {
            flatten(b.left(), out);
            flatten(b.right(), out);
        } else {
            out.add(expr);
        }
    }
}
