package io.verso.engine;

import io.verso.compile.CompiledSql;
import io.verso.compile.CompiledSql.ArrayBind;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Component;

/** Runs compiled SQL on the transaction's connection, binding every value as a parameter. */
@Component
public class SqlRunner {

    private final JdbcTemplate jdbc;

    public SqlRunner(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * What {@link JdbcTemplate#execute(ConnectionCallback)} does (the transaction's connection, released
     * after; SQLExceptions translated by the template's translator) without its close-suppressing
     * connection proxy: a dynamic proxy made per call, and reflection on every call through it, on every
     * statement of every request. The callbacks here never close the connection.
     */
    private <T> T execute(ConnectionCallback<T> action) {
        DataSource dataSource = jdbc.getDataSource();
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            return action.doInConnection(connection);
        } catch (SQLException e) {
            DataSourceUtils.releaseConnection(connection, dataSource);
            connection = null;
            DataAccessException translated = jdbc.getExceptionTranslator().translate("ConnectionCallback", null, e);
            throw translated != null ? translated : new UncategorizedSQLException("ConnectionCallback", null, e);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    public <T> T query(CompiledSql sql, RowMapper<T> reader) {
        return execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(sql.sql())) {
                bind(connection, ps, sql.binds());
                // Inside a transaction pgjdbc then reads rows in batches through a portal instead of buffering
                // the whole result, so a reader that stops at its limit never holds more than one batch extra.
                ps.setFetchSize(1000);
                try (ResultSet rs = ps.executeQuery()) {
                    return reader.map(rs);
                }
            }
        });
    }

    /**
     * {@code settings}, then {@code query}, in one round trip (pgjdbc sends a multi-statement text as one
     * batch with a single Sync), the rows of {@code query} read. What {@code settings} sets for the
     * transaction ({@code set_config(..., true)}) holds for {@code query} from its start: PostgreSQL arms a
     * statement's statement_timeout when the statement starts, so a timeout set by the statement itself
     * would not bound it.
     */
    public <T> T queryAfter(CompiledSql settings, CompiledSql query, RowMapper<T> reader) {
        return execute((Connection connection) -> {
            try (PreparedStatement ps = batch(connection, settings, query)) {
                ps.execute();
                if (!ps.getMoreResults()) {
                    throw new IllegalStateException("the query after the settings returned no rows");
                }
                try (ResultSet rs = ps.getResultSet()) {
                    return reader.map(rs);
                }
            }
        });
    }

    /** Every row as text, column by column. */
    public List<String[]> texts(CompiledSql sql) {
        return query(sql, rs -> {
            int columns = rs.getMetaData().getColumnCount();
            List<String[]> rows = new ArrayList<>();
            while (rs.next()) {
                String[] row = new String[columns];
                for (int i = 0; i < columns; i++) {
                    row[i] = rs.getString(i + 1);
                }
                rows.add(row);
            }
            return rows;
        });
    }

    /** The first row's numbers, for statements that report counts. */
    public long[] counts(CompiledSql sql) {
        return query(sql, rs -> {
            int columns = rs.getMetaData().getColumnCount();
            long[] counts = new long[columns];
            if (rs.next()) {
                for (int i = 0; i < columns; i++) {
                    counts[i] = rs.getLong(i + 1);
                }
            }
            return counts;
        });
    }

