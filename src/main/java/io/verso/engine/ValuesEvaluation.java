package io.verso.engine;

import io.verso.analyze.AsOfResolver;
import io.verso.analyze.BoundSelect;
import io.verso.analyze.ReadAnalyzer;
import io.verso.analyze.TableLookup;
import io.verso.analyze.ValuesExpressions;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.compile.CompiledSql;
import io.verso.compile.SqlBuilder;
import io.verso.compile.WriteCompiler;
import io.verso.error.VersoException;
import io.verso.sql.ast.Statement;
import java.util.List;
import org.springframework.dao.DataAccessException;

/**
 * Evaluates the expressions of INSERT/UPSERT ... VALUES in PostgreSQL, once each, before the rows are
 * written: a query without FROM in the request's transaction, each value cast to its column's type as an
 * INSERT would (so {@code now()} is the commit's transaction time). The statement then goes the way of
 * literal VALUES. A value PostgreSQL refuses (a division by zero, text that is no number) is refused at
 * the item's line:column: the failed query is undone to a savepoint and the items are tried one by one
 * to find it, on that error path only.
 */
final class ValuesEvaluation {

    /** PostgreSQL takes at most 1,664 outputs per SELECT; a VALUES of more expressions takes several. */
    static final int PER_QUERY = 1000;

    private ValuesEvaluation() {
    }

    static Statement.InsertRows evaluated(Statement.InsertRows statement, TableDef table, TableLookup lookup,
                                          AsOfResolver asOf, List<Object> params, SqlRunner sql) {
        if (statement.query() != null || statement.columnValues() != null) {
            return statement;
        }
        List<ColumnDef> named = statement.columns().isEmpty() ? table.columns()
                : statement.columns().stream().map(n -> table.column(n.name()).orElse(null)).toList();
        List<ValuesExpressions.Item> items = ValuesExpressions.items(statement, named.size(), params);
        if (items.isEmpty() || items.stream().anyMatch(item -> named.get(item.column()) == null)) {
            // Nothing to evaluate, or a column the later checks refuse in their own words (unknown, a
            // system-versioned table's period column): the statement goes on as written.
            return statement;
        }
        String[] values = new String[items.size()];
        for (int from = 0; from < items.size(); from += PER_QUERY) {
            List<ValuesExpressions.Item> chunk = items.subList(from, Math.min(items.size(), from + PER_QUERY));
            String[] row = evaluate(chunk, table, named, lookup, asOf, params, sql);
            System.arraycopy(row, 0, values, from, row.length);
        }
        return ValuesExpressions.evaluated(statement, items, values);
    }

    private static String[] evaluate(List<ValuesExpressions.Item> items, TableDef table, List<ColumnDef> named,
                                     TableLookup lookup, AsOfResolver asOf, List<Object> params, SqlRunner sql) {
        CompiledSql query = compile(items, table, named, lookup, asOf, params);
        sql.update(new SqlBuilder().sql("SAVEPOINT verso_values").build());
        try {
            String[] row = sql.texts(query).get(0);
            sql.update(new SqlBuilder().sql("RELEASE SAVEPOINT verso_values").build());
            return row;
        } catch (DataAccessException failed) {
            sql.update(new SqlBuilder().sql("ROLLBACK TO SAVEPOINT verso_values").build());
            if (items.size() > 1) {
                for (ValuesExpressions.Item item : items) {
                    evaluate(List.of(item), table, named, lookup, asOf, params, sql);
                }
            }
            // PostgreSQL judges the value; its refusal is about this item, wherever it was written.
            VersoException refused = PgErrors.translate(failed);
            if (refused instanceof VersoException.UserError user && user.origin() == null) {
                throw VersoException.at(user.code(), user.getMessage() + " (in a VALUES item written to column '"
                        + named.get(items.get(0).column()).name() + "')", items.get(0).expr().pos());
            }
            throw refused;
        }
    }

    private static CompiledSql compile(List<ValuesExpressions.Item> items, TableDef table, List<ColumnDef> named,
                                       TableLookup lookup, AsOfResolver asOf, List<Object> params) {
        BoundSelect bound = ReadAnalyzer.query(ValuesExpressions.select(items, items.get(0).expr().pos()), lookup,
                asOf, params.size());
        return WriteCompiler.queriedRows(bound, table, ValuesExpressions.columns(items, named), false, params);
    }
}
