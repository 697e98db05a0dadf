package io.verso.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.verso.analyze.AsOfResolver;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Privilege;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.support.StatementKinds;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    /**
     * One form of every kind of statement, and what its plan needs, as {@code PRIVILEGE table} (no table: on
     * ALL TABLES). What a statement reads needs SELECT, what it writes WRITE, what it defines or drops ADMIN.
     * An empty need is a statement that looks nothing up before it runs: its answer shows only what the caller
     * may see (listings), it is authorised on the table it finds when it runs (DROP INDEX names no table), or
     * it plans the statement it wraps (EXPLAIN).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        SELECT id FROM items                                             | SELECT items
        SELECT * FROM cheap                                              | SELECT items
        SELECT * FROM history(items)                                     | SELECT items
        SELECT * FROM changes(events)                                    | SELECT events
        INSERT INTO items (id, ix) VALUES (1, 2)                         | WRITE items
        UPSERT INTO settings VALUES ('a', 'b')                           | WRITE settings
        INSERT INTO items (id, name, ix) SELECT 1, kind, 2 FROM events  | WRITE items, SELECT events
        UPDATE items SET ix = 3 WHERE id = 1                             | SELECT items, WRITE items
        UPDATE settings SET value = (SELECT kind FROM events) WHERE name = 'a' | SELECT settings, WRITE settings, SELECT events
        DELETE FROM items WHERE name = 'x' AT (ix = 9)                   | SELECT items, WRITE items
        DELETE FROM events WHERE kind = 'x'                              | SELECT events, WRITE events
        CREATE TABLE t (k INT PRIMARY KEY)                               | ADMIN
        DROP TABLE IF EXISTS items                                       | ADMIN items
        ALTER TABLE items ADD COLUMN note TEXT                           | ADMIN items
        ALTER TABLE items DROP COLUMN price                              | ADMIN items
        ALTER TABLE items RENAME COLUMN price TO cost                    | ADMIN items
        ALTER TABLE items RENAME TO goods                                | ADMIN items
        ALTER TABLE items SET HISTORY RETENTION 10 COMMITS               | ADMIN items
        ALTER TABLE settings ADD SYSTEM VERSIONING                       | ADMIN settings
        ALTER TABLE settings SET APPEND                                  | ADMIN settings
        ERASE FROM items WHERE id = 1                                    | ADMIN items
        CREATE INDEX by_name ON items (name) SCOPE CURRENT               | ADMIN items
        DROP INDEX by_name                                               |
        DELETE HISTORY FROM items BEFORE COMMIT 5                        | ADMIN items
        CREATE VIEW v AS SELECT id FROM items                            | ADMIN
        DROP VIEW cheap                                                  | ADMIN
        CREATE DERIVED TABLE d PRIMARY KEY (kind) AS SELECT kind, count(*) FROM events GROUP BY kind | ADMIN
        CREATE ROLE r                                                    | ADMIN
        DROP ROLE r                                                      | ADMIN
        GRANT SELECT ON TABLE items TO r                                 | ADMIN items
        REVOKE WRITE ON ALL TABLES FROM r                                | ADMIN
        SHOW GRANTS FOR r                                                | ADMIN
        SHOW TABLES                                                      |
        SHOW DERIVED TABLES                                              |
        SHOW CREATE TABLE items                                          | SELECT items
        DESCRIBE items                                                   | SELECT items
        START TRANSACTION                                                |
        COMMIT                                                           |
        ROLLBACK                                                         |
        EXPLAIN UPDATE items SET ix = 3 WHERE id = 1                     |
        """)
    void everyKindOfStatementNeedsWhatItReadsWritesOrDefines(String form, String needs) {
        Statement statement = SqlParser.parse(form).statements().get(0);
        Plan plan = Planner.plan(statement, catalog, new AsOfResolver(List.of(), 100), List.of());
        assertThat(plan.needs().stream().map(n -> n.privilege() + (n.table() == null ? "" : " " + n.table()))
                .toList()).isEqualTo(needs == null ? List.of() : List.of(needs.split(", ")));
    }

    /** The forms above reach every kind of statement the syntax tree has: a new kind fails here until listed. */
    @Test
    void theFormsCoverEveryKindOfStatement() throws ReflectiveOperationException {
        Set<Class<?>> covered = new HashSet<>();
        Set<io.verso.sql.ast.StatementKind> kinds = java.util.EnumSet.of(io.verso.sql.ast.StatementKind.DELETE_KEYS);
        String forms = getClass().getDeclaredMethod("everyKindOfStatementNeedsWhatItReadsWritesOrDefines",
                String.class, String.class).getAnnotation(CsvSource.class).textBlock();
        for (String line : forms.strip().split("\n")) {
            Statement statement = SqlParser.parse(line.split("\\|")[0].strip()).statements().get(0);
            covered.add(statement.getClass());
            kinds.add(statement.kind());
        }
        assertThat(kinds).containsExactlyInAnyOrder(io.verso.sql.ast.StatementKind.values());
        // DELETE of named keys has no text (REST and GraphQL build it): it writes tombstones and reads nothing.
        Statement keys = new Statement.DeleteKeys(new Ident("settings", Pos.pointer("/table")), List.of(),
                Pos.pointer("/keys"));
        assertThat(Planner.targetPrivileges(keys)).containsExactly(Privilege.WRITE);
        covered.add(Statement.DeleteKeys.class);
        assertThat(covered).containsAll(StatementKinds.all());
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
