package io.verso.engine;

import java.util.List;

/** What one statement of a request produced. */
public sealed interface StatementResult {

    /** A result column: its name and dialect type. */
    record Column(String name, String type) {
    }

    /**
     * Rows of a read. Values are JSON-ready: 64-bit integers, NUMERIC and commit sequences as
     * strings, timestamps as ISO-8601 strings, JSONB as JSON.
     *
     * @param asOfCommit the commit the read was served at (null for catalog listings)
     * @param pinned whether any relation was read AS OF a commit or time, rather than its current rows
     * @param fixed whether every relation was read at a fixed commit, so the answer does not depend
     *        on commits made after those (a read without relations, such as {@code SELECT 1}, too)
     */
    record Rows(String statement, List<Column> columns, List<List<Object>> rows, Long asOfCommit, boolean pinned,
                boolean fixed) implements StatementResult {

        /** A listing of the catalog or of current state: read now, at no fixed commit. */
        public Rows(String statement, List<Column> columns, List<List<Object>> rows, Long asOfCommit) {
            this(statement, columns, rows, asOfCommit, false, false);
        }
    }

    /**
     * A write's receipt: rows given, versions written, and how many became current or lost on
     * arrival. {@code rowCurrent[i]} tells whether row i became current in at least one group;
     * {@code keys[i]} is its key values as text.
     */
    record Written(String statement, String table, long rows, long versions, long current, long lost,
                   List<String[]> keys, boolean[] rowCurrent) implements StatementResult {

        static Written empty(String statement, String table) {
            return new Written(statement, table, 0, 0, 0, 0, List.of(), new boolean[0]);
        }
    }

    /** A catalog change. {@code changed} is false for IF [NOT] EXISTS no-ops. */
    record Changed(String statement, String table, boolean changed, Long count) implements StatementResult {
    }
}
