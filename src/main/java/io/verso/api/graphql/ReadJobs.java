package io.verso.api.graphql;

import io.verso.catalog.ColumnDef;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementResult;
import io.verso.error.Origin;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Query;
import io.verso.sql.ast.Statement;
import io.verso.surface.Cursor;
import io.verso.surface.ReadBuilder;
import io.verso.surface.ReadShapes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The read fields' jobs: a page of rows, one key's row, one key's history, an aggregate, a row's
 * history. Each builds its statement with the resource layer's one {@link ReadBuilder}, as REST does.
 */
final class ReadJobs {

    private ReadJobs() {
    }

    /** A page: its rows, the commit they were read at, and where the next page starts. */
    record Page(List<Row> nodes, long asOfCommit, boolean hasNextPage, String endCursor) {
    }

    /** count and per-column min/max/sum/avg, by column name. */
    record Aggregate(Object count, Map<String, Object> min, Map<String, Object> max, Map<String, Object> sum,
                     Map<String, Object> avg, long asOfCommit) {
    }

    static List<Row> rows(StatementResult result, long commit) {
        StatementResult.Rows rows = (StatementResult.Rows) result;
        List<Row> out = new ArrayList<>(rows.rows().size());
        for (List<Object> values : rows.rows()) {
            Map<String, Object> row = new LinkedHashMap<>();
            for (int i = 0; i < rows.columns().size(); i++) {
                row.put(rows.columns().get(i).name(), values.get(i));
            }
            out.add(new Row(row, commit));
        }
        return out;
    }

    /**
     * The commit rows were read at: the client's or the request's, else the one the statement reported
     * (an asOfTime resolved to a commit, or the latest).
     */
    static long readCommit(Long at, List<StatementResult> results, ExecutionResult execution) {
        if (at != null) {
            return at;
        }
        return results.get(0) instanceof StatementResult.Rows rows
                // No commit: a time before the first one, whose state (no rows) this contract numbers 0.
                ? (rows.asOfCommit() != null ? rows.asOfCommit() : 0) : execution.readCommit();
    }

    /**
     * The commit a read is made AS OF: the client's, else the request's once known (never on UPSERT
     * tables); none when the client gave a time, which the statement resolves.
     */
    static Long readAt(TableShape table, Long requested, String asOfTime, Long pinned) {
        if (requested != null || asOfTime != null) {
            return requested;
        }
        return table.historied() ? pinned : null;
    }

    static Pos at(ReadBuilder b, String path) {
        return b.at(new Origin.Argument(path));
    }

    /** {@code k1 = ? AND ...} for a key given as argument values, each at its argument. */
    static Expr keyEquals(ReadBuilder b, TableShape table, Map<String, Object> key, String prefix) {
        List<Object> values = new ArrayList<>();
        List<Pos> positions = new ArrayList<>();
        for (ColumnDef c : table.keys()) {
            values.add(key.get(c.name()));
            positions.add(at(b, prefix + c.name()));
        }
        return b.keyEquals(table.def(), values, positions);
    }

    /** {@code t(where, orderBy, limit, offset, after, asOfCommit)}. */
    static final class ListJob implements Job {
        private final RequestState state;
        private final TableShape table;
        private final Map<String, Object> where;
        private final List<Map<String, Object>> orderBy;
        private final int limit;
        private final long offset;
        private final Long asOf;
        private final String asOfTime;
        private final int maxRows;
        private Long at;

        ListJob(RequestState state, TableShape table, Map<String, Object> where, List<Map<String, Object>> orderBy,
                int limit, long offset, Long asOf, String asOfTime, int maxRows) {
            this.state = state;
            this.table = table;
            this.where = where;
            this.orderBy = orderBy;
            this.limit = limit;
            this.offset = offset;
            this.asOf = asOf;
            this.asOfTime = asOfTime;
            this.maxRows = maxRows;
        }

        @Override
        public RequestState state() {
            return state;
        }

        @Override
        public List<Statement> statements(ReadBuilder b, Long pinned) {
            at = readAt(table, asOf, asOfTime, pinned);
            Pos field = at(b, table.name());
            Expr filter = where == null || where.isEmpty() ? null : b.where(Predicates.where(b, table, where, "where"));
            List<ReadBuilder.Sort> sorts = Predicates.orderBy(table, orderBy == null ? List.of() : orderBy);
            // One row more than asked tells whether there is a next page.
            return List.of(ReadBuilder.select(List.of(), table.name(), ReadBuilder.Source.ROWS, field, filter,
                    ReadBuilder.orderBy(sorts, field), (long) limit + 1, offset, b.asOf(at, asOfTime, at(b, "asOfCommit"), at(b, "asOfTime")),
                    field));
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            long commit = readCommit(at, results, execution);
            List<Row> rows = rows(results.get(0), commit);
            boolean more = rows.size() > limit;
            List<Row> nodes = more ? rows.subList(0, limit) : rows;
            state.addRows(nodes.size(), maxRows);
            String end = nodes.isEmpty() ? null
                    : Cursor.offset(table.historied() ? commit : null, offset + nodes.size()).encode();
            return new Page(List.copyOf(nodes), commit, more, end);
        }
    }

