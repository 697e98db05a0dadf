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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.postgresql.PGStatement;
import org.postgresql.util.PGobject;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Component;

/** Runs compiled SQL on the transaction's connection, binding every value as a parameter. */
@Component
public class SqlRunner implements AutoCloseable {

    private final JdbcTemplate jdbc;
    private final StatementDeadlines deadlines = new StatementDeadlines();

    /**
     * The catalog version (verso.catalog_version) under which each physical connection prepared the
     * statements it holds; absent when unknown. pgjdbc prepares server-side from a text's first use
     * (prepareThreshold 1), and PostgreSQL re-plans a prepared statement after DDL but refuses to run it
     * when its result columns changed type ("cached plan must not change result type", SQLSTATE 0A000):
     * a column dropped and added again under the same name would fail the next read of every connection
     * that had read the table. {@link #preparedUnder} makes a connection forget its statements when the
     * catalog moved since it made them. Weak keys: the pool retires connections without telling.
     */
    private final Map<Connection, Long> preparedUnder = Collections.synchronizedMap(new WeakHashMap<>());

    /** The physical connections whose session holds {@link #readAlone}'s settings; weak keys as above. */
    private final Map<Connection, Boolean> sessionSet = Collections.synchronizedMap(new WeakHashMap<>());

    public SqlRunner(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void close() {
        deadlines.close();
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

    /**
     * Before the statements of a transaction that reads catalog {@code version}: when the transaction's
     * connection prepared statements under another version (or it is not known under which), they are all
     * deallocated. pgjdbc recognises DEALLOCATE ALL and prepares its statements afresh (its cache's epoch).
     * One round trip per connection and catalog change, none otherwise.
     */
    public void preparedUnder(long version) {
        execute((Connection connection) -> {
            forgetUnlessUnder(connection, version);
            return null;
        });
    }

    /**
     * After a statement that changed the schema in this transaction (or a rollback that undid such a
     * change): the connection's prepared statements are forgotten now, and again before its next
     * transaction, which may read the schema this one commits or the one it rolls back to.
     */
    public void schemaChanged() {
        execute((Connection connection) -> {
            deallocate(connection);
            return null;
        });
    }

    private void forgetUnlessUnder(Connection connection, long version) throws SQLException {
        Connection physical = connection.unwrap(org.postgresql.core.BaseConnection.class);
        Long before = preparedUnder.put(physical, version);
        if (before == null || before != version) {
            try (var statement = connection.createStatement()) {
                statement.execute("DEALLOCATE ALL");
            }
        }
    }

    private void deallocate(Connection connection) throws SQLException {
        preparedUnder.remove(connection.unwrap(org.postgresql.core.BaseConnection.class));
        try (var statement = connection.createStatement()) {
            statement.execute("DEALLOCATE ALL");
        }
    }

    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    public <T> T query(CompiledSql sql, RowMapper<T> reader) {
        return execute((Connection connection) -> {
            try (PreparedStatement ps = prepare(connection, sql.sql(), sql.binds())) {
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

    /**
     * The rows of {@code sql} as text, column by column, handed to {@code each} in chunks of {@code size} rows or
     * more: a chunk ends once it holds {@code size} rows, but never between two rows that {@code together}
     * keeps together (the last chunk may be smaller; none when there are no rows). Inside a transaction pgjdbc
     * reads the rows through a portal a batch at a time, and {@code each} may run statements of its own
     * meanwhile: the portal keeps the snapshot it started with, so the rows are what the query saw before any of
     * them. Only one chunk is held at a time.
     */
    public void chunks(CompiledSql sql, int size, BiPredicate<String[], String[]> together,
                       Consumer<List<String[]>> each) {
        query(sql, rs -> {
            int columns = rs.getMetaData().getColumnCount();
            List<String[]> chunk = new ArrayList<>(size);
            while (rs.next()) {
                String[] row = new String[columns];
                for (int i = 0; i < columns; i++) {
                    row[i] = rs.getString(i + 1);
                }
                if (chunk.size() >= size && !together.test(chunk.get(chunk.size() - 1), row)) {
                    each.accept(chunk);
                    chunk = new ArrayList<>(size);
                }
                chunk.add(row);
            }
            if (!chunk.isEmpty()) {
                each.accept(chunk);
            }
            return null;
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
     * transaction (the batch's BEGIN would not start one), and when PostgreSQL refused the batch as not
     * supported (0A000: see below). {@code version} is the catalog version the query was compiled under
     * ({@link #preparedUnder}).
     */
    public <T> T readOnce(long version, CompiledSql state, CompiledSql query, int maxRows, RowMapper<Boolean> accept,
                          RowMapper<T> reader) {
        return outsideTransaction(version, (Connection connection) -> {
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
                if (FEATURE_NOT_SUPPORTED.equals(e.getSQLState())) {
                    // Most likely a statement prepared under the catalog version assumed, while another
                    // instance's DDL has moved it on ("cached plan must not change result type"): this read
                    // is not one round trip's, and the caller reads again in a transaction of its own, which
                    // learns the version first. A 0A000 of the statement itself comes back from that read.
                    deallocate(connection);
                    return null;
                }
                throw e;
            }
        });
    }

    /**
     * One statement, alone in its implicit transaction (autocommit): the cheapest read PostgreSQL runs, one
     * snapshot for the whole statement, with no BEGIN or COMMIT to parse and log. Statement-level settings
     * cannot be set by the statement itself (PostgreSQL arms statement_timeout when the statement starts), so
     * the statement is cancelled from here after {@code timeoutMillis} ({@link StatementDeadlines}: SQLSTATE
     * 57014, as for statement_timeout) and {@code session} is set for the connection's session once per physical
     * connection (settings every engine transaction sets to the same values locally). {@code accept} reads
     * the first row (the statement always returns one, see StatementEngine's runOnce) before {@code reader}
     * reads from it on; when it returns false this returns null, as it does when the calling thread is in a
     * transaction or when PostgreSQL refused a statement prepared under another catalog version (0A000:
     * see {@link #readOnce}).
     */
    public <T> T readAlone(long version, CompiledSql session, CompiledSql statement, long timeoutMillis, int maxRows,
                           RowMapper<Boolean> accept, RowMapper<T> reader) {
        return outsideTransaction(version, (Connection connection) -> {
            Connection physical = connection.unwrap(org.postgresql.core.BaseConnection.class);
            if (sessionSet.put(physical, Boolean.TRUE) == null) {
                try (PreparedStatement ps = prepare(connection, session.sql(), session.binds())) {
                    ps.execute();
                } catch (SQLException e) {
                    sessionSet.remove(physical);
                    throw e;
                }
            }
            try (PreparedStatement ps = prepare(connection, statement.sql(), statement.binds())) {
                ps.setMaxRows(maxRows + 1);
                return deadlines.within(ps, timeoutMillis, () -> {
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            throw new IllegalStateException("the read returned no state row");
                        }
                        return accept.map(rs) ? reader.map(rs) : null;
                    }
                });
            } catch (SQLException e) {
                if (FEATURE_NOT_SUPPORTED.equals(e.getSQLState())) {
                    deallocate(connection);
                    return null;
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
            try (PreparedStatement ps = prepare(connection, sql.sql(), sql.binds())) {
                return ps.executeUpdate();
            }
        });
    }

    /**
     * Runs {@code action} on a connection in autocommit, its prepared statements those of catalog version
     * {@code version}; null, without running it, when the calling thread is in a transaction (a read of its
     * own would not see the transaction's writes, nor begin a transaction of its own).
     */
    private <T> T outsideTransaction(long version, ConnectionCallback<T> action) {
        if (org.springframework.transaction.support.TransactionSynchronizationManager.isActualTransactionActive()) {
            return null;
        }
        return execute((Connection connection) -> {
            if (!connection.getAutoCommit()) {
                return null;
            }
            forgetUnlessUnder(connection, version);
            return action.doInConnection(connection);
        });
    }

    private static final String FEATURE_NOT_SUPPORTED = "0A000";
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
        return prepare(connection, text.toString(), binds);
    }

    /** {@code text} prepared and bound, planned for its rows when an array bind holds many (see below). */
    private static PreparedStatement prepare(Connection connection, String text, List<Object> binds)
            throws SQLException {
        boolean many = false;
        for (Object bind : binds) {
            many |= bind instanceof ArrayBind array && array.values().length > PLANNED_FOR_ITS_ROWS;
        }
        PreparedStatement ps = connection.prepareStatement(many ? PLANNED_FOR_ITS_ROWS_MARK + text : text);
        try {
            if (many) {
                ps.unwrap(PGStatement.class).setPrepareThreshold(0);
            }
            bind(connection, ps, binds);
        } catch (SQLException e) {
            ps.close();
            throw e;
        }
        return ps;
    }

    /**
     * The most elements an array bind has in a statement PostgreSQL may run on a plan made for no binds in
     * particular. Past it, the statement goes unnamed (pgjdbc's prepare threshold 0) and under a text of its own
     * ({@link #PLANNED_FOR_ITS_ROWS_MARK} before it: pgjdbc keeps one server-side statement per text and
     * connection, and ran a large write on the one its small writes had prepared), so PostgreSQL plans it for the
     * arrays it is given. A write's statements take their rows as arrays, and the generic plan PostgreSQL
     * switches to after a prepared statement's fifth run on a connection counts ten elements in each: it joined
     * a batch's written rows to its candidates by a nested loop over every pair, so an UPSERT of 1,000 rows took
     * 110-170 ms instead of 30-40, and one of 10,000 took 9.4 s instead of 0.15 (docs/benchmark.md). Small
     * statements keep their cached plan: planning a write's statement costs PostgreSQL milliseconds, more than
     * such a nested loop costs at a hundred rows.
     */
    static final int PLANNED_FOR_ITS_ROWS = 100;
    static final String PLANNED_FOR_ITS_ROWS_MARK = "/* planned for its rows */ ";

    private static void bind(Connection connection, PreparedStatement ps, List<Object> binds) throws SQLException {
        for (int i = 0; i < binds.size(); i++) {
            Object value = binds.get(i);
            int index = i + 1;
            if (value == null) {
                ps.setNull(index, Types.NULL);
            } else if (value instanceof CompiledSql.TextBind text) {
                PGobject typed = new PGobject();
                typed.setType("text");
                typed.setValue(text.value());
                ps.setObject(index, typed);
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
