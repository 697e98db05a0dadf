package io.verso.sysver;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each statement of the source document 003 ("Temporal tables: WITH SYSTEM VERSIONING"), run as a
 * user would, with what Verso answers.
 */
class SystemVersioningSeedTests extends IntegrationTest {

    private static final String END = "2038-01-19T03:14:07.999999";

    private String stock;
    private String clients;

    @BeforeEach
    void tables() {
        stock = table("stock");
        clients = table("clients");
    }

    private String t(String statement) {
        return statement.replace("stock", stock).replace("clients", clients);
    }

    /** The commit time of a commit (the period columns show it as a UTC TIMESTAMP). */
    private String time(long commit) {
        String body = io.restassured.RestAssured.given().port(port).get("/v1/commits/" + commit).asString();
        return io.verso.support.SqlClient.JSON.readTree(body).get("committedAt").asString();
    }

    private static String utc(String instant) {
        return java.time.LocalDateTime.ofInstant(java.time.Instant.parse(instant), java.time.ZoneOffset.UTC).toString();
    }

    @Test
    void implicitPeriodColumnsAreInvisibleButReadableByName() {
        sql.write(t("CREATE TABLE stock (article INT PRIMARY KEY, qte INT NOT NULL) WITH SYSTEM VERSIONING"));
        long c1 = sql.write(t("INSERT INTO stock VALUES (1, 10), (2, 20)"));
        long c2 = sql.write(t("UPDATE stock SET qte = qte - 1 WHERE article = 1"));

        var star = sql.run(t("SELECT * FROM stock ORDER BY article")).get("results").get(0);
        assertThat(star.get("columns").size()).isEqualTo(2);
        assertThat(sql.rows(t("SELECT * FROM stock ORDER BY article"))).containsExactly(List.of("1", "9"),
                List.of("2", "20"));

        List<List<String>> rows = sql.rows(t("SELECT article, qte, row_start, row_end FROM stock ORDER BY article"));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get(3)).isEqualTo(END);
        assertThat(rows.get(1).get(3)).isEqualTo(END);
        assertThat(rows.get(0).get(2)).isGreaterThan(rows.get(1).get(2));
        assertThat(c2).isGreaterThan(c1);

