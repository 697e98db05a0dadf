package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Pos;
import java.util.List;
import java.util.Map;

/**
 * An UPDATE or DELETE resolved against the catalog: which rows it matches (a WHERE over the
 * table's current rows, bound by the read analyzer like any SELECT, or keys it names) and what it
 * writes for each. The engine reads the
 * matched rows, then writes them as versions or tombstones like any other write.
 */
public sealed interface BoundChange {

    TableDef table();

    /**
     * The read of the rows it changes: {@code SELECT <UPDATE's columns, or DELETE's keys> FROM table WHERE ...}
     * over the table's current rows, bound as any read is.
     */
    BoundSelect matched();

    /**
     * UPDATE: the groups it writes and, for each column read back (keys, then the groups' columns),
     * the expression assigned to it or null to keep its value.
     */
    record Update(TableDef table, List<GroupDef> groups, List<ColumnDef> columns, Map<String, Expr> assigned,
                  BoundSelect matched, Pos pos) implements BoundChange {
    }

    /**
     * DELETE: the tombstones' ordering values, and the keys it names when its WHERE fixes every key
     * column ({@code keys} non-null: tombstones are written even for keys without a live row),
     * else {@code matched}: the keys of the rows its WHERE matches, which get tombstones.
     */
    record Delete(TableDef table, Map<String, Object> at, Map<String, Pos> atPositions,
                  List<Map<String, Object>> keys, BoundSelect matched, Pos pos) implements BoundChange {
    }
}