    /** {@code t_by_key(keys..., asOfCommit)}. */
    static final class KeyJob implements Job {
        /** The current read of one key of each table shape (a GraphQL schema's), alone in its request. */
        private static final ReadShapes<TableShape> CURRENT_ROWS = new ReadShapes<>();
        /** The same AS OF a commit, which is a parameter like the key's values. */
        private static final ReadShapes<TableShape> AS_OF_ROWS = new ReadShapes<>();

        private final RequestState state;
        private final TableShape table;
        private final Map<String, Object> key;
        private final Long asOf;
        private final String asOfTime;
        private final int maxRows;
        private Long at;

        KeyJob(RequestState state, TableShape table, Map<String, Object> key, Long asOf, String asOfTime,
               int maxRows) {
            this.state = state;
            this.table = table;
            this.key = key;
            this.asOf = asOf;
            this.asOfTime = asOfTime;
            this.maxRows = maxRows;
        }

        @Override
        public RequestState state() {
            return state;
        }

        @Override
        public List<Statement> statements(ReadBuilder b, Long pinned) {
            at = readAt(table, asOf, asOfTime, pinned);
            Pos field = at(b, table.name() + "_by_key");
            return List.of(ReadBuilder.select(List.of(), table.name(), ReadBuilder.Source.ROWS, field,
                    keyEquals(b, table, key, ""), List.of(), null, null, b.asOf(at, asOfTime, at(b, "asOfCommit"),
                            at(b, "asOfTime")), field));
        }

        /**
         * The statements to run when this job is alone in its request, built by {@link #statements} (the by-key
         * read a client sends again and again): a current read's is its table's, the same instance each time (the
         * key's values are all parameters, numbered from the first), and so is a read AS OF a commit (a parameter
         * after them). Only alone: an error's origin is then this job's whatever instance it is found in, where a
         * batch tells its jobs apart by their origins' identity.
         */
        List<Statement> alone(List<Statement> built) {
            return asOfTime != null ? built
                    : List.of((at == null ? CURRENT_ROWS : AS_OF_ROWS).of(table, built.get(0)));
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            List<Row> rows = rows(results.get(0), readCommit(at, results, execution));
            state.addRows(rows.size(), maxRows);
            return rows.isEmpty() ? null : rows.get(0);
        }
    }

    /** {@code t_history(keys..., group, asOfCommit, limit, offset)}: every retained version of one key. */
    static final class HistoryJob implements Job {
        private final RequestState state;
        private final TableShape table;
        private final Map<String, Object> key;
        private final String group;
        private final Long asOf;
        private final String asOfTime;
        private final int limit;
        private final long offset;
        private final int maxRows;
        private Long at;

        HistoryJob(RequestState state, TableShape table, Map<String, Object> key, String group, Long asOf,
                   String asOfTime, int limit, long offset, int maxRows) {
            this.state = state;
            this.table = table;
            this.key = key;
            this.group = group;
            this.asOf = asOf;
            this.asOfTime = asOfTime;
            this.limit = limit;
            this.offset = offset;
            this.maxRows = maxRows;
        }

        @Override
        public RequestState state() {
            return state;
        }

        @Override
        public List<Statement> statements(ReadBuilder b, Long pinned) {
            at = readAt(table, asOf, asOfTime, pinned);
            Pos field = at(b, table.name() + "_history");
            Expr where = keyEquals(b, table, key, "");
            if (group != null) {
                Pos g = at(b, "group");
                where = ReadBuilder.and(where, new Expr.Binary(Expr.BinaryOp.EQ, ReadBuilder.column("_group", g),
                        b.param(group, g), g), g);
            }
            return List.of(ReadBuilder.select(List.of(), table.name(), ReadBuilder.Source.HISTORY, field, where,
                    ReadBuilder.orderByNames(ReadBuilder.HISTORY_ORDER, field), (long) limit, offset,
                    b.asOf(at, asOfTime, at(b, "asOfCommit"), at(b, "asOfTime")), field));
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            List<Row> rows = rows(results.get(0), readCommit(at, results, execution));
            state.addRows(rows.size(), maxRows);
            return rows;
        }
    }

    /** {@code t_aggregate(where, asOfCommit)}: count, and min/max/sum/avg of the columns whose type allows. */
    static final class AggregateJob implements Job {
        private final RequestState state;
        private final TableShape table;
        private final Map<String, Object> where;
        private final Long asOf;
        private final String asOfTime;
        private Long at;

        AggregateJob(RequestState state, TableShape table, Map<String, Object> where, Long asOf, String asOfTime) {
            this.state = state;
            this.table = table;
            this.where = where;
            this.asOf = asOf;
            this.asOfTime = asOfTime;
        }

        @Override
        public RequestState state() {
            return state;
        }