        List<List<String>> all = sql.rows(t("SELECT article, qte, row_start, row_end FROM stock FOR SYSTEM_TIME ALL "
                + "ORDER BY article, row_start"));
        assertThat(all).hasSize(3);
        assertThat(all.get(0).subList(0, 2)).containsExactly("1", "10");
        assertThat(all.get(0).get(3)).isEqualTo(all.get(1).get(2));
        assertThat(all.get(1).subList(0, 2)).containsExactly("1", "9");
    }

    @Test
    void describeAndShowCreateOmitImplicitColumns() {
        sql.write(t("CREATE TABLE stock (article INT PRIMARY KEY, qte INT NOT NULL) WITH SYSTEM VERSIONING"));
        String create = sql.rows(t("SHOW CREATE TABLE stock")).get(0).get(1);
        assertThat(create).contains("WITH SYSTEM VERSIONING").doesNotContain("row_start");
        assertThat(sql.rows(t("DESCRIBE stock"))).extracting(r -> r.get(1)).containsExactly("article", "qte");
    }

    @Test
    void declaredPeriodColumnsStayVisible() {
        sql.write(t("""
                CREATE TABLE stock (
                    article INT PRIMARY KEY,
                    qte     INT NOT NULL,
                    debut   TIMESTAMP(6) GENERATED ALWAYS AS ROW START,
                    fin     TIMESTAMP(6) GENERATED ALWAYS AS ROW END,
                    PERIOD FOR SYSTEM_TIME (debut, fin)
                ) WITH SYSTEM VERSIONING"""));
        sql.write(t("INSERT INTO stock (article, qte) VALUES (1, 5)"));
        List<List<String>> rows = sql.rows(t("SELECT * FROM stock"));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0)).hasSize(4);
        assertThat(rows.get(0).get(3)).isEqualTo(END);
        assertThat(sql.rows(t("DESCRIBE stock"))).extracting(r -> r.get(1))
                .containsExactly("article", "qte", "debut", "fin");
        assertThat(sql.rows(t("SHOW CREATE TABLE stock")).get(0).get(1))
                .contains("GENERATED ALWAYS AS ROW START", "PERIOD FOR SYSTEM_TIME (debut, fin)");
    }

    @Test
    void forSystemTimeInEveryForm() {
        sql.write(t("CREATE TABLE stock (article INT PRIMARY KEY, qte INT NOT NULL) WITH SYSTEM VERSIONING"));
        long c1 = sql.write(t("INSERT INTO stock VALUES (1, 10)"));
        long c2 = sql.write(t("UPDATE stock SET qte = 11"));
        long c3 = sql.write(t("DELETE FROM stock"));
        String t1 = time(c1);
        String t2 = time(c2);
        String t3 = time(c3);

        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME AS OF ?"), t1)).containsExactly(List.of("10"));
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME AS OF TIMESTAMP '" + utc(t2) + "'")))
                .containsExactly(List.of("11"));
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME AS OF ?"), t3)).isEmpty();
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME FROM ? TO ? ORDER BY qte"), t1, t2))
                .containsExactly(List.of("10"));
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME BETWEEN ? AND ? ORDER BY qte"), t1, t2))
                .containsExactly(List.of("10"), List.of("11"));
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME ALL ORDER BY qte")))
                .containsExactly(List.of("10"), List.of("11"));
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME BETWEEN ? AND ?"), t2, t1)).isEmpty();
        assertThat(sql.rows(t("SELECT count(*) FROM stock FOR SYSTEM_TIME AS OF now() - INTERVAL '1 day'")))
                .containsExactly(List.of("0"));
        // The same read pinned to a commit.
        assertThat(sql.rows(t("SELECT qte FROM stock AS OF COMMIT ?"), c2)).containsExactly(List.of("11"));
    }

    @Test
    void forSystemTimeInJoinsSubqueriesUnionsAndInsertSelect() {
        sql.write(t("CREATE TABLE stock (article INT PRIMARY KEY, qte INT NOT NULL) WITH SYSTEM VERSIONING"));
        sql.write(t("CREATE TABLE clients (nom TEXT, article INT) WITH SYSTEM VERSIONING"));
        long c1 = sql.write(t("INSERT INTO stock VALUES (1, 10); INSERT INTO clients VALUES ('ana', 1)"));
        sql.write(t("UPDATE stock SET qte = 3"));
        String t1 = time(c1);
        assertThat(sql.rows(t("SELECT c.nom, s.qte FROM clients c JOIN stock FOR SYSTEM_TIME AS OF ? s "
                + "ON s.article = c.article"), t1)).containsExactly(List.of("ana", "10"));
        assertThat(sql.rows(t("SELECT nom FROM clients WHERE article IN (SELECT article FROM stock FOR SYSTEM_TIME "
                + "AS OF ? WHERE qte = 10)"), t1)).containsExactly(List.of("ana"));
        assertThat(sql.rows(t("SELECT q FROM (SELECT qte AS q FROM stock FOR SYSTEM_TIME ALL) d ORDER BY q")))
                .containsExactly(List.of("3"), List.of("10"));
        assertThat(sql.rows(t("WITH old AS (SELECT qte FROM stock FOR SYSTEM_TIME AS OF ?) SELECT qte FROM old "
                + "UNION ALL SELECT qte FROM stock ORDER BY qte"), t1)).containsExactly(List.of("3"), List.of("10"));
        sql.write(t("INSERT INTO stock (article, qte) SELECT article + 100, qte FROM stock FOR SYSTEM_TIME AS OF ?"), t1);
        assertThat(sql.rows(t("SELECT qte FROM stock WHERE article = 101"))).containsExactly(List.of("10"));
    }

    @Test
    void deleteHistoryNeverTouchesCurrentRows() {
        sql.write(t("CREATE TABLE stock (article INT PRIMARY KEY, qte INT NOT NULL) WITH SYSTEM VERSIONING"));
        sql.write(t("INSERT INTO stock VALUES (1, 1)"));
        sql.write(t("UPDATE stock SET qte = 2"));
        long c3 = sql.write(t("UPDATE stock SET qte = 3"));
        var result = sql.run(t("DELETE HISTORY FROM stock BEFORE SYSTEM_TIME ?"), time(c3)).get("results").get(0);
        assertThat(result.get("count").asLong()).isEqualTo(1);
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME ALL ORDER BY qte")))
                .containsExactly(List.of("2"), List.of("3"));
        result = sql.run(t("DELETE HISTORY FROM stock")).get("results").get(0);
        assertThat(result.get("count").asLong()).isEqualTo(1);
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME ALL"))).containsExactly(List.of("3"));
    }

    /** PostgreSQL's infinite times are bounds like any other, literal or bound: later or earlier than every version. */
    @Test
    void infiniteTimesAreBoundsBeyondEveryVersion() {
        sql.write(t("CREATE TABLE stock (article INT PRIMARY KEY, qte INT NOT NULL) WITH SYSTEM VERSIONING"));
        sql.write(t("INSERT INTO stock VALUES (1, 1)"));
        sql.write(t("UPDATE stock SET qte = 2"));
        sql.write(t("UPDATE stock SET qte = 3"));
        // 'infinity' lies past the end of time (2038-01-19 03:14:07.999999), which no row is current at: as MariaDB
        // reads no rows AS OF the end of time or later, so does 'infinity'.
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME AS OF 'infinity'"))).isEmpty();
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME AS OF ?"), "-infinity")).isEmpty();
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME FROM '-infinity' TO 'infinity' ORDER BY qte")))
                .containsExactly(List.of("1"), List.of("2"), List.of("3"));

        var result = sql.run(t("DELETE HISTORY FROM stock BEFORE SYSTEM_TIME '-infinity'")).get("results").get(0);
        assertThat(result.get("count").asLong()).isZero();
        result = sql.run(t("DELETE HISTORY FROM stock BEFORE SYSTEM_TIME ?"), "infinity").get("results").get(0);
        assertThat(result.get("count").asLong()).isEqualTo(2);
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME ALL"))).containsExactly(List.of("3"));
    }

    @Test
    void addAndDropSystemVersioning() {
        sql.write(t("CREATE TABLE stock (article INT PRIMARY KEY, qte INT NOT NULL) WITH SYSTEM VERSIONING"));
        sql.write(t("INSERT INTO stock VALUES (1, 1)"));
        sql.write(t("UPDATE stock SET qte = 2"));
        sql.write(t("ALTER TABLE stock DROP SYSTEM VERSIONING"));
        sql.fails(400, "NOT_SYSTEM_VERSIONED", t("SELECT * FROM stock FOR SYSTEM_TIME ALL"));
        sql.fails(400, "UNKNOWN_COLUMN", t("SELECT row_start FROM stock"));
        sql.write(t("UPDATE stock SET qte = 3"));
        long added = sql.write(t("ALTER TABLE stock ADD SYSTEM VERSIONING"));
        List<List<String>> rows = sql.rows(t("SELECT qte, row_start FROM stock FOR SYSTEM_TIME ALL"));
        assertThat(rows).hasSize(1);
        assertThat(java.time.LocalDateTime.parse(rows.get(0).get(1))).isEqualTo(java.time.LocalDateTime.parse(utc(time(added))));
    }

    @Test
    void transactionFramingAndRollback() {
        sql.write(t("CREATE TABLE stock (article INT PRIMARY KEY, qte INT NOT NULL) WITH SYSTEM VERSIONING"));
        long before = sql.latestCommit();
        var response = sql.run(t("START TRANSACTION; INSERT INTO stock VALUES (1, 1); ROLLBACK"));
        assertThat(response.get("commit").isNull()).isTrue();
        assertThat(sql.latestCommit()).isEqualTo(before);
        sql.write(t("BEGIN; INSERT INTO stock VALUES (1, 1); UPDATE stock SET qte = 2; COMMIT"));
        // One version per row per commit: the row written and changed in one commit has no history.
        assertThat(sql.rows(t("SELECT qte FROM stock FOR SYSTEM_TIME ALL"))).containsExactly(List.of("2"));
    }
}
