package io.verso.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.verso.support.IntegrationTest;
import io.verso.support.TestSecurity;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.util.PSQLException;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The PostgreSQL protocol as pgjdbc, unchanged, meets it: authentication with Verso's credentials, the simple
 * and the extended protocol (server-side prepared statements after five uses, batches), AS OF reads pinned
 * from the commit the connection reports, errors with their SQLSTATE, code and position, and privileges.
 */
class PgWireTests extends IntegrationTest {

    @Autowired
    PgWireServer server;

    private Connection connect(String password, String... properties) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "anyone");
        p.setProperty("password", password);
        for (int i = 0; i + 1 < properties.length; i += 2) {
            p.setProperty(properties[i], properties[i + 1]);
        }
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/verso", p);
    }

    private Connection admin(String... properties) throws SQLException {
        return connect(TestSecurity.ADMIN_KEY, properties);
    }

    @Test
    void anApiKeyIsThePasswordAndABadOneIsRefused() throws SQLException {
        try (Connection c = admin(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT version()")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).startsWith("PostgreSQL 15.0");
            assertThat(c.getMetaData().getDatabaseProductVersion()).startsWith("15.0");
        }
        assertThatThrownBy(() -> connect("vk_not-a-key").close())
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
        assertThatThrownBy(() -> connect("").close()).isInstanceOf(SQLException.class);
    }

    @Test
    void tlsIsOfferedWhenTheClientAsks() throws SQLException {
        try (Connection c = admin("sslmode", "require"); Statement s = c.createStatement()) {
            assertThat(strings(s, "SHOW ssl")).containsExactly("on");
        }
        try (Connection c = admin("sslmode", "disable"); Statement s = c.createStatement()) {
            assertThat(strings(s, "SHOW ssl")).containsExactly("off");
        }
    }

    @Test
    void aSimpleQueryWritesOneCommitAndAReadPinsItWithAsOf() throws SQLException {
        String t = table("pgw_asof");
        try (Connection c = admin("preferQueryMode", "simple"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, v TEXT) VERSIONED");
            assertThat(s.executeUpdate("UPSERT INTO " + t + " VALUES (1, 'first'), (2, 'second')")).isEqualTo(2);
            String first = ((PGConnection) c).getParameterStatus("verso.last_commit");
            assertThat(Long.parseLong(first)).isPositive();
            try (ResultSet rs = s.executeQuery("SHOW verso.last_commit")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(first);
            }
            assertThat(s.executeUpdate("UPDATE " + t + " SET v = 'changed' WHERE id = 1")).isEqualTo(1);
            assertThat(Long.parseLong(((PGConnection) c).getParameterStatus("verso.last_commit")))
                    .isGreaterThan(Long.parseLong(first));
            assertThat(strings(s, "SELECT v FROM " + t + " WHERE id = 1")).containsExactly("changed");
            assertThat(strings(s, "SELECT v FROM " + t + " AS OF COMMIT " + first + " WHERE id = 1"))
                    .containsExactly("first");
            // Several statements in one Query message: one request, one commit, a result each.
            s.execute("UPSERT INTO " + t + " VALUES (3, 'third'); SELECT count(*) FROM " + t);
            assertThat(s.getUpdateCount()).isEqualTo(1);
            assertThat(s.getMoreResults()).isTrue();
            try (ResultSet rs = s.getResultSet()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(3);
            }
        }
    }

    @Test
    void preparedStatementsRunServerSideAfterFiveUsesWithBinaryValues() throws SQLException {
        String t = table("pgw_prep");
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, big BIGINT, small SMALLINT, d DOUBLE PRECISION, "
                    + "n NUMERIC(12,3), b BOOLEAN, at TIMESTAMP, day DATE, label TEXT)");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 1; i <= 8; i++) {
                    insert.setInt(1, i);
                    insert.setLong(2, 10_000_000_000L + i);
                    insert.setShort(3, (short) -i);
                    insert.setDouble(4, i + 0.5);
                    insert.setBigDecimal(5, new BigDecimal("-1234.5" + i));
                    insert.setBoolean(6, i % 2 == 0);
                    insert.setString(7, "2026-10-0" + i + " 12:30:00.25");
                    insert.setString(8, "2026-10-0" + i);
                    insert.setString(9, "row " + i);
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                }
            }
            try (PreparedStatement read = c.prepareStatement(
                    "SELECT id, big, small, d, n, b, at, day, label FROM " + t + " WHERE id = ? AND label <> ?")) {
                for (int i = 1; i <= 8; i++) {
                    read.setInt(1, i);
                    read.setString(2, "none");
                    try (ResultSet rs = read.executeQuery()) {
                        assertThat(rs.next()).as("row %d", i).isTrue();
                        assertThat(rs.getInt(1)).isEqualTo(i);
                        assertThat(rs.getLong(2)).isEqualTo(10_000_000_000L + i);
                        assertThat(rs.getShort(3)).isEqualTo((short) -i);
                        assertThat(rs.getDouble(4)).isEqualTo(i + 0.5);
                        assertThat(rs.getBigDecimal(5)).isEqualByComparingTo("-1234.5" + i);
                        assertThat(rs.getBoolean(6)).isEqualTo(i % 2 == 0);
                        assertThat(rs.getTimestamp(7).toLocalDateTime())
                                .isEqualTo(java.time.LocalDateTime.of(2026, 10, i, 12, 30, 0, 250_000_000));
                        assertThat(rs.getDate(8).toLocalDate()).isEqualTo(java.time.LocalDate.of(2026, 10, i));
                        assertThat(rs.getString(9)).isEqualTo("row " + i);
                        assertThat(rs.next()).isFalse();
                    }
                }
            }
        }
    }

    @Test
    void everyColumnTypeReadsAsItsJavaType() throws SQLException {
        String t = table("pgw_types");
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, r REAL, tz TIMESTAMPTZ, u UUID, j JSONB, "
                    + "c CHAR(3), vc VARCHAR(10))");
            s.execute("INSERT INTO " + t + " VALUES (1, 1.5, '2026-10-01T12:00:00Z', "
                    + "'6f1c1d5e-8c0a-4c52-9d1e-0a6a0e3b7f10', '{\"a\": [1, 2]}', 'ab', 'text')");
            try (PreparedStatement read = c.prepareStatement("SELECT r, tz, u, j, c, vc FROM " + t + " WHERE id = ?")) {
                for (int i = 0; i < 7; i++) { // past the fifth, binary where pgjdbc asks for it
                    read.setInt(1, 1);
                    try (ResultSet rs = read.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getFloat(1)).isEqualTo(1.5f);
                        assertThat(rs.getObject(2, java.time.OffsetDateTime.class).toInstant())
                                .isEqualTo(java.time.Instant.parse("2026-10-01T12:00:00Z"));
                        assertThat(rs.getObject(3)).isEqualTo(java.util.UUID.fromString(
                                "6f1c1d5e-8c0a-4c52-9d1e-0a6a0e3b7f10"));
                        assertThat(rs.getString(4)).isEqualTo("{\"a\": [1, 2]}");
                        assertThat(rs.getString(5)).isEqualTo("ab ");
                        assertThat(rs.getString(6)).isEqualTo("text");
                        assertThat(rs.getMetaData().getColumnTypeName(4)).isEqualTo("jsonb");
                    }
                }
            }
        }
    }

    @Test
    void copyFromStdinWritesOneCommitOrNothing() throws Exception {
        String t = table("pgw_copy");
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, v TEXT, n NUMERIC(10,2)) VERSIONED");
            org.postgresql.copy.CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            long text = copy.copyIn("COPY " + t + " FROM STDIN", new java.io.StringReader(
                    "1\tone\t1.5\n2\t\\N\t2\n3\twith\\ttab\t3.25\n"));
            assertThat(text).isEqualTo(3);
            long commit = Long.parseLong(((PGConnection) c).getParameterStatus("verso.last_commit"));
            long csv = copy.copyIn("COPY " + t + " (id, v) FROM STDIN WITH (FORMAT csv, HEADER)",
                    new java.io.StringReader("id,v\n10,\"a, \"\"b\"\"\"\n11,\n"));
            assertThat(csv).isEqualTo(2);
            assertThat(strings(s, "SELECT v FROM " + t + " ORDER BY id"))
                    .containsExactly("one", null, "with\ttab", "a, \"b\"", null);
            assertThat(strings(s, "SELECT count(*) FROM " + t + " AS OF COMMIT " + commit)).containsExactly("3");
            // A duplicate key anywhere in the data: the COPY is refused whole.
            PSQLException duplicate = (PSQLException) org.assertj.core.api.Assertions.catchThrowable(() ->
                    copy.copyIn("COPY " + t + " FROM STDIN", new java.io.StringReader("20\tnew\t1\n1\tagain\t1\n")));
            assertThat(duplicate.getSQLState()).isEqualTo("23505");
            assertThat(strings(s, "SELECT count(*) FROM " + t)).containsExactly("5");
            PSQLException missing = (PSQLException) org.assertj.core.api.Assertions.catchThrowable(() ->
                    copy.copyIn("COPY no_such_table_here FROM STDIN", new java.io.StringReader("1\n")));
            assertThat(missing.getSQLState()).isEqualTo("42P01");
        }
    }

    @Test
    void aBatchIsOneRequest() throws SQLException {
        String t = table("pgw_batch");
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, v TEXT) VERSIONED");
            long before = Long.parseLong(((PGConnection) c).getParameterStatus("verso.last_commit"));
            try (PreparedStatement insert = c.prepareStatement("UPSERT INTO " + t + " VALUES (?, ?)")) {
                for (int i = 0; i < 40; i++) {
                    insert.setInt(1, i);
                    insert.setString(2, "v" + i);
                    insert.addBatch();
                }
                int[] counts = insert.executeBatch();
                assertThat(counts).hasSize(40).containsOnly(1);
            }
            long after = Long.parseLong(((PGConnection) c).getParameterStatus("verso.last_commit"));
            assertThat(after).isGreaterThan(before);
            // Every row was written by that one commit: AS OF the commit before it there are none.
            assertThat(strings(s, "SELECT count(*) FROM " + t + " AS OF COMMIT " + after)).containsExactly("40");
            assertThat(strings(s, "SELECT count(*) FROM " + t + " AS OF COMMIT " + (after - 1))).containsExactly("0");
        }
    }

    @Test
    void errorsCarryTheirSqlStateCodeAndPosition() throws SQLException {
        String t = table("pgw_err");
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, v TEXT)");
            s.execute("INSERT INTO " + t + " VALUES (1, 'a')");
            PSQLException syntax = failure(s, "SELECT id FROM " + t + " WHERE");
            assertThat(syntax.getSQLState()).isEqualTo("42601");
            assertThat(syntax.getServerErrorMessage().getDetail()).isEqualTo("code: SYNTAX_ERROR");
            assertThat(syntax.getServerErrorMessage().getPosition()).isPositive();
            PSQLException column = failure(s, "SELECT id, nope FROM " + t);
            assertThat(column.getSQLState()).isEqualTo("42703");
            assertThat(column.getServerErrorMessage().getPosition()).isEqualTo("SELECT id, ".length() + 1);
            assertThat(failure(s, "SELECT * FROM no_such_table_here").getSQLState()).isEqualTo("42P01");
            PSQLException duplicate = failure(s, "INSERT INTO " + t + " VALUES (1, 'again')");
            assertThat(duplicate.getSQLState()).isEqualTo("23505");
            assertThat(duplicate.getServerErrorMessage().getDetail()).isEqualTo("code: KEY_EXISTS");
            // A prepared statement's position is in the text as the client wrote it, $n and all.
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM " + t + " WHERE id = ? AND nope = ?")) {
                p.setInt(1, 1);
                p.setInt(2, 2);
                PSQLException e = (PSQLException) org.assertj.core.api.Assertions.catchThrowable(p::executeQuery);
                assertThat(e.getSQLState()).isEqualTo("42703");
                assertThat(e.getServerErrorMessage().getPosition())
                        .isEqualTo(("SELECT id FROM " + t + " WHERE id = $1 AND ").length() + 1);
            }
            // The connection goes on serving after errors.
            assertThat(strings(s, "SELECT v FROM " + t)).containsExactly("a");
        }
    }

    @Test
    void aConnectionHoldsOnlyTheRightsOfItsCredential() throws SQLException {
        String t = table("pgw_priv");
        String role = "pgw_reader_" + t;
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, v TEXT)");
            s.execute("UPSERT INTO " + t + " VALUES (1, 'secret')");
        }
        try (Connection c = connect(TestSecurity.jwt("pgw-outsider", "nobody_role")); Statement s = c.createStatement()) {
            assertThat(failure(s, "SELECT v FROM " + t).getSQLState()).isEqualTo("42P01");
        }
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + role);
            s.execute("GRANT SELECT ON TABLE " + t + " TO " + role);
        }
        try (Connection c = connect(TestSecurity.jwt("pgw-outsider", "nobody_role"))) {
            // The catalog a client reads shows only what its credential may see.
            try (ResultSet rs = c.getMetaData().getTables(null, null, t, new String[] {"TABLE"})) {
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = c.getMetaData().getColumns(null, null, t, null)) {
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, null, t)) {
                assertThat(rs.next()).isFalse();
            }
        }
        try (Connection c = connect(TestSecurity.jwt("pgw-reader", role)); Statement s = c.createStatement()) {
            try (ResultSet rs = c.getMetaData().getTables(null, "public", t.substring(0, t.length() - 1) + "_",
                    new String[] {"TABLE"})) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("TABLE_NAME")).isEqualTo(t);
                assertThat(rs.getString("TABLE_TYPE")).isEqualTo("TABLE");
                assertThat(rs.next()).isFalse();
            }
            assertThat(columns(c.getMetaData(), t)).containsExactly("id int4 4 10 0 0 NO 1 null",
                    "v text 12 2147483647 0 1 YES 2 null");
            assertThat(strings(s, "SELECT v FROM " + t)).containsExactly("secret");
            PSQLException denied = failure(s, "UPSERT INTO " + t + " VALUES (2, 'mine')");
            assertThat(denied.getSQLState()).isEqualTo("42501");
            assertThat(denied.getServerErrorMessage().getDetail()).isEqualTo("code: FORBIDDEN");
        }
    }

    @Test
    void getColumnsAndGetPrimaryKeysDescribeATableFromVersosCatalog() throws SQLException {
        String t = table("pgw_meta");
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (region VARCHAR(20), id INT, amount NUMERIC(10,2), "
                    + "note TEXT NOT NULL DEFAULT 'none', u UUID, at TIMESTAMPTZ, PRIMARY KEY (region, id))");
            DatabaseMetaData meta = c.getMetaData();
            // COLUMN_NAME TYPE_NAME DATA_TYPE COLUMN_SIZE DECIMAL_DIGITS NULLABLE IS_NULLABLE ORDINAL_POSITION
            // COLUMN_DEF, as pgjdbc computes them from the type OIDs and modifiers, as against PostgreSQL.
            assertThat(columns(meta, t)).containsExactly(
                    "region varchar 12 20 0 0 NO 1 null",
                    "id int4 4 10 0 0 NO 2 null",
                    "amount numeric 2 10 2 1 YES 3 null",
                    "note text 12 2147483647 0 0 NO 4 'none'::text",
                    "u uuid 1111 2147483647 0 1 YES 5 null",
                    "at timestamptz 93 35 6 1 YES 6 null");
            try (ResultSet rs = meta.getColumns(null, "public", t, "a%")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("TABLE_SCHEM")).isEqualTo("public");
                assertThat(rs.getString("TABLE_NAME")).isEqualTo(t);
                assertThat(rs.getString("COLUMN_NAME")).isEqualTo("amount");
                assertThat(rs.getString("IS_AUTOINCREMENT")).isEqualTo("NO");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("COLUMN_NAME")).isEqualTo("at");
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = meta.getColumns(null, "other_schema", t, null)) {
                assertThat(rs.next()).isFalse();
            }
            List<String> keys = new ArrayList<>();
            try (ResultSet rs = meta.getPrimaryKeys(null, null, t)) {
                while (rs.next()) {
                    keys.add(rs.getString("TABLE_CAT") + " " + rs.getString("TABLE_NAME") + " " + rs.getString("COLUMN_NAME") + " " + rs.getInt("KEY_SEQ")
                            + " " + rs.getString("PK_NAME"));
                }
            }
            assertThat(keys).containsExactly("verso " + t + " region 1 " + t + "_pkey",
                    "verso " + t + " id 2 " + t + "_pkey");
            // Recognised whatever its whitespace (psql's \d lookup, typed by hand), its pattern only filtering
            // the catalog: a regular expression that names this table, and one that is not valid SQL at all.
            String lookup = "SELECT c.oid,\n\t n.nspname,  c.relname\nFROM pg_catalog.pg_class c LEFT JOIN "
                    + "pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n WHERE c.relname OPERATOR(pg_catalog.~) "
                    + "'%s' COLLATE pg_catalog.default AND pg_catalog.pg_table_is_visible(c.oid)\nORDER BY 2, 3 ;";
            try (ResultSet rs = s.executeQuery(String.format(lookup, "^(" + t + ")$"))) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("relname")).isEqualTo(t);
                assertThat(rs.getString("nspname")).isEqualTo("public");
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = s.executeQuery(String.format(lookup, "x'')); DROP TABLE " + t + "; --"))) {
                assertThat(rs.next()).isFalse();
            }
            assertThat(columns(meta, t)).hasSize(6);
            // A table name is matched as it is, not as a pattern: the _ in it matches only itself.
            try (ResultSet rs = meta.getPrimaryKeys(null, null, t.replace('_', 'x'))) {
                assertThat(rs.next()).isFalse();
            }
        }
    }

    /** getColumns of {@code table}, one line per column of what a tool reads from it. */
    private static List<String> columns(DatabaseMetaData meta, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (ResultSet rs = meta.getColumns(null, null, table, null)) {
            while (rs.next()) {
                columns.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME") + " " + rs.getInt("DATA_TYPE")
                        + " " + rs.getInt("COLUMN_SIZE") + " " + rs.getInt("DECIMAL_DIGITS") + " " + rs.getInt("NULLABLE")
                        + " " + rs.getString("IS_NULLABLE") + " " + rs.getInt("ORDINAL_POSITION") + " "
                        + rs.getString("COLUMN_DEF"));
            }
        }
        return columns;
    }

    @Test
    void revokingTheKeyEndsItsConnections() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        String keys = "http://localhost:" + port + "/v1/admin/api-keys";
        java.net.http.HttpResponse<String> created = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(keys)).header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY)
                .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                        "{\"name\": \"pgw-revoked-" + table("k") + "\", \"roles\": [\"admin\"]}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        var key = io.verso.support.SqlClient.JSON.readTree(created.body());
        try (Connection busy = connect(key.get("key").asString()); Statement s = busy.createStatement();
             RawPgClient idle = new RawPgClient(server.port()).login(key.get("key").asString())) {
            assertThat(strings(s, "SELECT 1")).containsExactly("1");
            java.net.http.HttpResponse<String> revoked = http.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(keys + "/" + key.get("id").asString())).header(TestSecurity.HEADER,
                    TestSecurity.ADMIN_KEY).DELETE().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(200);
            // The next request on a connection is refused and ends it; an idle one is ended by the watcher.
            PSQLException ended = failure(s, "SELECT 1");
            assertThat(ended.getSQLState()).isIn("28000", "08006");
            assertThat(busy.isValid(5)).isFalse();
            RawPgClient.Reply fatal = idle.read();
            assertThat(fatal.field('C')).isEqualTo("28000");
            assertThat(fatal.field('M')).contains("revoked");
            assertThat(idle.closedByServer()).isTrue();
        }
    }

    @Test
    void anExpiredTokenEndsItsConnections() throws Exception {
        String t = table("pgw_exp");
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY)");
        }
        // exp is in whole seconds: a few from now leaves time to log in on a busy machine.
        String token = TestSecurity.jwt("pgw-expiring", List.of("admin"), TestSecurity.ISSUER, TestSecurity.AUDIENCE,
                java.time.Instant.now().plusSeconds(8));
        try (Connection busy = connect(token); Statement s = busy.createStatement();
             RawPgClient idle = new RawPgClient(server.port()).login(token)) {
            assertThat(strings(s, "SELECT 1")).containsExactly("1");
            idle.socket.setSoTimeout(120_000);
            List<RawPgClient.Reply> told = new ArrayList<>();
            // A COPY whose data ends after exp (it ends once the idle connection has been told of the expiry).
            java.io.Reader data = new java.io.Reader() {
                private boolean sent;

                @Override
                public int read(char[] buffer, int offset, int length) throws java.io.IOException {
                    if (!sent) {
                        sent = true;
                        buffer[offset] = '1';
                        buffer[offset + 1] = '\n';
                        return 2;
                    }
                    if (told.isEmpty()) {
                        told.add(idle.read()); // the idle connection is told and closed with no message of its own
                    }
                    return -1;
                }

                @Override
                public void close() {
                }
            };
            Throwable copied = org.assertj.core.api.Assertions.catchThrowable(() ->
                    ((PGConnection) busy).getCopyAPI().copyIn("COPY " + t + " FROM STDIN", data));
            RawPgClient.Reply fatal = told.get(0);
            assertThat(fatal.type()).isEqualTo('E');
            assertThat(fatal.field('S')).isEqualTo("FATAL");
            assertThat(fatal.field('C')).isEqualTo("28000");
            assertThat(fatal.field('M')).contains("pgw-expiring").contains("expired");
            assertThat(idle.closedByServer()).isTrue();
            // The data was complete after exp: the COPY is refused and the connection ended, nothing written.
            assertThat(copied).isInstanceOf(SQLException.class);
            assertThat(((SQLException) copied).getSQLState()).isIn("28000", "08006");
            assertThat(busy.isValid(5)).isFalse();
        }
        try (Connection c = admin(); Statement s = c.createStatement()) {
            assertThat(strings(s, "SELECT count(*) FROM " + t)).containsExactly("0");
        }
    }

    @Test
    void aTransactionAcrossRequestsIsRefusedClearly() throws SQLException {
        String t = table("pgw_tx");
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY)");
            c.setAutoCommit(false);
            PSQLException e = failure(s, "UPSERT INTO " + t + " VALUES (1)");
            assertThat(e.getSQLState()).isEqualTo("25001");
            assertThat(e.getServerErrorMessage().getHint()).contains("autocommit");
            c.rollback();
            c.setAutoCommit(true);
            assertThat(strings(s, "SELECT count(*) FROM " + t)).containsExactly("0");
            // BEGIN ... COMMIT within one message is one request, as on /v1/sql.
            try (Connection simple = admin("preferQueryMode", "simple"); Statement q = simple.createStatement()) {
                q.execute("BEGIN; UPSERT INTO " + t + " VALUES (1); COMMIT");
            }
            assertThat(strings(s, "SELECT count(*) FROM " + t)).containsExactly("1");
        }
    }

    private static PSQLException failure(Statement s, String sql) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> s.execute(sql));
        assertThat(thrown).as(sql).isInstanceOf(PSQLException.class);
        return (PSQLException) thrown;
    }

    private static List<String> strings(Statement s, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
