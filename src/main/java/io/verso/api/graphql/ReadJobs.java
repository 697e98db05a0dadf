package io.verso.api.graphql;

import io.verso.catalog.ColumnDef;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The read fields' jobs: a page of rows, one key's row, one key's history, an aggregate, a row's history. */
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

    /**
     * Cursors carry the commit the first page was read at and the position after the last row, so
     * following pages of a VERSIONED or APPEND table read the same commit and neither skip nor repeat
     * rows while writes go on. (An UPSERT table keeps no history: its pages read the current rows.)
     */
    static String cursor(long commit, long offset) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("v1:" + commit + ":" + offset).getBytes(StandardCharsets.UTF_8));
    }

    static long[] decodeCursor(String cursor) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split(":");
            if (parts.length == 3 && parts[0].equals("v1")) {
                long commit = Long.parseLong(parts[1]);
                long offset = Long.parseLong(parts[2]);
                if (commit >= 0 && offset >= 0) {
                    return new long[] {commit, offset};
                }
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw VersoException.argument(ErrorCode.INVALID_REQUEST, "'" + cursor + "' is not a cursor this service made",
                "after");
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

    /** {@code FROM "t" [AS OF COMMIT ? | AS OF TIMESTAMP ?]} or the same of {@code history("t")}. */
    static void from(Stmt.Builder b, TableShape table, boolean history, Long asOf, String asOfTime) {
        b.sql(" FROM ");
        if (history) {
            b.sql("history(").ident(table.name()).sql(")");
        } else {
            b.ident(table.name());
        }
        if (asOf != null) {
            b.sql(" AS OF COMMIT ").param(asOf);
        } else if (asOfTime != null) {
            b.sql(" AS OF TIMESTAMP ").param(asOfTime);
        }
    }

    /**
     * The commit rows were read at: the client's or the request's, else the one the statement reported
     * (an asOfTime resolved to a commit, or the latest).
     */
    static long readCommit(Long at, List<StatementResult> results, ExecutionResult execution) {
        if (at != null) {
            return at;
        }
        return results.get(0) instanceof StatementResult.Rows rows && rows.asOfCommit() != null
                ? rows.asOfCommit() : execution.readCommit();
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

    static void keyEquals(Stmt.Builder b, TableShape table, Map<String, Object> key) {
        List<ColumnDef> keys = table.keys();
        for (int i = 0; i < keys.size(); i++) {
            b.sql(i > 0 ? " AND " : "").ident(keys.get(i).name()).sql(" = ").param(key.get(keys.get(i).name()));
        }
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
        public List<Stmt> statements(Long pinned) {
            at = readAt(table, asOf, asOfTime, pinned);
            Stmt.Builder b = Stmt.builder().sql("SELECT *");
            from(b, table, false, at, asOfTime);
            if (where != null && !where.isEmpty()) {
                b.sql(" WHERE ");
                Predicates.where(b, where);
            }
            List<String> tieBreakers = (table.keyed() ? table.keys() : table.columns()).stream()
                    .map(ColumnDef::name).toList();
            Predicates.orderBy(b, orderBy == null ? List.of() : orderBy, tieBreakers);
            // One row more than asked tells whether there is a next page.
            b.sql(" LIMIT ").param(limit + 1).sql(" OFFSET ").param(offset);
            return List.of(b.build());
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            long commit = readCommit(at, results, execution);
            List<Row> rows = rows(results.get(0), commit);
            boolean more = rows.size() > limit;
            List<Row> nodes = more ? rows.subList(0, limit) : rows;
            state.addRows(nodes.size(), maxRows);
            String end = nodes.isEmpty() ? null : cursor(commit, offset + nodes.size());
            return new Page(List.copyOf(nodes), commit, more, end);
        }
    }

    /** {@code t_by_key(keys..., asOfCommit)}. */
    static final class KeyJob implements Job {
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
        public List<Stmt> statements(Long pinned) {
            at = readAt(table, asOf, asOfTime, pinned);
            Stmt.Builder b = Stmt.builder().sql("SELECT *");
            from(b, table, false, at, asOfTime);
            b.sql(" WHERE ");
            keyEquals(b, table, key);
            return List.of(b.build());
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
        public List<Stmt> statements(Long pinned) {
            at = readAt(table, asOf, asOfTime, pinned);
            Stmt.Builder b = Stmt.builder().sql("SELECT *");
            from(b, table, true, at, asOfTime);
            b.sql(" WHERE ");
            keyEquals(b, table, key);
            if (group != null) {
                b.sql(" AND ").ident("_group").sql(" = ").param(group);
            }
            b.sql(" ORDER BY ").ident("_commit").sql(", ").ident("_group")
                    .sql(" LIMIT ").param(limit).sql(" OFFSET ").param(offset);
            return List.of(b.build());
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
        public List<Stmt> statements(Long pinned) {
            at = readAt(table, asOf, asOfTime, pinned);
            Stmt.Builder b = Stmt.builder().sql("SELECT count(*)");
            for (ColumnDef c : table.columns()) {
                if (TableShape.orderable(c.type())) {
                    b.sql(", min(").ident(c.name()).sql("), max(").ident(c.name()).sql(")");
                }
                if (TableShape.summable(c.type())) {
                    b.sql(", sum(").ident(c.name()).sql("), avg(").ident(c.name()).sql(")");
                }
            }
            from(b, table, false, at, asOfTime);
            if (where != null && !where.isEmpty()) {
                b.sql(" WHERE ");
                Predicates.where(b, where);
            }
            return List.of(b.build());
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
        public List<Stmt> statements(Long pinned) {
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
        public List<Stmt> statements(Long pinned) {
            NestedHistoryJob first = members.get(0);
            TableShape table = first.table;
            List<ColumnDef> keys = table.keys();
            Stmt.Builder b = Stmt.builder().sql("SELECT *");
            // The parent rows were read at this commit: their history is read as it was then.
            from(b, table, true, first.parent.commit(), null);
            b.sql(" WHERE ");
            if (keys.size() == 1) {
                b.ident(keys.get(0).name()).sql(" IN (");
                for (int i = 0; i < members.size(); i++) {
                    b.sql(i > 0 ? ", " : "").param(members.get(i).parent.values().get(keys.get(0).name()));
                }
                b.sql(")");
            } else {
                b.sql("(");
                for (int i = 0; i < members.size(); i++) {
                    b.sql(i > 0 ? " OR " : "").sql("(");
                    keyEquals(b, table, members.get(i).parent.values());
                    b.sql(")");
                }
                b.sql(")");
            }
            b.sql(" ORDER BY ").ident("_commit").sql(", ").ident("_group");
            return List.of(b.build());
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
