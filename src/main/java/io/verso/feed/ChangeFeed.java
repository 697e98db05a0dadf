package io.verso.feed;

import io.verso.catalog.Catalog;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementEngine;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.engine.ClientCommit;
import io.verso.security.AccessControl;
import io.verso.security.Caller;
import io.verso.security.Privilege;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Pos;
import io.verso.surface.ReadBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Service;

/**
 * Pages of {@code changes(t)} after a commit. A page never ends inside a commit, so a consumer that
 * resumes after the page's {@code next} neither misses nor repeats a change: it holds whole commits
 * (a single commit larger than the limit comes whole). {@code next} is the commit to resume after:
 * the last commit on the page, or, when the feed is caught up, the commit the page was read at.
 */
@Service
public class ChangeFeed {

    public static final int DEFAULT_LIMIT = 1000;
    public static final int MAX_LIMIT = 10000;

    private final StatementEngine engine;
    private final Catalog catalog;
    private final AccessControl access;

    public ChangeFeed(StatementEngine engine, Catalog catalog, AccessControl access) {
        this.engine = engine;
        this.catalog = catalog;
        this.access = access;
    }

    /** One change: its commit, op, the key, the row after (null after a delete) and before (null for an insert). */
    public record Change(long commit, String op, Map<String, Object> key, Map<String, Object> row, Object before) {
    }

    /** {@code more}: further changes exist after {@code next} at the time of the read. */
    public record Page(String table, long readCommit, List<Change> changes, long next, boolean more) {
    }

    public Page page(String tableName, long after, int limit) {
        if (after < 0) {
            throw VersoException.pointing(ErrorCode.INVALID_PARAMETER, "after must be 0 or a commit, not " + after,
                    "after");
        }
        // The resource layer's page-size rule and code; a feed page may be larger than a page of rows.
        ReadBuilder.limit(limit, DEFAULT_LIMIT, MAX_LIMIT, Pos.pointer("limit"));
        TableDef table = authorize(tableName);
        if (after < table.horizon()) {
            throw VersoException.pointing(ErrorCode.FEED_BEFORE_HORIZON, "the changes of " + table.name()
                    + " after commit " + after + " are gone: its history before commit " + table.horizon()
                    + " was deleted; read the table AS OF COMMIT " + table.horizon() + " and follow the feed after it",
                    "after");
        }
        // The relation changes(t) is the one definition of what a change is, for statements and feeds alike;
        // the read is the resource layer's, as for rows and history.
        List<String> order = new ArrayList<>();
        order.add("_commit");
        table.keyColumns().forEach(c -> order.add(c.name()));
        if (table.mode() == TableMode.APPEND) {
            table.columns().forEach(c -> order.add(c.name()));
        }
        ExecutionResult result = read(table, Expr.BinaryOp.GT, after, order, (long) limit + 1);
        if (after > result.readCommit()) {
            throw VersoException.pointing(ErrorCode.FEED_BEYOND_LATEST, "the feed of " + table.name()
                    + " cannot resume after commit " + after + ": the latest commit is " + result.readCommit()
                    + "; resume after a commit the feed handed out (a page's next, an event's id) or 0", "after");
        }
        StatementResult.Rows rows = (StatementResult.Rows) result.results().get(0);
        List<Change> changes = changes(table, rows);
        boolean more = changes.size() > limit;
        if (more) {
            long last = changes.get(limit).commit();
            if (changes.get(0).commit() == last) {
                // One commit larger than a page: served whole, read at the same snapshot's commit.
                ExecutionResult whole = read(table, Expr.BinaryOp.EQ, last, order, null);
                changes = changes(table, (StatementResult.Rows) whole.results().get(0));
            } else {
                changes = changes.subList(0, limit).stream().filter(c -> c.commit() != last).toList();
            }
        }
        long next = more ? changes.get(changes.size() - 1).commit() : result.readCommit();
        return new Page(table.name(), result.readCommit(), changes, next, more);
    }

    /**
     * The table, if the caller may read its changes: before anything about it is told (its horizon), one the
     * caller may not read is unknown, or (when it holds another privilege on it) FORBIDDEN, exactly as a read
     * would say. Open streams ask again before each delivery, so a dropped grant or role ends them.
     */
    public TableDef authorize(String tableName) {
        TableDef table = table(tableName);
        authorize(table, tableName);
        return table;
    }

    /**
     * The committed catalog's definition of the table, whoever asks, or UNKNOWN_TABLE; nothing of it is told
     * until {@link #authorize(TableDef, String)} passed. Open streams look a table up once per round of checks
     * and then check each of its callers, since a lookup reads several catalog tables and a grant check reads
     * none (grants are cached).
     */
    public TableDef table(String tableName) {
        return catalog.find(tableName).orElseThrow(() -> Refusals.unknownTable(tableName, Pos.pointer("table")));
    }

    /** Throws as {@link #authorize(String)} does, naming the table as {@code asked}, unless the caller may read it. */
    public void authorize(TableDef table, String asked) {
        access.check(Caller.current(), table, Privilege.SELECT, asked, Pos.pointer("table"));
    }

    /** {@code SELECT * FROM changes(t) WHERE _commit op commit ORDER BY order [LIMIT limit]}. */
    private ExecutionResult read(TableDef table, Expr.BinaryOp op, long commit, List<String> order, Long limit) {
        ReadBuilder b = new ReadBuilder();
        Pos at = Pos.pointer("after");
        Pos tablePos = Pos.pointer("table");
        Expr where = new Expr.Binary(op, ReadBuilder.column("_commit", at), b.param(commit, at), at);
        // A snapshot holding the commit: otherwise a replica behind a cursor another instance handed out would
        // answer FEED_BEYOND_LATEST (or an empty page) for a commit that exists.
        return ClientCommit.atLeast(commit, () -> engine.execute(List.of(ReadBuilder.select(List.of(), table.name(),
                ReadBuilder.Source.CHANGES, tablePos, where, ReadBuilder.orderByNames(order, tablePos), limit, null,
                null, tablePos)), b.params(), null));
    }

    private static List<Change> changes(TableDef table, StatementResult.Rows rows) {
        List<StatementResult.Column> columns = rows.columns();
        int own = table.columns().size();
        List<Change> changes = new ArrayList<>(rows.rows().size());
        for (List<Object> values : rows.rows()) {
            long commit = Long.parseLong(values.get(own).toString());
            String op = (String) values.get(own + 1);
            Map<String, Object> key = new LinkedHashMap<>();
            Map<String, Object> row = new LinkedHashMap<>();
            for (int i = 0; i < own; i++) {
                row.put(columns.get(i).name(), values.get(i));
                if (table.columns().get(i).isKey()) {
                    key.put(columns.get(i).name(), values.get(i));
                }
            }
            changes.add(new Change(commit, op, key, "delete".equals(op) ? null : row, values.get(own + 2)));
        }
        return changes;
    }
}
