package io.verso.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * The peer anchor: MariaDB's system-versioned table, written with INSERT … ON DUPLICATE KEY UPDATE
 * whose assignments apply the same ordering rule (a version replaces the row only when its
 * (balance_index, balance_version) is greater). MariaDB has no commit sequence: after each batch's
 * commit the writer records the server's clock, and AS OF commit n becomes FOR SYSTEM_TIME AS OF
 * that timestamp.
 */
final class MariaDb implements AutoCloseable {

    private static final String COLS = "chain_id, address, token, amount, updated_at, balance_index, balance_version";
    private static final String NEWER = "(VALUES(balance_index), VALUES(balance_version)) > (balance_index, balance_version)";

    private final Pool pool;
    int deadlockRetries;

    MariaDb(Supplier<Connection> connect) {
        this.pool = new Pool(connect);
    }

    String settings() throws SQLException {
        return pool.with(c -> {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT version(), @@innodb_flush_log_at_trx_commit, @@innodb_buffer_pool_size")) {
                rs.next();
                return "MariaDB " + rs.getString(1) + ", innodb_flush_log_at_trx_commit=" + rs.getString(2)
                        + ", innodb_buffer_pool_size=" + rs.getLong(3) / (1024 * 1024) + " MiB";
            }
        });
    }

    void create(String t) throws SQLException {
        pool.with(c -> {
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + t);
                s.execute("CREATE TABLE " + t + " (chain_id BIGINT NOT NULL, address VARCHAR(64) NOT NULL,"
                        + " token VARCHAR(8) NOT NULL, amount DECIMAL(38,0), updated_at DATETIME(3),"
                        + " balance_index BIGINT NOT NULL, balance_version BIGINT NOT NULL,"
                        + " PRIMARY KEY (chain_id, address, token)) ENGINE=InnoDB WITH SYSTEM VERSIONING");
            }
            return null;
        });
    }

    /**
     * One batch, one transaction; returns the server time after the commit. Rows go in key order so
     * concurrent writers lock keys in the same order (a deadlock is retried and counted).
     */
    Timestamp write(String t, Workload w, int[] batch) throws SQLException {
        return pool.with(c -> {
            long[] byKey = new long[batch.length];
            for (int i = 0; i < batch.length; i++) {
                byKey[i] = (long) w.key(batch[i]) << 20 | i;
            }
            Arrays.sort(byKey);
            int[] rows = new int[batch.length];
            for (int i = 0; i < batch.length; i++) {
                rows[i] = batch[(int) (byKey[i] & 0xFFFFF)];
            }
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(t).append(" (").append(COLS).append(") VALUES ");
            for (int i = 0; i < rows.length; i++) {
                sql.append(i == 0 ? "(?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?)");
            }
            // Assignments run left to right and see the values already assigned: the ordering columns
            // come last, balance_version before balance_index, so every guard compares with the old row.
            sql.append(" ON DUPLICATE KEY UPDATE amount = IF(").append(NEWER).append(", VALUES(amount), amount),")
                    .append(" updated_at = IF(").append(NEWER).append(", VALUES(updated_at), updated_at),")
                    .append(" balance_version = IF(").append(NEWER).append(", VALUES(balance_version), balance_version),")
                    .append(" balance_index = IF(").append(NEWER).append(", VALUES(balance_index), balance_index)");
            for (int attempt = 0; ; attempt++) {
                c.setAutoCommit(false);
                try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                    int p = 1;
                    for (int write : rows) {
                        int key = w.key(write);
                        int v = w.version(write);
                        ps.setLong(p++, Workload.chainId(key));
                        ps.setString(p++, w.address(key));
                        ps.setString(p++, Workload.token(key));
                        ps.setString(p++, w.amount(key, v));
                        ps.setTimestamp(p++, Timestamp.valueOf(Workload.updatedAt(v)));
                        ps.setLong(p++, Workload.balanceIndex(v));
                        ps.setLong(p++, Workload.balanceVersion(v));
                    }
                    ps.executeUpdate();
                    c.commit();
                    break;
                } catch (SQLTransientException e) {
                    c.rollback();
                    if (attempt >= 20) {
                        throw e;
                    }
                    synchronized (this) {
                        deadlockRetries++;
                    }
                } catch (SQLException | RuntimeException e) {
                    c.rollback();
                    throw e;
                } finally {
                    c.setAutoCommit(true);
                }
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT NOW(6)")) {
                rs.next();
                return rs.getTimestamp(1);
            }
        });
    }

    /** UPDATE of existing keys of the system-versioned table: one statement per row, one transaction. */
    int update(String t, Workload w, int[] batch) throws SQLException {
        return pool.with(c -> {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("UPDATE " + t + " SET amount = ?, updated_at = ?,"
                    + " balance_index = ?, balance_version = ? WHERE" + KEY)) {
                for (int write : batch) {
                    int key = w.key(write);
                    int v = w.version(write);
                    ps.setString(1, w.amount(key, v));
                    ps.setTimestamp(2, Timestamp.valueOf(Workload.updatedAt(v)));
                    ps.setLong(3, Workload.balanceIndex(v));
                    ps.setLong(4, Workload.balanceVersion(v));
                    ps.setLong(5, Workload.chainId(key));
                    ps.setString(6, w.address(key));
                    ps.setString(7, Workload.token(key));
                    ps.addBatch();
                }
                ps.executeBatch();
                c.commit();
                return batch.length;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    // ---- reads ------------------------------------------------------------------------------------

    private static final String KEY = " chain_id = ? AND address = ? AND token = ?";

    long row(String t, Workload w, int key, Timestamp asOf) throws SQLException {
        return pool.with(c -> {
            String sql = "SELECT " + COLS + " FROM " + t + (asOf == null ? "" : " FOR SYSTEM_TIME AS OF TIMESTAMP ?")
                    + " WHERE" + KEY;
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int p = 1;
                if (asOf != null) {
                    ps.setTimestamp(p++, asOf);
                }
                ps.setLong(p++, Workload.chainId(key));
                ps.setString(p++, w.address(key));
                ps.setString(p, Workload.token(key));
                return drain(ps);
            }
        });
    }

    long history(String t, Workload w, int key) throws SQLException {
        return pool.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLS + ", row_start, row_end FROM "
                    + t + " FOR SYSTEM_TIME ALL WHERE" + KEY + " ORDER BY row_end")) {
                ps.setLong(1, Workload.chainId(key));
                ps.setString(2, w.address(key));
                ps.setString(3, Workload.token(key));
                return drain(ps);
            }
        });
    }

    long select(String t, Long chain, Timestamp asOf) throws SQLException {
        return pool.with(c -> {
            String sql = "SELECT " + COLS + " FROM " + t + (asOf == null ? "" : " FOR SYSTEM_TIME AS OF TIMESTAMP ?")
                    + (chain == null ? "" : " WHERE chain_id = ?");
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int p = 1;
                if (asOf != null) {
                    ps.setTimestamp(p++, asOf);
                }
                if (chain != null) {
                    ps.setLong(p, chain);
                }
                return drain(ps);
            }
        });
    }

    String currentAmount(String t, Workload w, int key) throws SQLException {
        return pool.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT amount FROM " + t + " WHERE" + KEY)) {
                ps.setLong(1, Workload.chainId(key));
                ps.setString(2, w.address(key));
                ps.setString(3, Workload.token(key));
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        });
    }

    /**
     * Bytes on disk of table {@code t}, current rows and history together (one InnoDB table), with its
     * indexes: information_schema's figures after ANALYZE TABLE has refreshed them.
     */
    long bytes(String t) throws SQLException {
        return pool.with(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("ANALYZE TABLE " + t);
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT data_length + index_length FROM"
                    + " information_schema.TABLES WHERE table_schema = DATABASE() AND table_name = ?")) {
                ps.setString(1, t);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    private static long drain(PreparedStatement ps) throws SQLException {
        long rows = 0;
        try (ResultSet rs = ps.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    rs.getString(i);
                }
                rows++;
            }
        }
        return rows;
    }

    @Override
    public void close() {
        pool.close();
    }
}