    /**
     * A read-only transaction in one round trip: {@code BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY},
     * {@code state}, {@code query} and {@code COMMIT} sent together (pgjdbc sends a multi-statement text as
     * one batch with a single Sync), so both statements read one snapshot. {@code accept} reads the state's
     * row first; when it returns false the query's rows are not read and this returns null. At most
     * {@code maxRows} + 1 rows come back (no cursor outside a driver-managed transaction): enough for the
     * reader to see that the result is too large. Null as well when the calling thread is already in a
     * transaction (the batch's BEGIN would not start one).
     */
    public <T> T readOnce(CompiledSql state, CompiledSql query, int maxRows, RowMapper<Boolean> accept,
                          RowMapper<T> reader) {
        if (org.springframework.transaction.support.TransactionSynchronizationManager.isActualTransactionActive()) {
            return null;
        }
        return execute((Connection connection) -> {
            if (!connection.getAutoCommit()) {
                return null;
            }
            try (PreparedStatement ps = batch(connection, BEGIN_READ, state, query, COMMIT)) {
                ps.setMaxRows(maxRows + 1);
                boolean isRows = ps.execute();
                int read = 0;
                while (isRows || ps.getUpdateCount() != -1) {
                    if (isRows) {
                        try (ResultSet rs = ps.getResultSet()) {
                            if (read++ == 0) {
                                if (!accept.map(rs)) {
                                    return null;
                                }
                            } else {
                                return reader.map(rs);
                            }
                        }
                    }
                    isRows = ps.getMoreResults();
                }
                throw new IllegalStateException("the read batch returned no rows");
            } catch (SQLException e) {
                // The batch failed part way: its transaction is open (aborted) until rolled back.
                try {
                    if (connection.unwrap(org.postgresql.core.BaseConnection.class).getTransactionState()
                            != org.postgresql.core.TransactionState.IDLE) {
                        try (var rollback = connection.createStatement()) {
                            rollback.execute("ROLLBACK");
                        }
                    }
                } catch (SQLException again) {
                    e.addSuppressed(again); // the connection is broken: the pool retires it
                }
                throw e;
            }
        });
    }

    /**
     * Runs {@code last}, the last statement of the transaction the caller began, and COMMIT in one round
     * trip (pgjdbc sends a multi-statement text as one batch with a single Sync; if {@code last} fails,
     * PostgreSQL skips the COMMIT and the transaction stays open, aborted, for the caller's rollback). The
     * transaction manager's commit then finds no transaction open, and pgjdbc sends nothing for it. A
     * COMMIT that fails throws here, as it would from the manager's commit.
     */
    public void updateAndCommit(CompiledSql last) {
        execute((Connection connection) -> {
            try (PreparedStatement ps = batch(connection, last, COMMIT)) {
                boolean isRows = ps.execute();
                while (isRows || ps.getUpdateCount() != -1) {
                    isRows = ps.getMoreResults();
                }
                return null;
            }
        });
    }

    public int update(CompiledSql sql) {
        return execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(sql.sql())) {
                bind(connection, ps, sql.binds());
                return ps.executeUpdate();
            }
        });
    }

    private static final CompiledSql BEGIN_READ = new CompiledSql("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
            List.of());
    private static final CompiledSql COMMIT = new CompiledSql("COMMIT", List.of());

    /**
     * Several statements as one text, their values bound in order: pgjdbc sends them as one batch with a
     * single Sync, one round trip. If one fails, PostgreSQL skips the rest.
     */
    private static PreparedStatement batch(Connection connection, CompiledSql... statements) throws SQLException {
        StringBuilder text = new StringBuilder();
        List<Object> binds = new ArrayList<>();
        for (CompiledSql statement : statements) {
            text.append(text.isEmpty() ? "" : "; ").append(statement.sql());
            binds.addAll(statement.binds());
        }
        PreparedStatement ps = connection.prepareStatement(text.toString());
        try {
            bind(connection, ps, binds);
        } catch (SQLException e) {
            ps.close();
            throw e;
        }
        return ps;
    }

    private static void bind(Connection connection, PreparedStatement ps, List<Object> binds) throws SQLException {
        for (int i = 0; i < binds.size(); i++) {
            Object value = binds.get(i);
            int index = i + 1;
            if (value == null) {
                ps.setNull(index, Types.NULL);
            } else if (value instanceof ArrayBind array) {
                ps.setArray(index, connection.createArrayOf(array.elementType(), array.values()));
            } else if (value instanceof Integer v) {
                ps.setInt(index, v);
            } else if (value instanceof Long v) {
                ps.setLong(index, v);
            } else if (value instanceof BigDecimal v) {
                ps.setBigDecimal(index, v);
            } else if (value instanceof Boolean v) {
                ps.setBoolean(index, v);
            } else if (value instanceof Double v) {
                ps.setDouble(index, v);
            } else {
                // Sent untyped (stringtype=unspecified): PostgreSQL infers the type from the context,
                // as it does for a quoted literal.
                ps.setString(index, value.toString());
            }
        }
    }
}
