package io.verso.api.graphql;

import io.verso.catalog.ColumnDef;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.surface.ReadBuilder;
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
        public List<Statement> statements(ReadBuilder b, Long pinned) {
            List<Statement> out = new ArrayList<>();
            Ident target = new Ident(table.name(), ReadJobs.at(b, (upsert ? "upsert_" : "insert_") + table.name()));
            Ident groupIdent = group == null ? null : new Ident(group, ReadJobs.at(b, "group"));
            int start = 0;
            while (start < rows.size()) {
                Set<String> columns = rows.get(start).keySet();
                int end = start + 1;
                while (end < rows.size() && rows.get(end).keySet().equals(columns)) {
                    end++;
                }
                out.add(statement(b, target, groupIdent, new ArrayList<>(new LinkedHashSet<>(columns)), start, end));
                start = end;
            }
            return out;
        }

        /** One INSERT/UPSERT of rows start to end (exclusive), each value a parameter at its argument path. */
        private Statement statement(ReadBuilder b, Ident target, Ident groupIdent, List<String> columns, int start,
                                    int end) {
            if (columns.isEmpty()) {
                throw VersoException.argument(ErrorCode.INVALID_REQUEST, "a row gives no column", "rows[" + start + "]");
            }
            List<Ident> names = new ArrayList<>();
            for (String column : columns) {
                names.add(new Ident(column, ReadJobs.at(b, "rows[" + start + "]." + column)));
            }
            List<List<Expr>> values = new ArrayList<>();
            for (int r = start; r < end; r++) {
                List<Expr> row = new ArrayList<>();
                for (String column : columns) {
                    row.add(b.param(rows.get(r).get(column), ReadJobs.at(b, "rows[" + r + "]." + column)));
                }
                values.add(row);
            }
            // Its own position is its first row: a refusal of the whole statement names that row.
            return new Statement.InsertRows(upsert, target, names, values, groupIdent,
                    ReadJobs.at(b, "rows[" + start + "]"));
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
     * {@code delete_t(keys, at)}: tombstones for the keys, written whether or not they have a live row,
     * as one delete that carries its keys.
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
        public List<Statement> statements(ReadBuilder b, Long pinned) {
            // One statement that names its keys: each tombstone carries its key values and the ordering
            // values of "at", each at the argument it came from (the analyzer reports a missing one).
            List<Statement.Tombstone> tombstones = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                List<Statement.Assignment> values = new ArrayList<>();
                for (ColumnDef c : table.keys()) {
                    Pos pos = ReadJobs.at(b, "keys[" + i + "]." + c.name());
                    values.add(new Statement.Assignment(new Ident(c.name(), pos), b.param(keys.get(i).get(c.name()),
                            pos)));
                }
                for (Map.Entry<String, Object> value : at.entrySet()) {
                    Pos pos = ReadJobs.at(b, "at." + value.getKey());
                    values.add(new Statement.Assignment(new Ident(value.getKey(), pos), b.param(value.getValue(), pos)));
                }
                tombstones.add(new Statement.Tombstone(values, ReadJobs.at(b, "keys[" + i + "]")));
            }
            order.clear();
            for (int i = 0; i < keys.size(); i++) {
                order.add(i);
            }
            return List.of(new Statement.DeleteKeys(new Ident(table.name(), ReadJobs.at(b, "delete_" + table.name())),
                    tombstones, ReadJobs.at(b, "keys")));
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
        public List<Statement> statements(ReadBuilder b, Long pinned) {
            throw error;
        }

        @Override
        public Object complete(List<StatementResult> results, ExecutionResult execution) {
            throw error;
        }
    }
}
