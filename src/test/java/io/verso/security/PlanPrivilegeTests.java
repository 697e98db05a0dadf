package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * What a statement needs comes from what it does to each relation, not from the names it holds: what it
 * reads needs SELECT (an INSERT/UPSERT ... SELECT's source, history(t), changes(t), a subquery, the rows an
 * UPDATE or DELETE ... WHERE matches), what it writes WRITE, views and other DDL ADMIN; and what the caller
 * may not see answers exactly as what does not exist (views, derived dependencies, indexes, DROP ... IF
 * EXISTS with no commit). The probes of issue 23, over HTTP with security on.
 */
class PlanPrivilegeTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Autowired
    JdbcTemplate jdbc;

    private record Answer(int status, String code, String detail, JsonNode body, String raw) {
    }

    private Answer as(String token, String statement) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                        + "/v1/sql")).header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(SqlClient.JSON.writeValueAsString(
                        Map.of("sql", statement, "params", List.of())))).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = SqlClient.JSON.readTree(response.body());
        return new Answer(response.statusCode(), body.path("code").asString(), body.path("detail").asString(), body,
                response.body());
    }

    private long commitsBy(String principal) {
        return jdbc.queryForObject("SELECT count(*) FROM verso.commits WHERE principal = ?", Long.class, principal);
    }

    /** secrets: one row with a secret value; mine: the caller's own table. */
    private record Tables(String secrets, String mine) {
    }

    private Tables tables(String prefix) {
        Tables t = new Tables(table(prefix + "_secrets"), table(prefix + "_mine"));
        sql.write("CREATE TABLE " + t.secrets + " (k TEXT PRIMARY KEY, v TEXT, ver BIGINT) VERSIONED; CREATE TABLE "
                + t.mine + " (k TEXT PRIMARY KEY, v TEXT, ver BIGINT) VERSIONED");
        sql.write("UPSERT INTO " + t.secrets + " VALUES ('s1', 'TOPSECRET-1', 1)");
        return t;
    }

    @Test
    void aRoleWithOnlyWriteOnATableCannotReadItThroughAnyWrite() throws Exception {
        Tables t = tables("wo");
        String role = table("writer_only");
        sql.run("CREATE ROLE " + role + "; GRANT WRITE ON TABLE " + t.secrets + " TO " + role + "; GRANT SELECT ON TABLE "
                + t.mine + " TO " + role + "; GRANT WRITE ON TABLE " + t.mine + " TO " + role);
        String writer = TestSecurity.jwt("wanda", role);
        long before = commitsBy("wanda");

        for (String probe : List.of(
                "UPSERT INTO " + t.mine + " (k, v, ver) SELECT k, v, ver FROM " + t.secrets,
                "INSERT INTO " + t.mine + " (k, v, ver) SELECT k, v, ver FROM " + t.secrets,
                "INSERT INTO " + t.mine + " (k, v, ver) SELECT k, v, ver FROM history(" + t.secrets + ")",
                "INSERT INTO " + t.mine + " (k, v, ver) SELECT k, v, ver FROM changes(" + t.secrets + ")",
                "INSERT INTO " + t.mine + " SELECT 'x', 'y', 1 FROM " + t.mine + " WHERE EXISTS (SELECT 1 FROM "
                        + t.secrets + " WHERE v LIKE 'TOPSECRET-%')",
                "UPDATE " + t.secrets + " SET ver = CAST(v AS BIGINT) WHERE k = 's1'",
                "BEGIN; UPDATE " + t.secrets + " SET ver = 2 WHERE k = 's1' AND v LIKE 'TOPSECRET-%'; ROLLBACK",
                "UPDATE " + t.secrets + " SET ver = 3",
                "DELETE FROM " + t.secrets + " WHERE v LIKE 'TOPSECRET-%'",
                "SELECT v FROM " + t.secrets)) {
            Answer answer = as(writer, probe);
            assertThat(answer.status()).as(probe + ": " + answer.raw()).isEqualTo(403);
            assertThat(answer.code()).isEqualTo("FORBIDDEN");
            assertThat(answer.detail()).as(probe).contains("permission SELECT on table " + t.secrets)
                    .doesNotContain("TOPSECRET");
        }
        assertThat(commitsBy("wanda")).isEqualTo(before);
        assertThat(sql.rows("SELECT k, v, ver FROM " + t.secrets)).containsExactly(List.of("s1", "TOPSECRET-1", "1"));
        assertThat(sql.rows("SELECT k FROM " + t.mine)).isEmpty();

        // Writing what it brings, and deleting keys it names, stay the writer's.
        assertThat(as(writer, "UPSERT INTO " + t.secrets + " VALUES ('w1', 'mine', 1)").status()).isEqualTo(200);
        assertThat(as(writer, "INSERT INTO " + t.mine + " (k, v, ver) SELECT k, v, ver FROM " + t.mine)
                .status()).isEqualTo(200);
        // With SELECT as well, the same UPDATE runs (and its cast error quotes a value the caller may read).
        sql.run("GRANT SELECT ON TABLE " + t.secrets + " TO " + role);
        Answer cast = as(writer, "UPDATE " + t.secrets + " SET ver = CAST(v AS BIGINT) WHERE k = 's1'");
        assertThat(cast.status()).as(cast.raw()).isEqualTo(400);
        assertThat(as(writer, "UPDATE " + t.secrets + " SET ver = 4 WHERE k = 'w1'").status()).isEqualTo(200);
    }

    @Test
    void subqueriesOfUpdatesAndDeletesNeedSelectOnEveryModeSystemVersionedIncluded() throws Exception {
        Tables t = tables("sq");
        String sv = table("sq_sv");
        String svSecrets = table("sq_svsecrets");
        sql.write("CREATE TABLE " + sv + " (k TEXT PRIMARY KEY, v TEXT) WITH SYSTEM VERSIONING; CREATE TABLE "
                + svSecrets + " (k TEXT PRIMARY KEY, v TEXT) WITH SYSTEM VERSIONING");
        sql.write("INSERT INTO " + sv + " VALUES ('x', 'mine'); INSERT INTO " + svSecrets + " VALUES ('s1', 'TOPSECRET-2')");
        String role = table("sq_writer");
        sql.run("CREATE ROLE " + role + "; GRANT ALL ON TABLE " + t.mine + " TO " + role + "; GRANT ALL ON TABLE " + sv
                + " TO " + role + "; GRANT WRITE ON TABLE " + t.secrets + " TO " + role + "; GRANT WRITE ON TABLE "
                + svSecrets + " TO " + role);
        String writer = TestSecurity.jwt("sasha", role);
        long before = commitsBy("sasha");
        for (String[] probe : List.of(
                new String[] {"UPDATE " + t.mine + " SET v = (SELECT max(v) FROM " + t.secrets + ") WHERE k = 'x'", t.secrets},
                new String[] {"DELETE FROM " + t.mine + " WHERE k IN (SELECT k FROM " + t.secrets + ")", t.secrets},
                new String[] {"UPDATE " + sv + " SET v = (SELECT max(v) FROM " + svSecrets + ") WHERE k = 'x'", svSecrets},
                new String[] {"DELETE FROM " + sv + " WHERE k IN (SELECT k FROM " + svSecrets
                        + " WHERE v LIKE 'TOPSECRET-%')", svSecrets},
                new String[] {"DELETE FROM " + svSecrets + " WHERE v LIKE 'TOPSECRET-%'", svSecrets})) {
            Answer answer = as(writer, probe[0]);
            assertThat(answer.status()).as(probe[0] + ": " + answer.raw()).isEqualTo(403);
            assertThat(answer.detail()).as(probe[0]).contains("permission SELECT on table " + probe[1])
                    .doesNotContain("TOPSECRET");
        }
        assertThat(commitsBy("sasha")).isEqualTo(before);
        assertThat(sql.rows("SELECT k, v FROM " + sv)).containsExactly(List.of("x", "mine"));
        // Its own tables' subqueries run.
        assertThat(as(writer, "UPDATE " + sv + " SET v = (SELECT max(v) FROM " + t.mine + ") WHERE k = 'x'").status())
                .isEqualTo(200);
    }

    @Test
    void aSourceTheCallerHoldsNothingOnIsUnknownAsATableThatDoesNotExist() throws Exception {
        Tables t = tables("src");
        String role = table("own_only");
        sql.run("CREATE ROLE " + role + "; GRANT ALL ON TABLE " + t.mine + " TO " + role);
        String caller = TestSecurity.jwt("otto", role);
        String missing = "nope_" + t.secrets;
        for (String probe : List.of(
                "UPSERT INTO " + t.mine + " (k, v, ver) SELECT k, v, ver FROM %s",
                "INSERT INTO " + t.mine + " (k, v, ver) SELECT k, v, ver FROM history(%s)",
                "UPDATE %s SET ver = 2 WHERE k = 's1'",
                "DELETE FROM %s WHERE k = 's1'",
                "DROP TABLE %s")) {
            Answer hidden = as(caller, probe.formatted(t.secrets));
            Answer absent = as(caller, probe.formatted(missing));
            assertThat(hidden.status()).as(probe + ": " + hidden.raw()).isEqualTo(404);
            assertThat(hidden.code()).isEqualTo("UNKNOWN_TABLE");
            assertThat(hidden.detail()).isEqualTo("unknown table '" + t.secrets + "'");
            assertThat(absent.status()).as(probe).isEqualTo(hidden.status());
            assertThat(absent.code()).as(probe).isEqualTo(hidden.code());
            assertThat(absent.detail().replace(missing, t.secrets)).as(probe).isEqualTo(hidden.detail());
            assertThat(absent.body().path("column")).as(probe).isEqualTo(hidden.body().path("column"));
        }
    }

    @Test
    void viewsAreDdlAndAViewOverATableTheCallerCannotSeeIsUnknown() throws Exception {
        Tables t = tables("vw");
        String view = table("vw_secret_view");
        String role = table("vw_reader");
        sql.write("CREATE VIEW " + view + " AS SELECT k, v FROM " + t.secrets);
        sql.run("CREATE ROLE " + role + "; GRANT ALL ON TABLE " + t.mine + " TO " + role);
        String caller = TestSecurity.jwt("vera", role);
        long before = commitsBy("vera");

        for (String probe : List.of("DROP VIEW " + view, "DROP VIEW IF EXISTS " + view,
                "DROP VIEW IF EXISTS " + view + "_none", "CREATE VIEW " + view + "_mine AS SELECT k FROM " + t.mine,
                "CREATE VIEW IF NOT EXISTS " + view + " AS SELECT k FROM " + t.mine)) {
            Answer answer = as(caller, probe);
            assertThat(answer.status()).as(probe + ": " + answer.raw()).isEqualTo(403);
            assertThat(answer.code()).isEqualTo("FORBIDDEN");
            assertThat(answer.detail()).contains("ADMIN on ALL TABLES");
        }
        assertThat(commitsBy("vera")).isEqualTo(before);
        assertThat(sql.rows("SELECT v FROM " + view)).containsExactly(List.of("TOPSECRET-1"));

        // Reading the view: its body runs with the caller's privileges, and its base table is never named.
        Answer hidden = as(caller, "SELECT k FROM " + view);
        Answer absent = as(caller, "SELECT k FROM no_such_view_" + view);
        assertThat(hidden.status()).as(hidden.raw()).isEqualTo(404);
        assertThat(hidden.code()).isEqualTo("UNKNOWN_TABLE");
        assertThat(hidden.detail()).isEqualTo("unknown table '" + view + "'").doesNotContain(t.secrets);
        assertThat(hidden.body().path("column")).isEqualTo(absent.body().path("column"));
        assertThat(absent.detail()).isEqualTo("unknown table 'no_such_view_" + view + "'");
        // Nor can a view be the way to copy what the caller may not read.
        Answer copied = as(caller, "INSERT INTO " + t.mine + " (k, v, ver) SELECT k, v, 1 FROM " + view);
        assertThat(copied.status()).as(copied.raw()).isEqualTo(404);
        assertThat(copied.detail()).doesNotContain(t.secrets);

        // Given SELECT on the base table, the caller reads the view.
        sql.run("GRANT SELECT ON TABLE " + t.secrets + " TO " + role);
        Answer read = as(caller, "SELECT v FROM " + view);
        assertThat(read.status()).as(read.raw()).isEqualTo(200);
        assertThat(read.raw()).contains("TOPSECRET-1");
    }

    @Test
    void dropIfExistsOfWhatTheCallerCannotSeeMakesNoCommit() throws Exception {
        Tables t = tables("ifx");
        String index = table("ifx_idx");
        sql.write("CREATE INDEX " + index + " ON " + t.secrets + " (v)");
        String role = table("ifx_role");
        sql.run("CREATE ROLE " + role + "; GRANT ALL ON TABLE " + t.mine + " TO " + role);
        String caller = TestSecurity.jwt("iris", role);
        long before = commitsBy("iris");

        for (String probe : List.of("DROP TABLE IF EXISTS " + t.secrets, "DROP INDEX IF EXISTS " + index,
                "DROP TABLE IF EXISTS nope_" + t.secrets, "DROP INDEX IF EXISTS nope_" + index)) {
            Answer answer = as(caller, probe);
            assertThat(answer.status()).as(probe + ": " + answer.raw()).isEqualTo(200);
            assertThat(answer.raw()).contains("\"changed\":false");
            assertThat(answer.body().path("commit").isNull()).as(answer.raw()).isTrue();
        }
        assertThat(commitsBy("iris")).isEqualTo(before);
        // An index on a table the caller cannot see is unknown, word for word.
        Answer hidden = as(caller, "DROP INDEX " + index);
        Answer absent = as(caller, "DROP INDEX nope_" + index);
        assertThat(hidden.status()).as(hidden.raw()).isEqualTo(404);
        assertThat(hidden.code()).isEqualTo("UNKNOWN_INDEX").isEqualTo(absent.code());
        assertThat(absent.detail().replace("nope_" + index, index)).isEqualTo(hidden.detail());
        assertThat(sql.rows("SELECT v FROM " + t.secrets)).containsExactly(List.of("TOPSECRET-1"));

        // Nothing to drop makes no commit for the admin either; a change still makes one.
        JsonNode none = sql.run("DROP TABLE IF EXISTS nope_" + t.mine + "; DROP VIEW IF EXISTS nope_" + t.mine);
        assertThat(none.path("commit").isNull()).as(none.toString()).isTrue();
        assertThat(sql.run("DROP TABLE IF EXISTS " + t.mine).path("commit").isNull()).isFalse();
    }

    @Test
    void aDerivedTableIsNeverNamedToWhoMayNotSeeIt() throws Exception {
        String source = table("dd_source");
        String derived = table("dd_derived");
        sql.write("CREATE TABLE " + source + " (k INT PRIMARY KEY, v INT) VERSIONED");
        sql.write("CREATE DERIVED TABLE " + derived + " PRIMARY KEY (k) AS SELECT k, v FROM " + source);
        String outsider = table("dd_outsider");
        String owner = table("dd_owner");
        sql.run("CREATE ROLE " + outsider + "; CREATE ROLE " + owner + "; GRANT ADMIN ON TABLE " + source + " TO " + owner);

        // No privilege on the source: as if neither existed.
        Answer hidden = as(TestSecurity.jwt("olaf", outsider), "DROP TABLE " + source);
        assertThat(hidden.status()).as(hidden.raw()).isEqualTo(404);
        assertThat(hidden.detail()).isEqualTo("unknown table '" + source + "'");
        Answer hiddenIfExists = as(TestSecurity.jwt("olaf", outsider), "DROP TABLE IF EXISTS " + source);
        assertThat(hiddenIfExists.status()).as(hiddenIfExists.raw()).isEqualTo(200);
        assertThat(hiddenIfExists.raw()).contains("\"changed\":false").doesNotContain(derived);

        // ADMIN on the source: refused, but the derived table it may not see is counted, not named.
        for (String probe : List.of("DROP TABLE " + source, "ALTER TABLE " + source + " RENAME TO " + source + "_x")) {
            Answer refused = as(TestSecurity.jwt("oona", owner), probe);
            assertThat(refused.status()).as(refused.raw()).isEqualTo(409);
            assertThat(refused.code()).isEqualTo("DERIVED_DEPENDENCY");
            assertThat(refused.detail()).doesNotContain(derived).contains("1 derived table(s) you may not see");
        }
        // The admin sees which.
        assertThat(sql.fails(409, "DERIVED_DEPENDENCY", "DROP TABLE " + source).path("detail").asString())
                .contains(derived);
    }

    @Test
    void noMessageNamesAStorageRelationOrConstraint() throws Exception {
        String t = table("storage_names");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, e TEXT UNIQUE) VERSIONED");
        JsonNode refused = sql.fails(409, "UNIQUE_VIOLATION", "UPSERT INTO " + t + " VALUES (1, 'a'), (2, 'a')");
        assertThat(refused.path("detail").asString()).doesNotContainPattern("t\\d+_").doesNotContainPattern("\"c\\d+\"");
    }
}
