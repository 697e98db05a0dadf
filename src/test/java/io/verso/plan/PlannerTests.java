package io.verso.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.verso.analyze.AsOfResolver;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Privilege;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The planner against an in-memory catalog: what each plan needs on which table (what it reads needs
 * SELECT, what it writes WRITE, UPDATE and DELETE ... WHERE both, DDL ADMIN), the lookups it makes with
 * those privileges, and its refusals with code and position.
 */
class PlannerTests {

    private final PlanCatalog catalog = new PlanCatalog();

    private Plan plan(String text) {
        Statement statement = SqlParser.parse(text).statements().get(0);
        return Planner.plan(statement instanceof Statement.Explain e ? e.statement() : statement, catalog,
                new AsOfResolver(List.of(), 100), List.of());
    }

    private static Plan.Need need(Privilege privilege, String table) {
        return new Plan.Need(privilege, table);
    }

    @Test
    void whatAStatementReadsNeedsSelectAndWhatItWritesNeedsWrite() {
        assertThat(plan("SELECT i.id FROM items i JOIN events e ON e.kind = i.name").needs())
                .containsExactly(need(Privilege.SELECT, "items"), need(Privilege.SELECT, "events"));
        assertThat(plan("UPSERT INTO items (id, name) SELECT k, v FROM (SELECT 1 AS k, kind AS v FROM events) AS q")
                .needs()).containsExactly(need(Privilege.WRITE, "items"), need(Privilege.SELECT, "events"));
        assertThat(plan("INSERT INTO events SELECT at, kind, body FROM history(events)").needs())
                .containsExactly(need(Privilege.WRITE, "events"), need(Privilege.SELECT, "events"));
        // A view's body is read with the caller's privileges: its tables need SELECT.
        assertThat(plan("SELECT * FROM cheap").needs()).containsExactly(need(Privilege.SELECT, "items"));
        assertThat(catalog.asked).contains("items [SELECT]");
    }

    @Test
    void updateAndDeleteReadTheRowsTheyChange() {
        assertThat(plan("UPDATE items SET price = 1, ix = 5 WHERE id = 2").needs())
                .containsExactly(need(Privilege.SELECT, "items"), need(Privilege.WRITE, "items"));
        assertThat(plan("DELETE FROM items WHERE price > 1 AT (ix = 2)").needs())
                .containsExactly(need(Privilege.SELECT, "items"), need(Privilege.WRITE, "items"));
        assertThat(plan("UPDATE items SET price = 1, ix = 5 WHERE id = 2")).isInstanceOf(Plan.Update.class);
        assertThat(((Plan.Delete) plan("DELETE FROM items WHERE id = 2 AT (ix = 3)")).read())
                .as("a WHERE naming every key column reads nothing").isNull();
        // An APPEND table's rows have no key: its UPDATE and DELETE are one set-based statement each.
        Plan append = plan("UPDATE events SET kind = 'x' WHERE kind = 'y'");
        assertThat(append).isInstanceOf(Plan.Direct.class);
        assertThat(append.needs()).containsExactly(need(Privilege.SELECT, "events"), need(Privilege.WRITE, "events"));
        assertThat(plan("DELETE FROM events WHERE kind = 'y'")).isInstanceOf(Plan.Direct.class);
    }

    @Test
    void ddlNeedsAdmin() {
        assertThat(plan("DROP TABLE items").needs()).containsExactly(need(Privilege.ADMIN, "items"));
        assertThat(plan("ALTER TABLE items ADD COLUMN note TEXT").needs()).containsExactly(need(Privilege.ADMIN, "items"));
        assertThat(plan("CREATE TABLE t (k INT)").needs()).containsExactly(need(Privilege.ADMIN, null));
        assertThat(plan("CREATE VIEW v AS SELECT 1").needs()).containsExactly(need(Privilege.ADMIN, null));
        assertThat(plan("DROP VIEW cheap").needs()).containsExactly(need(Privilege.ADMIN, null));
        assertThat(plan("GRANT SELECT ON TABLE items TO r").needs()).containsExactly(need(Privilege.ADMIN, "items"));
        assertThat(plan("DESCRIBE items").needs()).containsExactly(need(Privilege.SELECT, "items"));
        // Direct plans look nothing up: DROP ... IF EXISTS of what is not there is answered when it runs.
        assertThat(plan("DROP TABLE IF EXISTS nothing_here").needs()).containsExactly(need(Privilege.ADMIN,
                "nothing_here"));
        assertThat(catalog.asked).isEmpty();
    }

    @Test
    void refusalsCarryTheirCodeAndPosition() {
        VersoException.UserError upsert = (VersoException.UserError) catchThrowable(
                () -> plan("UPSERT INTO events SELECT at, kind, body FROM events"));
        assertThat(upsert.code()).isEqualTo(ErrorCode.UNSUPPORTED_FOR_MODE);
        VersoException.UserError unknown = (VersoException.UserError) catchThrowable(
                () -> plan("INSERT INTO items (id) SELECT id FROM  nowhere"));
        assertThat(unknown.code()).isEqualTo(ErrorCode.UNKNOWN_TABLE);
        assertThat(unknown.column()).isEqualTo(40);
        VersoException.UserError count = (VersoException.UserError) catchThrowable(
                () -> plan("INSERT INTO items (id, name) SELECT id FROM items"));
        assertThat(count.code()).isEqualTo(ErrorCode.COLUMN_COUNT_MISMATCH);
        assertThat(count.column()).isEqualTo(30);
        VersoException.UserError nested = (VersoException.UserError) catchThrowable(
                () -> SqlParser.parse("EXPLAIN EXPLAIN SELECT 1"));
        assertThat(nested.code()).isEqualTo(ErrorCode.NOT_SUPPORTED);
        assertThat(nested.column()).isEqualTo(9);
    }
}
