package io.verso.api.graphql;

import io.verso.catalog.ColumnDef;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The mutation fields' jobs. All mutation fields of one request run in one engine call: one commit. */
final class WriteJobs {

    private WriteJobs() {
    }

    /** Per input row (or key): its key, as given, and whether it became current in at least one group. */
    record RowOutcome(int index, Map<String, Object> key, boolean current) {
    }

    /** A mutation's receipt. */
    record Receipt(long commit, long rows, long versions, long current, long lost, List<RowOutcome> outcomes) {
    }

    private abstract static class WriteJob implements Job {
        final RequestState state;
        final TableShape table;

        WriteJob(RequestState state, TableShape table) {
            this.state = state;
            this.table = table;
        }

        @Override
        public RequestState state() {
            return state;
        }

        @Override
        public boolean writes() {
            return true;
        }

        Map<String, Object> keyOf(Map<String, Object> row) {
            Map<String, Object> key = new LinkedHashMap<>();
            for (ColumnDef c : table.keys()) {
                key.put(c.name(), row.get(c.name()));
            }
            return key;
        }

        /** Sums the statements' receipts; {@code order[i]} is the input index of the i-th row written. */
        Receipt receipt(List<StatementResult> results, ExecutionResult execution, List<Integer> order,
                        List<Map<String, Object>> inputs) {
            long rows = 0;
            long versions = 0;
            long current = 0;
            long lost = 0;
            RowOutcome[] outcomes = new RowOutcome[inputs.size()];
            int next = 0;
            for (StatementResult result : results) {
                StatementResult.Written w = (StatementResult.Written) result;
                rows += w.rows();
                versions += w.versions();
                current += w.current();
                lost += w.lost();
                for (int r = 0; r < w.rows(); r++) {
                    int index = order.get(next++);
                    outcomes[index] = new RowOutcome(index, keyOf(inputs.get(index)), w.rowCurrent()[r]);
                }
            }
            state.wrote(execution.commit());
            return new Receipt(execution.commit(), rows, versions, current, lost, List.of(outcomes));
        }
    }

    /**
     * {@code upsert_t(rows, group)} and {@code insert_t(rows)}: the rows, in order, as one statement per
     * run of rows that give the same columns (a statement has one column list; a column left out takes its
     * DEFAULT, so rows are not padded with NULLs).
     */
    static final class RowsJob extends WriteJob {
        private final boolean upsert;
        private final List<Map<String, Object>> rows;
        private final String group;

        RowsJob(RequestState state, TableShape table, boolean upsert, List<Map<String, Object>> rows, String group) {
            super(state, table);
            this.upsert = upsert;
            this.rows = rows;
            this.group = group;
            if (rows.isEmpty()) {
                throw VersoException.argument(ErrorCode.INVALID_REQUEST, "rows is empty: give at least one row",
                        "rows");
            }
        }

        @Override
        public List<Stmt> statements(Long pinned) {
            List<Stmt> out = new ArrayList<>();
            int start = 0;
            while (start < rows.size()) {
                Set<String> columns = rows.get(start).keySet();
                int end = start + 1;
                while (end < rows.size() && rows.get(end).keySet().equals(columns)) {
                    end++;
                }
                out.add(statement(new ArrayList<>(new LinkedHashSet<>(columns)), rows.subList(start, end)));
                start = end;
            }
            return out;
        }

        private Stmt statement(List<String> columns, List<Map<String, Object>> run) {
            Stmt.Builder b = Stmt.builder().sql(upsert ? "UPSERT INTO " : "INSERT INTO ").ident(table.name());
            if (columns.isEmpty()) {
                throw VersoException.argument(ErrorCode.INVALID_REQUEST, "a row gives no column", "rows");
            }
            b.sql(" (");
            for (int i = 0; i < columns.size(); i++) {
                b.sql(i > 0 ? ", " : "").ident(columns.get(i));
            }
            b.sql(") VALUES ");
            for (int r = 0; r < run.size(); r++) {
                b.sql(r > 0 ? ", (" : "(");
                for (int i = 0; i < columns.size(); i++) {
                    b.sql(i > 0 ? ", " : "").param(run.get(r).get(columns.get(i)));
                }
                b.sql(")");
            }
            if (group != null) {
                b.sql(" ATTRIBUTE GROUP ").ident(group);
            }
            return b.build();
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                order.add(i);
            }
            return receipt(results, execution, order, rows);
        }
    }

    /**
     * {@code delete_t(keys, at)}: tombstones for the keys, written whether or not they have a live row.
     * Keys that share all but their last key column go into one DELETE with an IN list.
     */
    static final class DeleteJob extends WriteJob {
        private final List<Map<String, Object>> keys;
        private final Map<String, Object> at;
        private final List<Integer> order = new ArrayList<>();

        DeleteJob(RequestState state, TableShape table, List<Map<String, Object>> keys, Map<String, Object> at) {
            super(state, table);
            this.keys = keys;
            this.at = at == null ? Map.of() : at;
            if (keys.isEmpty()) {
                throw VersoException.argument(ErrorCode.INVALID_REQUEST, "keys is empty: give at least one key",
                        "keys");
            }
        }

        @Override
        public List<Stmt> statements(Long pinned) {
            List<ColumnDef> keyColumns = table.keys();
            List<ColumnDef> prefix = keyColumns.subList(0, keyColumns.size() - 1);
            ColumnDef last = keyColumns.get(keyColumns.size() - 1);
            Map<List<Object>, List<Integer>> byPrefix = new LinkedHashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                List<Object> p = new ArrayList<>();
                for (ColumnDef c : prefix) {
                    p.add(keys.get(i).get(c.name()));
                }
                byPrefix.computeIfAbsent(p, k -> new ArrayList<>()).add(i);
            }
            order.clear();
            List<Stmt> out = new ArrayList<>();
            for (Map.Entry<List<Object>, List<Integer>> group : byPrefix.entrySet()) {
                Stmt.Builder b = Stmt.builder().sql("DELETE FROM ").ident(table.name()).sql(" WHERE ");
                for (int i = 0; i < prefix.size(); i++) {
                    b.ident(prefix.get(i).name()).sql(" = ").param(group.getKey().get(i)).sql(" AND ");
                }
                b.ident(last.name()).sql(" IN (");
                List<Integer> members = group.getValue();
                for (int i = 0; i < members.size(); i++) {
                    b.sql(i > 0 ? ", " : "").param(keys.get(members.get(i)).get(last.name()));
                }
                b.sql(")");
                if (!at.isEmpty()) {
                    b.sql(" AT (");
                    int i = 0;
                    for (Map.Entry<String, Object> value : at.entrySet()) {
                        b.sql(i++ > 0 ? ", " : "").ident(value.getKey()).sql(" = ").param(value.getValue());
                    }
                    b.sql(")");
                }
                out.add(b.build());
                order.addAll(members);
            }
            return out;
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            return receipt(results, execution, order, keys);
        }
    }

    /**
     * A mutation field whose arguments were refused before any statement was made. It still joins
     * the batch, so the request's other mutation fields write nothing either.
     */
    static final class FailedJob implements Job {
        private final RequestState state;
        private final RuntimeException error;

        FailedJob(RequestState state, RuntimeException error) {
            this.state = state;
            this.error = error;
        }

        @Override
        public RequestState state() {
            return state;
        }

        @Override
        public boolean writes() {
            return true;
        }

        @Override
        public List<Stmt> statements(Long pinned) {
            throw error;
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            throw error;
        }
    }
}
