package io.verso.analyze;

import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Statement;
import java.util.IdentityHashMap;
import java.util.List;

/** A SELECT with every relation bound to a table and a read kind, and every column reference resolved. */
public record BoundSelect(Statement.Select select, List<BoundRelation> relations,
                          IdentityHashMap<Expr.ColumnRef, ResolvedRef> refs) {
}