        @Override
        public List<Statement> statements(ReadBuilder b, Long pinned) {
            at = readAt(table, asOf, asOfTime, pinned);
            Pos field = at(b, table.name() + "_aggregate");
            List<Query.SelectItem> items = new ArrayList<>();
            items.add(ReadBuilder.countStar(field));
            for (ColumnDef c : table.columns()) {
                if (TableShape.orderable(c.type())) {
                    items.add(ReadBuilder.call("min", c, field));
                    items.add(ReadBuilder.call("max", c, field));
                }
                if (TableShape.summable(c.type())) {
                    items.add(ReadBuilder.call("sum", c, field));
                    items.add(ReadBuilder.call("avg", c, field));
                }
            }
            Expr filter = where == null || where.isEmpty() ? null : b.where(Predicates.where(b, table, where, "where"));
            return List.of(ReadBuilder.select(items, table.name(), ReadBuilder.Source.ROWS, field, filter, List.of(),
                    null, null, b.asOf(at, asOfTime, at(b, "asOfCommit"), at(b, "asOfTime")), field));
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            List<Object> values = ((StatementResult.Rows) results.get(0)).rows().get(0);
            Map<String, Object> min = new LinkedHashMap<>();
            Map<String, Object> max = new LinkedHashMap<>();
            Map<String, Object> sum = new LinkedHashMap<>();
            Map<String, Object> avg = new LinkedHashMap<>();
            int i = 1;
            for (ColumnDef c : table.columns()) {
                if (TableShape.orderable(c.type())) {
                    min.put(c.name(), values.get(i++));
                    max.put(c.name(), values.get(i++));
                }
                if (TableShape.summable(c.type())) {
                    sum.put(c.name(), values.get(i++));
                    avg.put(c.name(), values.get(i++));
                }
            }
            return new Aggregate(values.get(0), min, max, sum, avg, readCommit(at, results, execution));
        }
    }

    /**
     * A row's {@code _history}: one job per row; the runner puts every such job of one table and
     * commit into one statement ({@link NestedHistoryBatch}), so a page of rows costs one read, not one per row.
     */
    static final class NestedHistoryJob implements Job {
        final RequestState state;
        final TableShape table;
        final Row parent;

        NestedHistoryJob(RequestState state, TableShape table, Row parent) {
            this.state = state;
            this.table = table;
            this.parent = parent;
        }

        @Override
        public RequestState state() {
            return state;
        }

        String batchKey() {
            return table.def().id() + "@" + parent.commit();
        }

        @Override
        public List<Statement> statements(ReadBuilder b, Long pinned) {
            throw new IllegalStateException("nested history jobs run in a NestedHistoryBatch");
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            throw new IllegalStateException("nested history jobs run in a NestedHistoryBatch");
        }
    }

    /** The history of many rows of one table at one commit, read in one statement and handed out per key. */
    static final class NestedHistoryBatch implements Job {
        private final List<NestedHistoryJob> members = new ArrayList<>();
        private final int maxRows;

        NestedHistoryBatch(int maxRows) {
            this.maxRows = maxRows;
        }

        void add(NestedHistoryJob job) {
            members.add(job);
        }

        List<NestedHistoryJob> members() {
            return members;
        }

        @Override
        public RequestState state() {
            return members.get(0).state;
        }

        @Override
        public List<Statement> statements(ReadBuilder b, Long pinned) {
            NestedHistoryJob first = members.get(0);
            TableShape table = first.table;
            Pos field = at(b, "_history");
            Expr where;
            if (table.keys().size() == 1) {
                ColumnDef key = table.keys().get(0);
                List<Expr> values = new ArrayList<>();
                for (NestedHistoryJob member : members) {
                    values.add(b.value(key, member.parent.values().get(key.name()), field));
                }
                where = new Expr.InList(false, ReadBuilder.column(key, field), values, field);
            } else {
                List<Expr> keys = new ArrayList<>();
                for (NestedHistoryJob member : members) {
                    keys.add(keyEquals(b, table, member.parent.values(), "_history."));
                }
                where = ReadBuilder.or(keys, field);
            }
            // The parent rows were read at this commit: their history is read as it was then.
            return List.of(ReadBuilder.select(List.of(), table.name(), ReadBuilder.Source.HISTORY, field, where, ReadBuilder.orderByNames(ReadBuilder.HISTORY_ORDER, field), null,
                    null, b.asOf(first.parent.commit(), field), field));
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            NestedHistoryJob first = members.get(0);
            List<Row> rows = rows(results.get(0), first.parent.commit());
            state().addRows(rows.size(), maxRows);
            Map<String, List<Row>> byKey = new LinkedHashMap<>();
            for (Row row : rows) {
                byKey.computeIfAbsent(keyOf(first.table, row), k -> new ArrayList<>()).add(row);
            }
            return byKey;
        }

        static String keyOf(TableShape table, Row row) {
            List<String> parts = new ArrayList<>();
            for (ColumnDef key : table.keys()) {
                parts.add(String.valueOf(row.values().get(key.name())));
            }
            return String.join("\u0000", parts);
        }
    }
}
