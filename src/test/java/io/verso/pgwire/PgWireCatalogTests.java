package io.verso.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.ServiceHttp;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The catalog tools read for themselves beyond psql's {@code \d}: information_schema's tables, columns,
 * schemata, views and constraints, pgjdbc's getIndexInfo, getSchemas, views in getTables and foreign keys.
 * Where PostgreSQL answers the same question for a plain table of the same definition (made in a schema of
 * its own beside the storage tables, and dropped after), the listener's answer is compared with PostgreSQL's.
 */
class PgWireCatalogTests extends IntegrationTest {

    /** A definition Verso and PostgreSQL both read the same way. */
    private static final String COLUMNS = "(id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, amount NUMERIC(10,2) "
            + "DEFAULT 0, at TIMESTAMPTZ, note TEXT, flag BOOLEAN, big BIGINT)";

    @Autowired
    PgWireServer server;

    @Autowired
    JdbcTemplate postgres;

    private Connection connect(String password) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/verso", "anyone",
                password);
    }

    /** Runs {@code check} with a PostgreSQL schema holding table {@code t} as {@link #COLUMNS} and its indexes. */
    private void withMirror(String t, MirrorCheck check) throws Exception {
        String schema = "pgw_mirror_" + t;
        postgres.execute("CREATE SCHEMA " + schema);
        try {
            postgres.execute("CREATE TABLE " + schema + "." + t + " " + COLUMNS);
            postgres.execute("CREATE UNIQUE INDEX " + t + "_by_name ON " + schema + "." + t + " (name)");
            postgres.execute("CREATE INDEX " + t + "_by_amount ON " + schema + "." + t + " (amount, id)");
            try (Connection pg = postgres.getDataSource().getConnection()) {
                check.run(pg, schema);
            }
        } finally {
            postgres.execute("DROP SCHEMA " + schema + " CASCADE");
        }
    }

    private interface MirrorCheck {
        void run(Connection pg, String schema) throws Exception;
    }

    private void create(String t) throws SQLException {
        try (Connection c = connect(TestSecurity.ADMIN_KEY); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " " + COLUMNS);
            s.execute("CREATE UNIQUE INDEX " + t + "_by_name ON " + t + " (name)");
            s.execute("CREATE INDEX " + t + "_by_amount ON " + t + " (amount, id)");
        }
    }

    @Test
    void informationSchemaColumnsAnswersAsPostgresqlDoes() throws Exception {
        String t = table("pgw_is");
        create(t);
        String columns = "SELECT column_name, ordinal_position, column_default, is_nullable, data_type, "
                + "character_maximum_length, character_octet_length, numeric_precision, numeric_precision_radix, "
                + "numeric_scale, datetime_precision, udt_name, is_identity, is_generated, is_updatable "
                + "FROM information_schema.columns WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position";
        withMirror(t, (pg, schema) -> {
            try (Connection c = connect(TestSecurity.ADMIN_KEY)) {
                List<String> expected = rows(pg, columns, schema, t);
                assertThat(expected).hasSize(7);
                assertThat(rows(c, columns, "public", t)).containsExactlyElementsOf(expected);
                String constraints = "SELECT tc.constraint_name, tc.constraint_type, tc.table_name FROM "
                        + "information_schema.table_constraints tc WHERE tc.table_schema = ? AND tc.table_name = ? "
                        + "AND constraint_type IN ('PRIMARY KEY', 'UNIQUE') ORDER BY 1";
                // PostgreSQL lists a unique index as a constraint only when made as one; Verso lists it either way.
                assertThat(rows(c, constraints, "public", t)).containsExactly(t + "_by_name UNIQUE " + t,
                        t + "_pkey PRIMARY KEY " + t);
                assertThat(rows(pg, constraints, schema, t)).containsExactly(t + "_pkey PRIMARY KEY " + t);
                String keys = "SELECT constraint_name, column_name, ordinal_position FROM "
                        + "information_schema.key_column_usage WHERE table_name = ? AND constraint_name LIKE '%pkey'";
                assertThat(rows(c, keys, t)).containsExactlyElementsOf(rows(pg, keys, t));
            }
        });
    }

    @Test
    void informationSchemaListsOnlyWhatTheCallerMaySee() throws Exception {
        String t = table("pgw_isv");
        String v = t + "_v";
        create(t);
        try (Connection c = connect(TestSecurity.ADMIN_KEY); Statement s = c.createStatement()) {
            s.execute("CREATE VIEW " + v + " (who, how_much) AS SELECT name, amount FROM " + t);
            String tables = "select table_name, table_type from information_schema.tables where table_schema = "
                    + "'public' and table_name like '" + t + "%' order by table_name";
            assertThat(rows(c, tables)).containsExactly(t + " BASE TABLE", v + " VIEW");
            assertThat(rows(c, "SELECT table_name, view_definition FROM information_schema.views WHERE table_name = ?",
                    v)).containsExactly(v + " SELECT name, amount FROM " + t);
            // Grafana's spelling: identifiers quoted where they need it, compared through quote_ident.
            assertThat(rows(c, "select quote_ident(column_name) as \"column\", data_type as \"type\" from "
                    + "information_schema.columns where quote_ident(table_name) = '" + v + "'"))
                    .containsExactly("who character varying", "how_much numeric");
            assertThat(rows(c, "SELECT schema_name FROM information_schema.schemata ORDER BY 1"))
                    .containsExactly("public");
            assertThat(rows(c, "SELECT c.* FROM information_schema.columns c WHERE c.table_name = '" + t
                    + "' ORDER BY c.column_name DESC LIMIT 2 OFFSET 1")).hasSize(2)
                    .allSatisfy(row -> assertThat(row).startsWith("verso public " + t + " "));
            // What PostgreSQL refuses, it refuses here with its SQLSTATE: a column or relation that is not there.
            assertThat(failure(s, "SELECT nope FROM information_schema.tables").getSQLState()).isEqualTo("42703");
            assertThat(failure(s, "SELECT * FROM information_schema.nope").getSQLState()).isEqualTo("42P01");
            // A $n with no value over the simple protocol is refused as over any table: the dialect's parameters
            // are the extended protocol's.
            try (Connection simple = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port()
                    + "/verso?preferQueryMode=simple", "anyone", TestSecurity.ADMIN_KEY);
                 Statement q = simple.createStatement()) {
                assertThat(failure(q, "SELECT * FROM information_schema.tables WHERE table_name = $1").getSQLState())
                        .isEqualTo(failure(q, "SELECT * FROM " + t + " WHERE name = $1").getSQLState());
            }
        }
        try (Connection c = connect(TestSecurity.jwt("pgw-outsider", "nobody_role"))) {
            assertThat(rows(c, "SELECT table_name FROM information_schema.tables WHERE table_name LIKE ?", t + "%"))
                    .isEmpty();
            assertThat(rows(c, "SELECT column_name FROM information_schema.columns WHERE table_name IN (?, ?)", t, v))
                    .isEmpty();
            assertThat(rows(c, "SELECT constraint_name FROM information_schema.table_constraints WHERE table_name = ?",
                    t)).isEmpty();
            try (ResultSet rs = c.getMetaData().getTables(null, null, t + "%", null)) {
                assertThat(rs.next()).isFalse();
            }
        }
    }

    /** Grafana's PostgreSQL data source: its search_path test, as its table and column pickers send it. */
    private static final String GRAFANA_SCHEMA_CONSTRAINT = """
              quote_ident(table_schema) IN (
              SELECT
                CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
              FROM
                generate_series(
                  array_lower(string_to_array(current_setting('search_path'),','),1),
                  array_upper(string_to_array(current_setting('search_path'),','),1)
                ) as i,
                string_to_array(current_setting('search_path'),',') s
              )""";

    @Test
    void grafanasCatalogQueriesAnswerWhatTheCallerMaySee() throws Exception {
        String t = table("pgw_graf");
        String hidden = table("pgw_graf_hidden");
        create(t);
        create(hidden);
        String role = "pgw_graf_reader_" + t;
        String tables = "SELECT\n    CASE WHEN " + GRAFANA_SCHEMA_CONSTRAINT + "\n      THEN quote_ident(table_name)\n"
                + "      ELSE quote_ident(table_schema) || '.' || quote_ident(table_name)\n    END AS \"table\"\n"
                + "    FROM information_schema.tables\n    WHERE quote_ident(table_schema) NOT IN ('information_schema',\n"
                + "                             'pg_catalog',\n                             '_timescaledb_cache',\n"
                + "                             '_timescaledb_catalog',\n                             "
                + "'_timescaledb_internal',\n                             '_timescaledb_config',\n"
                + "                             'timescaledb_information',\n                             "
                + "'timescaledb_experimental')\n    ORDER BY CASE WHEN " + GRAFANA_SCHEMA_CONSTRAINT
                + " THEN 0 ELSE 1 END, 1";
        String columns = "SELECT quote_ident(column_name) AS \"column\", data_type AS \"type\"\n"
                + "    FROM information_schema.columns\n    WHERE\n      CASE WHEN array_length(parse_ident('" + t
                + "'),1) = 2\n        THEN quote_ident(table_schema) = (parse_ident('" + t + "'))[1]\n"
                + "          AND quote_ident(table_name) = (parse_ident('" + t + "'))[2]\n"
                + "        ELSE quote_ident(table_name) = '" + t + "'\n          AND " + GRAFANA_SCHEMA_CONSTRAINT
                + "\n      END";
        String schemas = "SELECT schema_name AS \"name\"\n    FROM information_schema.schemata\n"
                + "    WHERE schema_name NOT IN ('information_schema',\n 'pg_catalog',\n 'pg_toast')\n"
                + "    ORDER BY schema_name";
        try (Connection c = connect(TestSecurity.ADMIN_KEY); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + role);
            s.execute("GRANT SELECT ON TABLE " + t + " TO " + role);
            assertThat(rows(c, tables)).contains(t, hidden);
            assertThat(rows(c, columns)).containsExactly("id integer", "name character varying", "amount numeric",
                    "at timestamp with time zone", "note text", "flag boolean", "big bigint");
            assertThat(rows(c, schemas)).containsExactly("public");
            assertThat(rows(c, "SELECT current_setting('server_version_num')::int/100 as version"))
                    .containsExactly("1500");
            assertThat(rows(c, "SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'")).isEmpty();
        }
        try (Connection c = connect(TestSecurity.jwt("pgw-graf-reader", role))) {
            assertThat(rows(c, tables)).contains(t).doesNotContain(hidden);
            assertThat(rows(c, columns.replace(t, hidden))).isEmpty();
        }
    }

    /** Metabase-like: keys found by joining information_schema's relations, with an aggregate and a subquery. */
    @Test
    void informationSchemaJoinsAndAggregatesOnEitherSurface() throws Exception {
        String t = table("pgw_join");
        create(t);
        String keys = "SELECT c.table_name, c.column_name, tc.constraint_type FROM information_schema.columns c "
                + "JOIN information_schema.key_column_usage k ON k.table_schema = c.table_schema "
                + "AND k.table_name = c.table_name AND k.column_name = c.column_name "
                + "JOIN information_schema.table_constraints tc ON tc.constraint_name = k.constraint_name "
                + "AND tc.table_name = k.table_name WHERE c.table_name = ? ORDER BY tc.constraint_type, c.column_name";
        String counted = "SELECT t.table_name, count(*) AS n FROM information_schema.tables t "
                + "LEFT JOIN information_schema.columns c USING (table_schema, table_name) "
                + "WHERE t.table_name IN (SELECT table_name FROM information_schema.columns WHERE column_name = 'big') "
                + "AND t.table_name = ? GROUP BY t.table_name";
        try (Connection c = connect(TestSecurity.ADMIN_KEY)) {
            assertThat(rows(c, keys, t)).containsExactly(t + " id PRIMARY KEY", t + " name UNIQUE");
            assertThat(rows(c, counted, t)).containsExactly(t + " 7");
        }
        assertThat(sql.rows(keys, t)).containsExactly(List.of(t, "id", "PRIMARY KEY"), List.of(t, "name", "UNIQUE"));
        assertThat(sql.rows(counted, t)).containsExactly(List.of(t, "7"));
        try (Connection c = connect(TestSecurity.jwt("pgw-outsider", "nobody_role"))) {
            assertThat(rows(c, keys, t)).isEmpty();
        }
        HttpResponse<String> outsider = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + port + "/v1/sql")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + TestSecurity.jwt("pgw-outsider", "nobody_role"))
                .POST(HttpRequest.BodyPublishers.ofString(ServiceHttp.sql(counted, t))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(outsider.statusCode()).as(outsider.body()).isEqualTo(200);
        assertThat(SqlClient.JSON.readTree(outsider.body()).get("results").get(0).get("rows")).isEmpty();
        // An unknown relation of a system schema is an unknown table, where it is named.
        sql.fails(404, "UNKNOWN_TABLE", "SELECT * FROM information_schema.nope");
    }

    @Test
    void pgjdbcListsIndexesSchemasViewsAndNoForeignKeys() throws Exception {
        String t = table("pgw_ix");
        create(t);
        withMirror(t, (pg, schema) -> {
            try (Connection c = connect(TestSecurity.ADMIN_KEY)) {
                for (boolean unique : new boolean[] {false, true}) {
                    List<String> expected = indexInfo(pg, schema, t, unique);
                    assertThat(expected).hasSize(unique ? 2 : 4);
                    assertThat(indexInfo(c, "public", t, unique)).containsExactlyElementsOf(expected);
                }
            }
        });
        try (Connection c = connect(TestSecurity.ADMIN_KEY); Statement s = c.createStatement()) {
            s.execute("CREATE VIEW " + t + "_v AS SELECT id FROM " + t);
            List<String> schemas = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getSchemas()) {
                while (rs.next()) {
                    schemas.add(rs.getString("TABLE_SCHEM") + " " + rs.getString("TABLE_CATALOG"));
                }
            }
            assertThat(schemas).containsExactly("public verso");
            try (ResultSet rs = c.getMetaData().getSchemas(null, "x%")) {
                assertThat(rs.next()).isFalse();
            }
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getTables(null, "public", t + "%", null)) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME") + " " + rs.getString("TABLE_TYPE"));
                }
            }
            assertThat(tables).containsExactly(t + " TABLE", t + "_v VIEW");
            try (ResultSet rs = c.getMetaData().getTables(null, null, t + "%", new String[] {"VIEW"})) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("TABLE_NAME")).isEqualTo(t + "_v");
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = c.getMetaData().getImportedKeys(null, null, t)) {
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = c.getMetaData().getExportedKeys(null, null, t)) {
                assertThat(rs.next()).isFalse();
            }
        }
        try (Connection c = connect(TestSecurity.jwt("pgw-outsider", "nobody_role"))) {
            assertThat(indexInfo(c, null, t, false)).isEmpty();
        }
    }

    /** getIndexInfo, one line per row of what a tool reads from it. */
    private static List<String> indexInfo(Connection c, String schema, String table, boolean unique)
            throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getIndexInfo(null, schema, table, unique, true)) {
            while (rs.next()) {
                rows.add(rs.getString("TABLE_NAME") + " " + rs.getBoolean("NON_UNIQUE") + " "
                        + rs.getString("INDEX_NAME") + " " + rs.getShort("TYPE") + " " + rs.getShort("ORDINAL_POSITION")
                        + " " + rs.getString("COLUMN_NAME") + " " + rs.getString("ASC_OR_DESC") + " "
                        + rs.getString("FILTER_CONDITION"));
            }
        }
        return rows;
    }

    /** The rows of {@code sql} with {@code params}, each as its values joined by spaces. */
    private static List<String> rows(Connection c, String sql, String... params) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setString(i + 1, params[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<String> values = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        values.add(rs.getString(i));
                    }
                    rows.add(String.join(" ", values));
                }
            }
        }
        return rows;
    }

    private static PSQLException failure(Statement s, String sql) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> s.execute(sql));
        assertThat(thrown).as(sql).isInstanceOf(PSQLException.class);
        return (PSQLException) thrown;
    }
}
