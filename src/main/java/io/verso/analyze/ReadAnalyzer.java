package io.verso.analyze;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Statement;
import io.verso.sql.ast.Statement.Select;
import io.verso.sql.ast.Statement.SelectItem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** Binds a SELECT to the catalog: tables, read kinds, AS OF commits and column references. */
public final class ReadAnalyzer {

    private ReadAnalyzer() {
    }

    public static BoundSelect select(Select select, TableLookup lookup, AsOfResolver asOf, int parameterCount) {
        List<BoundRelation> relations = new ArrayList<>();
        relations.add(bind(select.from(), select.asOf(), lookup, asOf));
        for (Statement.Join join : select.joins()) {
            BoundRelation relation = bind(join.relation(), select.asOf(), lookup, asOf);
            if (relations.stream().anyMatch(r -> r.alias().equals(relation.alias()))) {
                throw VersoException.at(ErrorCode.DUPLICATE_NAME, "'" + relation.alias()
                        + "' names two relations of this statement: give one an alias", join.relation().pos());
            }
            relations.add(relation);
        }
        Set<String> outputAliases = new HashSet<>();
        for (SelectItem item : select.items()) {
            if (item instanceof SelectItem.Item i && i.alias() != null) {
                outputAliases.add(i.alias().name());
            }
        }
        Scope scope = new Scope(relations, outputAliases, parameterCount);
        for (SelectItem item : select.items()) {
            if (item instanceof SelectItem.AllOf all) {
                scope.relation(all.qualifier());
            } else if (item instanceof SelectItem.Item i) {
                scope.check(i.expr(), false);
            }
        }
        select.joins().forEach(j -> scope.check(j.on(), false));
        scope.check(select.where(), false);
        select.groupBy().forEach(g -> scope.check(g, true));
        scope.check(select.having(), false);
        select.orderBy().forEach(o -> scope.check(o.expr(), true));
        checkLimit(select.limit(), "LIMIT");
        checkLimit(select.offset(), "OFFSET");
        return new BoundSelect(select, List.copyOf(relations), scope.refs());
    }

    private static void checkLimit(Expr expr, String clause) {
        if (expr == null || expr instanceof Expr.Parameter) {
            return;
        }
        if (!(expr instanceof Expr.Literal lit) || lit.kind() != Expr.LiteralKind.INTEGER || lit.text().startsWith("-")) {
            throw VersoException.at(ErrorCode.INVALID_LIMIT, clause + " takes a non-negative integer", expr.pos());
        }
    }

    /** Binds one relation; {@code trailing} is the statement-level AS OF, used when it has none. */
    public static BoundRelation bind(Statement.Relation relation, AsOf trailing, TableLookup lookup,
                                     AsOfResolver resolver) {
        TableDef table = lookup.table(relation.table());
        AsOf asOf = relation.asOf() != null ? relation.asOf() : trailing;
        String alias = relation.visibleName();
        if (relation.history()) {
            if (table.mode() == TableMode.UPSERT) {
                throw VersoException.at(ErrorCode.NO_HISTORY, "table " + table.name()
                        + " is an UPSERT table and keeps no history", relation.pos());
            }
            Long commit = asOf == null ? null : resolver.resolve(asOf, table);
            return new BoundRelation(alias, table, RelationKind.HISTORY, commit, columns(table, RelationKind.HISTORY));
        }
        if (asOf == null) {
            return new BoundRelation(alias, table, RelationKind.CURRENT, null, columns(table, RelationKind.CURRENT));
        }
        return new BoundRelation(alias, table, RelationKind.AS_OF, resolver.resolve(asOf, table),
                columns(table, RelationKind.AS_OF));
    }

    public static List<String> columns(TableDef table, RelationKind kind) {
        Stream<String> own = table.columns().stream().map(ColumnDef::name);
        return kind == RelationKind.HISTORY
                ? Stream.concat(own, BoundRelation.HISTORY_COLUMNS.stream()).toList()
                : own.toList();
    }
}
