package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Pos;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * An UPDATE or DELETE resolved against the catalog: which rows it matches (a WHERE over the
 * table's current rows, or keys it names) and what it writes for each. The engine reads the
 * matched rows, then writes them as versions or tombstones like any other write.
 */
public sealed interface BoundChange {

    TableDef table();

    /** Column references of the WHERE (and of UPDATE's expressions), resolved. */
    IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs();

    /**
     * UPDATE: the groups it writes and, for each column read back (keys, then the groups' columns),
     * the expression assigned to it or null to keep its value.
     */
    record Update(TableDef table, List<GroupDef> groups, List<ColumnDef> columns, Map<String, Expr> assigned,
                  Expr where, IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs, Pos pos) implements BoundChange {
    }

    /**
     * DELETE: the tombstones' ordering values, and the keys it names when its WHERE fixes every key
     * column ({@code keys} non-null: tombstones are written even for keys without a live row),
     * else the WHERE whose matched rows' keys get tombstones.
     */
    record Delete(TableDef table, Map<String, Object> at, Map<String, Pos> atPositions,
                  List<Map<String, Object>> keys, Expr where, IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs,
                  Pos pos) implements BoundChange {
    }
}
