package io.verso.engine;

import io.verso.analyze.CheckConstraints;
import io.verso.analyze.SystemTables;
import io.verso.analyze.WriteAnalyzer;
import io.verso.analyze.WriteAnalyzer.RowInput;
import io.verso.catalog.Catalog;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableDef.SystemPeriod;
import io.verso.catalog.TableMode;
import io.verso.compile.CheckCompiler;
import io.verso.compile.CompiledSql;
import io.verso.compile.ExprCompiler;
import io.verso.compile.SystemCompiler;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Statements on SYSTEM tables (MariaDB's system versioning): CREATE, INSERT, UPDATE, DELETE with
 * plain SQL meaning, DELETE HISTORY and ADD/DROP SYSTEM VERSIONING. Each runs as set-based SQL in
 * the request's transaction, so a failing statement or a ROLLBACK leaves neither rows nor history.
 */
final class SystemVersioning {

    private final Catalog catalog;
    private final SqlRunner sql;

    SystemVersioning(Catalog catalog, SqlRunner sql) {
        this.catalog = catalog;
        this.sql = sql;
    }

    StatementResult create(Statement.CreateTable create, long commit) {
        SystemTables.Created created = SystemTables.createTable(create, commit);
        TableDef table = catalog.create(created.table().withChecks(CheckConstraints.define(create, created.table())));
        SystemCompiler.createTable(table, created.unique()).forEach(sql::update);
        Checks.validate(sql, table);
        return new StatementResult.Changed("CREATE TABLE", table.name(), true, null);
    }

    /**
     * INSERT of listed rows, or of the rows of a query given as text ({@code queried}: it hands them over a
     * chunk at a time, each written before the next is read). A query's rows are counted and not named.
     */
    StatementResult insert(Statement.InsertRows given, TableDef table, RequestContext request, Instant commitTime,
                           BiConsumer<Statement.InsertRows, Consumer<List<RowInput>>> queried) {
        Statement.InsertRows insert = SystemTables.withoutPeriodNulls(given, table);
        SystemTables.checkInsert(insert, table);
        List<Ident> named = WriteAnalyzer.namedColumns(insert, table);
        if (insert.query() != null) {
            long[] count = {0};
            queried.accept(insert, chunk -> count[0] += written(insert, table, named, chunk, request, commitTime).size());
            if (count[0] == 0) {
                return StatementResult.Written.empty("INSERT", table.name());
            }
            long rows = count[0];
            return verified(new StatementResult.Written("INSERT", table.name(), rows, rows, rows, 0, List.of(),
                    new boolean[0]), insert, table, request);
        }
        List<RowInput> rows = WriteAnalyzer.rows(insert, table, request.params());
        if (rows.isEmpty()) {
            return StatementResult.Written.empty("INSERT", table.name());
        }
        List<String[]> texts = written(insert, table, named, rows, request, commitTime);
        // Every inserted row is a current version (a system-versioned table orders by commit only); the
        // surfaces report each row's key and outcome by position, as for any write.
        boolean[] current = new boolean[texts.size()];
        java.util.Arrays.fill(current, true);
        return verified(new StatementResult.Written("INSERT", table.name(), rows.size(), rows.size(), rows.size(), 0,
                keys(table, texts), current), insert, table, request);
    }

    /** {@code rows} inserted at the request's commit, after the refusal of keys already there: their texts. */
    private List<String[]> written(Statement.InsertRows insert, TableDef table, List<Ident> named, List<RowInput> rows,
                                   RequestContext request, Instant commitTime) {
        List<ColumnDef> columns = table.columns();
        List<String[]> texts = SystemTables.insertRows(insert, table, named, rows);
        List<ColumnDef> keys = table.keyColumns();
        String[][] keyValues = new String[keys.size()][texts.size()];
        for (int k = 0; k < keys.size(); k++) {
            int column = columns.indexOf(keys.get(k));
            for (int r = 0; r < texts.size(); r++) {
                keyValues[k][r] = texts.get(r)[column];
            }
        }
        InsertKeys.refuse(sql, table, keyValues, insert.pos());
        // Batches bounded by PostgreSQL's 65535 bind parameters.
        int perStatement = Math.max(1, 30_000 / (columns.size() + 2));
        for (int from = 0; from < texts.size(); from += perStatement) {
            sql.update(SystemCompiler.insert(table, columns, texts.subList(from, Math.min(texts.size(),
                    from + perStatement)), request.commit(), commitTime));
        }
        return texts;
    }

    /** {@code written} once the table's CHECK constraints hold for the rows of this commit. */
    private StatementResult.Written verified(StatementResult.Written written, Statement.InsertRows insert,
                                             TableDef table, RequestContext request) {
        Checks.verify(sql, table, checks -> CheckCompiler.written(table, checks, request.commit()), insert.pos());
        request.touch(table.name(), written.rows());
        return written;
    }

    /** Each row's key column texts, in key order, from its texts in column order. */
    private static List<String[]> keys(TableDef table, List<String[]> texts) {
        int[] at = table.keyColumns().stream().mapToInt(key -> table.columns().indexOf(key)).toArray();
        List<String[]> keys = new java.util.ArrayList<>(texts.size());
        for (String[] row : texts) {
            String[] key = new String[at.length];
            for (int k = 0; k < at.length; k++) {
                key[k] = row[at[k]];
            }
            keys.add(key);
        }
        return keys;
    }

    StatementResult update(Statement.Update update, TableDef table, RequestContext request, Instant commitTime) {
        Map<String, Expr> assigned = SystemTables.assignments(update, table);
        if (assigned.isEmpty()) {
            // Only period columns set to NULL, which MariaDB ignores: no row changes, so no version is written.
            return StatementResult.Written.empty("UPDATE", table.name());
        }
        ExprCompiler exprs = MatchedRows.expressions(update.table(), request, update.where(),
                List.copyOf(assigned.values()), "UPDATE ... SET");
        long rows = MatchedRows.refusingNull(table, update, () -> sql.counts(SystemCompiler.update(table, table.name(),
                assigned, update.where(), exprs, request.commit(), commitTime))[0]);
        Checks.verify(sql, table, checks -> CheckCompiler.written(table, checks, request.commit()), update.pos());
        request.touch(table.name(), rows);
        return new StatementResult.Written("UPDATE", table.name(), rows, rows, rows, 0, List.of(), new boolean[0]);
    }

    StatementResult delete(Statement.Delete delete, TableDef table, RequestContext request, Instant commitTime) {
        SystemTables.checkDelete(delete, table);
        ExprCompiler exprs = MatchedRows.expressions(delete.table(), request, delete.where(), List.of(), "DELETE");
        CompiledSql compiled = table.period() == null
                ? SystemCompiler.deleteUnversioned(table, table.name(), delete.where(), exprs)
                : SystemCompiler.delete(table, table.name(), delete.where(), exprs, request.commit(), commitTime);
        long rows = sql.counts(compiled)[0];
        request.touch(table.name(), rows);
        return new StatementResult.Written("DELETE", table.name(), rows, rows, 0, 0, List.of(), new boolean[0]);
    }

    /** DELETE HISTORY FROM t [BEFORE SYSTEM_TIME t]: the count of versions removed. */
    StatementResult deleteHistory(Statement.DeleteHistory delete, TableDef table, RequestContext request) {
        if (!table.systemVersioned()) {
            throw VersoException.at(ErrorCode.NOT_SYSTEM_VERSIONED, "table " + table.name()
                    + " is not system-versioned", delete.table().pos());
        }
        Instant before = null;
        if (delete.before() instanceof AsOf.SystemTime time) {
            before = request.instants().at(time.from());
        } else if (delete.before() != null) {
            throw VersoException.at(ErrorCode.NOT_SUPPORTED, "DELETE HISTORY of a system-versioned table takes "
                    + "BEFORE SYSTEM_TIME t, not BEFORE COMMIT", delete.before().pos());
        }
        long count = sql.update(SystemCompiler.deleteHistory(table, before));
        if (count > 0) {
            // As an erasure: answers AS OF earlier times change, and a new catalog version says so to replicas'
            // readers and to every instance's cache of pinned answers (api.rest).
            catalog.historyRewritten();
        }
        request.catalogChanged();
        request.touch(table.name(), count);
        return new StatementResult.Changed("DELETE HISTORY", table.name(), true, count);
    }

    /**
     * ADD SYSTEM VERSIONING: every row starts at this commit. A SYSTEM table gets its implicit period
     * back; other modes keep their own history and are refused. DROP SYSTEM VERSIONING deletes the
     * history and the period columns; the table keeps MariaDB's plain semantics.
     */
    StatementResult alter(Statement.AlterSystemVersioning alter, TableDef table, RequestContext request,
                          Instant commitTime) {
        SystemTables.checkAlter(alter, table);
        if (table.mode() != TableMode.SYSTEM) {
            return convert(table, request, commitTime);
        }
        TableDef altered;
        if (alter.add()) {
            sql.update(SystemCompiler.startVersions(table, request.commit(), commitTime));
            altered = catalog.update(table.withPeriod(SystemPeriod.implicitColumns()));
        } else {
            sql.update(SystemCompiler.deleteHistory(table, null));
            altered = catalog.update(table.withPeriod(null));
        }
        request.catalogChanged();
        request.touch(table.name(), 0);
        return new StatementResult.Changed("ALTER TABLE", altered.name(), true, null);
    }

    /**
     * ADD SYSTEM VERSIONING of a plain table, as MariaDB does it: an UPSERT table (its key becomes the
     * primary key) or an APPEND table (rows keep a hidden identity) becomes a system-versioned table whose
     * rows start at this commit. A VERSIONED table keeps its own history and is refused, as is a table
     * whose rows are ordered (VALID BY / REVISION BY, attribute groups): system versioning orders by
     * commit only ({@link SystemTables#checkAlter} refuses those).
     */
    private StatementResult convert(TableDef table, RequestContext request, Instant commitTime) {
        TableDef converted = SystemTables.converted(table);
        SystemCompiler.convert(table, converted, request.commit(), commitTime).forEach(sql::update);
        for (var index : converted.indexes()) {
            io.verso.compile.LifecycleCompiler.createIndex(converted, index).forEach(sql::update);
        }
        TableDef altered = catalog.update(converted);
        request.catalogChanged();
        request.touch(table.name(), 0);
        return new StatementResult.Changed("ALTER TABLE", altered.name(), true, null);
    }
}
