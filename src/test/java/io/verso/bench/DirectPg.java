package io.verso.bench;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * The baseline: the same ingest and reads as hand-written set-based SQL straight into PostgreSQL
 * tables of the same shape as Verso's: {@code <t>_cur} (one row per key, its winner's commit and
 * position) and {@code <t>_hist} (every version with the commits between which it was the winner,
 * indexed by key and current-from). One statement per batch fed by typed arrays, the same ordering
 * rule (balance_index, balance_version, commit, position), and the same commit discipline as the
 * service: an advisory lock held from drawing the commit sequence to the commit, so commits become
 * visible in sequence order. What it leaves out is everything that is not PostgreSQL: HTTP, JSON,
 * parsing, the catalog, text-to-type casts.
 */
final class DirectPg implements AutoCloseable {

    private final Pool pool;
    private final String schema;

    DirectPg(Supplier<Connection> connect, String schema) {
        this.pool = new Pool(connect);
        this.schema = schema;
    }

    void create(String t) throws SQLException {
        pool.with(c -> {
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
                s.execute("DROP TABLE IF EXISTS " + q(t + "_cur") + ", " + q(t + "_hist"));
                s.execute("CREATE SEQUENCE IF NOT EXISTS " + q("commit_seq"));
                s.execute("CREATE TABLE " + q(t + "_cur") + " (chain_id bigint NOT NULL, address text NOT NULL,"
                        + " token text NOT NULL, amount numeric(38,0), updated_at timestamp(3), balance_index bigint,"
                        + " balance_version bigint, _c bigint, _p integer, PRIMARY KEY (chain_id, address, token))");
                s.execute("CREATE TABLE " + q(t + "_hist") + " (chain_id bigint NOT NULL, address text NOT NULL,"
                        + " token text NOT NULL, amount numeric(38,0), updated_at timestamp(3), balance_index bigint,"
                        + " balance_version bigint, _commit bigint NOT NULL, _pos integer NOT NULL, _from bigint, _to bigint)");
                s.execute("CREATE INDEX ON " + q(t + "_hist") + " (chain_id, address, token, _from)");
            }
            return null;
        });
    }

    /** One batch, one transaction, one commit; returns the commit. */
    long write(String t, Workload w, int[] batch) throws SQLException {
        return pool.with(c -> {
            c.setAutoCommit(false);
            try {
                long commit;
                try (Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT pg_advisory_xact_lock(42), nextval('" + schema + ".commit_seq')")) {
                    rs.next();
                    commit = rs.getLong(2);
                }
                Columns columns = Columns.of(w, batch);
                String cur = q(t + "_cur");
                String hist = q(t + "_hist");
                String sql = "WITH src AS (SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::numeric[],"
                        + " ?::timestamp[], ?::bigint[], ?::bigint[], ?::int[])"
                        + " AS u(chain_id, address, token, amount, updated_at, balance_index, balance_version, _pos)),"
                        + " best AS (SELECT DISTINCT ON (chain_id, address, token) * FROM src"
                        + " ORDER BY chain_id, address, token, balance_index DESC, balance_version DESC, _pos DESC),"
                        + " old AS (SELECT cur.chain_id, cur.address, cur.token, cur._c, cur._p FROM " + cur
                        + " AS cur JOIN best USING (chain_id, address, token)),"
                        + " won AS (INSERT INTO " + cur + " AS cur SELECT chain_id, address, token, amount, updated_at,"
                        + " balance_index, balance_version, ?, _pos FROM best ON CONFLICT (chain_id, address, token)"
                        + " DO UPDATE SET amount = EXCLUDED.amount, updated_at = EXCLUDED.updated_at,"
                        + " balance_index = EXCLUDED.balance_index, balance_version = EXCLUDED.balance_version,"
                        + " _c = EXCLUDED._c, _p = EXCLUDED._p"
                        + " WHERE (cur.balance_index, cur.balance_version, cur._c, cur._p)"
                        + " < (EXCLUDED.balance_index, EXCLUDED.balance_version, EXCLUDED._c, EXCLUDED._p)"
                        + " RETURNING cur.chain_id, cur.address, cur.token, cur._p),"
                        // Joined once, materialized: inside the update, a join of two CTEs (no statistics)
                        // becomes a nested loop over every pair when many keys are replaced.
                        + " replaced AS MATERIALIZED (SELECT old.* FROM old JOIN won USING (chain_id, address, token)),"
                        + " closed AS (UPDATE " + hist + " AS h SET _to = ? FROM replaced AS old"
                        + " WHERE h.chain_id = old.chain_id AND h.address = old.address AND h.token = old.token"
                        + " AND h._commit = old._c AND h._pos = old._p RETURNING 1),"
                        + " ins AS (INSERT INTO " + hist + " SELECT s.chain_id, s.address, s.token, s.amount, s.updated_at,"
                        + " s.balance_index, s.balance_version, ?, s._pos, CASE WHEN won._p IS NULL THEN NULL ELSE ? END, NULL"
                        + " FROM src AS s LEFT JOIN won ON won.chain_id = s.chain_id AND won.address = s.address"
                        + " AND won.token = s.token AND won._p = s._pos RETURNING 1)"
                        + " SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM won), (SELECT count(*) FROM closed)";
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    columns.bind(c, ps);
                    Integer[] pos = new Integer[batch.length];
                    Arrays.setAll(pos, i -> i);
                    ps.setArray(8, c.createArrayOf("int4", pos));
                    ps.setLong(9, commit);
                    ps.setLong(10, commit);
                    ps.setLong(11, commit);
                    ps.setLong(12, commit);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                    }
                }
                c.commit();
                return commit;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    /**
     * PostgreSQL's own UPDATE of existing keys in the plain current table {@code t_cur}, no history: one
     * statement over the batch as arrays, one transaction. The physical floor of replacing rows.
     */
    long update(String t, Workload w, int[] batch) throws SQLException {
        return pool.with(c -> {
            Columns columns = Columns.of(w, batch);
            String sql = "UPDATE " + q(t + "_cur") + " AS cur SET amount = u.amount, updated_at = u.updated_at,"
                    + " balance_index = u.balance_index, balance_version = u.balance_version FROM unnest(?::bigint[],"
                    + " ?::text[], ?::text[], ?::numeric[], ?::timestamp[], ?::bigint[], ?::bigint[]) AS u(chain_id,"
                    + " address, token, amount, updated_at, balance_index, balance_version) WHERE cur.chain_id = u.chain_id"
                    + " AND cur.address = u.address AND cur.token = u.token";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                columns.bind(c, ps);
                return ps.executeUpdate();
            }
        });
    }

    /** A batch's values, column by column, as the arrays both write statements unnest. */
    private record Columns(Long[] chain, String[] address, String[] token, BigDecimal[] amount, Timestamp[] updated,
                           Long[] index, Long[] version) {

        static Columns of(Workload w, int[] batch) {
            int n = batch.length;
            Columns c = new Columns(new Long[n], new String[n], new String[n], new BigDecimal[n], new Timestamp[n],
                    new Long[n], new Long[n]);
            for (int i = 0; i < n; i++) {
                int key = w.key(batch[i]);
                int v = w.version(batch[i]);
                c.chain[i] = Workload.chainId(key);
                c.address[i] = w.address(key);
                c.token[i] = Workload.token(key);
                c.amount[i] = new BigDecimal(w.amount(key, v));
                c.updated[i] = Timestamp.valueOf(Workload.updatedAt(v));
                c.index[i] = Workload.balanceIndex(v);
                c.version[i] = Workload.balanceVersion(v);
            }
            return c;
        }

        /** Binds the seven arrays as parameters 1 to 7. */
        void bind(Connection c, PreparedStatement ps) throws SQLException {
            ps.setArray(1, c.createArrayOf("bigint", chain));
            ps.setArray(2, c.createArrayOf("text", address));
            ps.setArray(3, c.createArrayOf("text", token));
            ps.setArray(4, c.createArrayOf("numeric", amount));
            ps.setArray(5, c.createArrayOf("timestamp", updated));
            ps.setArray(6, c.createArrayOf("bigint", index));
            ps.setArray(7, c.createArrayOf("bigint", version));
        }
    }

    // ---- reads: each returns the rows it read, every value fetched as text (as a client would) ------

    private static final String COLS = "chain_id, address, token, amount, updated_at, balance_index, balance_version";
    private static final String KEY = " chain_id = ? AND address = ? AND token = ?";

    long row(String t, Workload w, int key, Long asOf) throws SQLException {
        return pool.with(c -> {
            String sql = asOf == null
                    ? "SELECT " + COLS + " FROM " + q(t + "_cur") + " WHERE" + KEY
                    : "SELECT " + COLS + " FROM " + q(t + "_hist") + " WHERE" + KEY + " AND " + window("?");
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                bindKey(ps, w, key);
                if (asOf != null) {
                    ps.setLong(4, asOf);
                    ps.setLong(5, asOf);
                }
                return drain(ps);
            }
        });
    }

    long history(String t, Workload w, int key) throws SQLException {
        return pool.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLS + ", _commit, _from, _to FROM "
                    + q(t + "_hist") + " WHERE" + KEY + " ORDER BY _commit, _pos")) {
                bindKey(ps, w, key);
                return drain(ps);
            }
        });
    }

    long select(String t, Long chain, Long asOf) throws SQLException {
        return pool.with(c -> {
            String sql = "SELECT " + COLS + " FROM " + q(t + (asOf == null ? "_cur" : "_hist")) + " WHERE "
                    + (chain == null ? "TRUE" : "chain_id = ?") + (asOf == null ? "" : " AND " + window("?"));
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int p = 1;
                if (chain != null) {
                    ps.setLong(p++, chain);
                }
                if (asOf != null) {
                    ps.setLong(p++, asOf);
                    ps.setLong(p, asOf);
                }
                return drain(ps);
            }
        });
    }

    /**
     * What changed between two commits, in SQL: the keys whose winner changed in (from, to], with
     * their rows at both commits (the keys are found from the windows' edges).
     */
    long diff(String t, long from, long to) throws SQLException {
        return pool.with(c -> {
            String hist = q(t + "_hist");
            String sql = "WITH k AS (SELECT DISTINCT chain_id, address, token FROM " + hist
                    + " WHERE (_from > ? AND _from <= ?) OR (_to > ? AND _to <= ?))"
                    + " SELECT k.chain_id, k.address, k.token, a.amount, a.updated_at, a.balance_index, a.balance_version,"
                    + " b.amount, b.updated_at, b.balance_index, b.balance_version FROM k"
                    + " LEFT JOIN " + hist + " a ON (a.chain_id, a.address, a.token) = (k.chain_id, k.address, k.token)"
                    + " AND a._from <= ? AND (a._to IS NULL OR a._to > ?)"
                    + " LEFT JOIN " + hist + " b ON (b.chain_id, b.address, b.token) = (k.chain_id, k.address, k.token)"
                    + " AND b._from <= ? AND (b._to IS NULL OR b._to > ?)"
                    + " WHERE (a.amount, a.updated_at, a.balance_index, a.balance_version)"
                    + " IS DISTINCT FROM (b.amount, b.updated_at, b.balance_index, b.balance_version)";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                long[] binds = {from, to, from, to, from, from, to, to};
                for (int i = 0; i < binds.length; i++) {
                    ps.setLong(i + 1, binds[i]);
                }
                return drain(ps);
            }
        });
    }

    String currentAmount(String t, Workload w, int key) throws SQLException {
        return pool.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT amount FROM " + q(t + "_cur")
                    + " WHERE" + KEY)) {
                bindKey(ps, w, key);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        });
    }

    String settings() throws SQLException {
        return pool.with(c -> {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT version(), current_setting('synchronous_commit'),"
                         + " current_setting('fsync'), current_setting('shared_buffers'), current_setting('autovacuum')")) {
                rs.next();
                // autovacuum off (as on some machines here) leaves every table of the run without statistics.
                return rs.getString(1).replaceAll(" on x86.*", "") + ", synchronous_commit=" + rs.getString(2)
                        + ", fsync=" + rs.getString(3) + ", shared_buffers=" + rs.getString(4)
                        + ", autovacuum=" + rs.getString(5);
            }
        });
    }

    /** EXPLAIN (ANALYZE, BUFFERS) of a statement, for the report's evidence. */
    String explain(String sql) throws SQLException {
        return pool.with(c -> {
            StringBuilder b = new StringBuilder();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS) " + sql)) {
                while (rs.next()) {
                    b.append(rs.getString(1)).append('\n');
                }
            }
            return b.toString();
        });
    }

    private static String window(String n) {
        return "_from <= " + n + " AND (_to IS NULL OR _to > " + n + ")";
    }

    private static void bindKey(PreparedStatement ps, Workload w, int key) throws SQLException {
        ps.setLong(1, Workload.chainId(key));
        ps.setString(2, w.address(key));
        ps.setString(3, Workload.token(key));
    }

    private static long drain(PreparedStatement ps) throws SQLException {
        ps.setFetchSize(0);
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

    /** A read of the read-language set: {@code %cur} and {@code %hist} name the tables; binds are longs. */
    long query(String t, String sql, long... binds) throws SQLException {
        return pool.with(c -> {
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement(sql.replace("%cur", q(t + "_cur"))
                    .replace("%hist", q(t + "_hist")))) {
                for (int i = 0; i < binds.length; i++) {
                    ps.setLong(i + 1, binds[i]);
                }
                return drain(ps);
            }
        });
    }

    /** INSERT ... SELECT of every key's winner at a commit into a fresh table; returns the rows written. */
    long copyAsOf(String t, String copy, long asOf) throws SQLException {
        return pool.with(c -> {
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + q(copy));
                s.execute("CREATE TABLE " + q(copy) + " (chain_id bigint, address text, token text,"
                        + " amount numeric(38,0), PRIMARY KEY (chain_id, address, token))");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + q(copy) + " SELECT chain_id, address,"
                    + " token, amount FROM " + q(t + "_hist") + " WHERE " + window("?") + " ON CONFLICT (chain_id,"
                    + " address, token) DO UPDATE SET amount = EXCLUDED.amount")) {
                ps.setLong(1, asOf);
                ps.setLong(2, asOf);
                return ps.executeUpdate();
            }
        });
    }

    /** Bytes on disk of table {@code t}: its current and history tables with their indexes and TOAST. */
    long bytes(String t) throws SQLException {
        return pool.with(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT pg_total_relation_size(?::regclass) + pg_total_relation_size(?::regclass)")) {
                ps.setString(1, q(t + "_cur"));
                ps.setString(2, q(t + "_hist"));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    private String q(String name) {
        return schema + "." + name;
    }

    @Override
    public void close() {
        pool.close();
    }
}
