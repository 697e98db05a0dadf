package io.verso.analyze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.error.ErrorCode;
import io.verso.error.Origin;
import io.verso.error.VersoException;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The analysis of writes, DDL and the table lifecycle (ALTER, CREATE INDEX, DELETE HISTORY, ERASE)
 * against an in-memory catalog, without a database: each bad
 * statement fails with its code at the line and column of the part at fault. {@code at} names that
 * part by its first occurrence in the text ({@code ^} for the statement's start).
 */
class WriteAnalyzerTests {

    private static final TableDef ITEMS = table("CREATE TABLE items (id BIGINT PRIMARY KEY, name TEXT NOT NULL, "
            + "price NUMERIC(12,2), ix INT, a INT, ax BIGINT, ATTRIBUTE GROUP ga (a, ax) VALID BY (ax)) "
            + "VERSIONED VALID BY (ix)");

    private static final TableDef SETTINGS = table("CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT) UPSERT");

    private static final TableDef RATES = system("CREATE TABLE rates (id INT PRIMARY KEY, rate NUMERIC(6,3), "
            + "row_start TIMESTAMP(6) GENERATED ALWAYS AS ROW START, row_end TIMESTAMP(6) GENERATED ALWAYS AS ROW END, "
            + "PERIOD FOR SYSTEM_TIME (row_start, row_end)) WITH SYSTEM VERSIONING");

    private static TableDef system(String ddl) {
        return SystemTables.createTable((Statement.CreateTable) SqlParser.parse(ddl).statements().get(0), 1).table();
    }

    private static TableDef lookup(io.verso.sql.ast.Ident name) {
        return switch (name.name()) {
            case "settings" -> SETTINGS;
            case "rates" -> RATES;
            default -> ITEMS;
        };
    }

    /** The catalog as a statement's subqueries see it: the three tables, and nothing else. */
    private static TableDef known(io.verso.sql.ast.Ident name) {
        return switch (name.name()) {
            case "items" -> ITEMS;
            case "settings" -> SETTINGS;
            case "rates" -> RATES;
            default -> throw VersoException.at(ErrorCode.UNKNOWN_TABLE, "unknown table '" + name.name() + "'",
                    name.pos());
        };
    }

    private static TableDef table(String ddl) {
        TableDef t = DdlAnalyzer.createTable((Statement.CreateTable) SqlParser.parse(ddl).statements().get(0), 1);
        return new TableDef(7, t.name(), t.mode(), t.columns(), t.groups(), 0, 1);
    }

    @ParameterizedTest(name = "{1}: {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            UPDATE items SET nope = 1 WHERE id = 1                         | UNKNOWN_COLUMN         | nope
            UPDATE items SET id = 2, ix = 1                                | INVALID_ASSIGNMENT     | id =
            UPDATE items SET ix = 1, name = 'a', name = 'b'                | DUPLICATE_NAME         | name = 'b'
            UPDATE items SET price = 1                                     | MISSING_ORDERING_VALUE | ^
            UPDATE items SET a = 1                                         | MISSING_ORDERING_VALUE | ^
            UPDATE items SET ix = 1 WHERE nope = 2                         | UNKNOWN_COLUMN         | nope
            DELETE FROM items WHERE id = 1 AT (name = 'x')                 | INVALID_AT_CLAUSE      | name
            DELETE FROM items WHERE id = 1 AT (ix = 1)                     | MISSING_ORDERING_VALUE | ^
            DELETE FROM items WHERE id = 1 AT (ix = 1, ax = 1, ix = 2)     | DUPLICATE_NAME         | ix = 2
            DELETE FROM items WHERE nope = 1 AT (ix = 1, ax = 1)           | UNKNOWN_COLUMN         | nope
            UPDATE items SET ix = 4 WHERE id IN (SELECT nope FROM items)   | UNKNOWN_COLUMN         | nope
            UPDATE items SET ix = (SELECT max(ix) FROM nosuch)             | UNKNOWN_TABLE          | nosuch
            UPDATE items SET ix = 4 WHERE EXISTS (SELECT 1 FROM items AS o WHERE o.nope = 1) | UNKNOWN_COLUMN | o.nope
            UPDATE items SET ix = nosuchfn(1)                              | UNKNOWN_FUNCTION       | nosuchfn
            UPDATE items SET ix = count(*)                                 | AGGREGATE_MISPLACED    | count
            UPDATE items SET ix = row_number() OVER ()                     | AGGREGATE_MISPLACED    | row_number
            UPDATE items SET ix = 1 WHERE sum(ix) > 1                      | AGGREGATE_MISPLACED    | sum
            UPDATE items SET ix = 1 WHERE id IN (SELECT id, ix FROM items) | INVALID_EXPRESSION     | id IN
            UPDATE items SET ix = ? WHERE id = 1                           | PARAMETER_COUNT_MISMATCH | ?
            UPDATE items SET ix = 'abc' WHERE id = 1                       | INVALID_VALUE          | 'abc'
            UPDATE items SET ix = 1, price = '1,5' WHERE id = 1            | INVALID_VALUE          | '1,5'
            UPDATE rates SET rate = 'x' WHERE id = 1                       | INVALID_VALUE          | 'x'
            DELETE FROM items WHERE id IN (SELECT nope FROM items) AT (ix = 1, ax = 1) | UNKNOWN_COLUMN | nope
            DELETE FROM items WHERE id = (SELECT id FROM nosuch) AT (ix = 1, ax = 1) | UNKNOWN_TABLE | nosuch
            UPSERT INTO items (id, nope) VALUES (1, 2)                     | UNKNOWN_COLUMN         | nope
            UPSERT INTO items (id, ix, id) VALUES (1, 2, 3)                | DUPLICATE_NAME         | id) VALUES
            UPSERT INTO items (id, ix) VALUES (1)                          | COLUMN_COUNT_MISMATCH  | 1)
            UPSERT INTO items (id, ix, name, price) VALUES (1, 2, 'n', 'abc') | INVALID_VALUE          | 'abc'
            UPSERT INTO items (id, ix, name) VALUES (1, 'abc', 'n')        | INVALID_VALUE          | 'abc'
            UPSERT INTO items (id, ix, name) VALUES (1, 2, NULL)           | NOT_NULL_VIOLATION     | NULL
            UPSERT INTO items (id, ix) VALUES (NULL, 2)                    | MISSING_KEY_VALUE      | NULL
            UPSERT INTO items (id, a) VALUES (1, 2)                        | MISSING_ORDERING_VALUE | ^
            UPSERT INTO items (id, ix, a) VALUES (1, 2, 3) ATTRIBUTE GROUP nope | UNKNOWN_GROUP     | nope
            CREATE TABLE x (k INT PRIMARY KEY, v MONEY)                    | UNKNOWN_TYPE           | MONEY
            CREATE TABLE x (k INT PRIMARY KEY, v TEXT) VERSIONED VALID BY (v) | INVALID_ORDERING_COLUMN | v)
            ALTER TABLE items ADD COLUMN name TEXT                         | DUPLICATE_NAME         | name
            ALTER TABLE items ADD COLUMN note TEXT NOT NULL                | INVALID_ALTER          | note
            ALTER TABLE items ADD COLUMN note TEXT TO ATTRIBUTE GROUP nope | UNKNOWN_GROUP          | nope
            ALTER TABLE items ADD COLUMN n INT DEFAULT 'x'                 | INVALID_DEFAULT        | 'x'
            ALTER TABLE items DROP COLUMN id                               | INVALID_ALTER          | id
            ALTER TABLE items DROP COLUMN ax                               | INVALID_ALTER          | ax
            ALTER TABLE items DROP COLUMN nope                             | UNKNOWN_COLUMN         | nope
            ALTER TABLE items RENAME COLUMN name TO price                  | DUPLICATE_NAME         | price
            ALTER TABLE items RENAME COLUMN nope TO other                  | UNKNOWN_COLUMN         | nope
            ALTER TABLE items RENAME TO settings                           | TABLE_EXISTS           | settings
            ALTER TABLE items SET HISTORY RETENTION 5 COMMITS              | -                      | -
            ALTER TABLE settings SET HISTORY RETENTION 5 COMMITS           | UNSUPPORTED_FOR_MODE   | ^
            CREATE INDEX i ON items (price, nope) SCOPE BOTH               | UNKNOWN_COLUMN         | nope
            CREATE INDEX i ON items (price, price) SCOPE BOTH              | DUPLICATE_NAME         | price)
            CREATE UNIQUE INDEX i ON items (price) SCOPE HISTORY           | INVALID_DEFINITION     | ^
            CREATE INDEX i ON settings (value) SCOPE HISTORY               | NO_HISTORY             | ^
            DELETE HISTORY FROM settings BEFORE COMMIT 3                   | NO_HISTORY             | ^
            ERASE FROM items WHERE name = 'x'                              | INVALID_REQUEST        | name
            ERASE FROM items WHERE id = 'abc'                              | INVALID_VALUE          | ^
            ALTER TABLE rates DROP COLUMN row_start                        | PERIOD_COLUMN_ALTER    | row_start
            ALTER TABLE rates ADD COLUMN row_start TIMESTAMP               | DUPLICATE_NAME         | row_start
            """)
    void aBadStatementFailsWithItsCodeWhereItIsWrong(String text, String codeName, String at) {
        ErrorCode code = codeName.equals("-") ? null : ErrorCode.valueOf(codeName);
        VersoException.UserError error = catchThrowableOfType(VersoException.UserError.class, () -> analyse(text));
        if (code == null) {
            assertThat(error).as("accepted: " + text).isNull();
            return;
        }
        assertThat(error).as("refused: " + text).isNotNull();
        assertThat(error.code()).as(error.getMessage()).isEqualTo(code);
        int offset = at.equals("^") ? 0 : text.indexOf(at);
        assertThat(offset).as("'" + at + "' in the statement").isNotNegative();
        assertThat(error.origin()).as(error.getMessage()).isEqualTo(new Origin.Text(1, offset + 1));
    }

    /** A string an UPDATE assigns is refused in the words a VALUES row's is, without the row. */
    @Test
    void anUpdatesBadValueIsNamedAsAnInsertsIs() {
        assertThat(catchThrowableOfType(VersoException.UserError.class,
                () -> analyse("UPSERT INTO items (id, ix, name) VALUES (1, 'abc', 'n')")).getMessage())
                .isEqualTo("value 'abc' for column ix (INTEGER) in row 1 is not a valid INTEGER");
        assertThat(catchThrowableOfType(VersoException.UserError.class,
                () -> analyse("UPDATE items SET ix = 'abc' WHERE id = 1")).getMessage())
                .isEqualTo("value 'abc' for column ix (INTEGER) is not a valid INTEGER");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            UPDATE items SET name = upper(name), ix = ix + 1 WHERE price > 1
            UPDATE items SET ix = ' 5 ', price = '1.5e1', name = 'abc' WHERE id = '1'
            UPDATE rates SET rate = 'NaN' WHERE id = 1
            UPDATE items SET ix = 4 WHERE id IN (SELECT id FROM items)
            UPDATE items SET ix = (SELECT max(o.ix) FROM items AS o WHERE o.id = items.id) + 1
            DELETE FROM items WHERE id IN (SELECT id FROM items WHERE ix > 1) AT (ix = 3, ax = 4)
            DELETE FROM items WHERE id IN (1, 2) AT (ix = 3, ax = 4)
            UPSERT INTO items (id, ix, name, price) VALUES (1, 2, 'n', 3.50), (2, 2, 'm', NULL)
            UPSERT INTO items (id, a, ax) VALUES (1, 2, 3) ATTRIBUTE GROUP ga
            """)
    void aGoodStatementPasses(String text) {
        analyse(text);
    }

    private static void analyse(String text) {
        SqlParser.Script script = SqlParser.parse(text);
        List<Object> params = new ArrayList<>();
        for (Statement statement : script.statements()) {
            if (statement instanceof Statement.Update u && u.table().name().equals("rates")) {
                SystemTables.assignments(u, RATES);
            } else if (statement instanceof Statement.Update u) {
                WriteAnalyzer.update(u, ITEMS, WriteAnalyzerTests::known, new AsOfResolver(params, 100),
                        params.size());
            } else if (statement instanceof Statement.Delete d) {
                WriteAnalyzer.delete(d, ITEMS, WriteAnalyzerTests::known, new AsOfResolver(params, 100), params);
            } else if (statement instanceof Statement.InsertRows i) {
                var rows = WriteAnalyzer.rows(i, ITEMS, params);
                var groups = ITEMS.mode() == TableMode.APPEND ? List.<io.verso.catalog.GroupDef>of()
                        : WriteAnalyzer.touchedGroups(ITEMS, rows.get(0).values().keySet(), i.group());
                WriteAnalyzer.batches(ITEMS, rows, groups, false, 0, i.pos());
            } else if (statement instanceof Statement.CreateTable c) {
                DdlAnalyzer.createTable(c, 1);
            } else if (statement instanceof Statement.AddColumn a) {
                LifecycleAnalyzer.addColumn(a, lookup(a.table()));
            } else if (statement instanceof Statement.DropColumn d) {
                LifecycleAnalyzer.dropColumn(d, lookup(d.table()));
            } else if (statement instanceof Statement.RenameColumn r) {
                LifecycleAnalyzer.renameColumn(r, lookup(r.table()));
            } else if (statement instanceof Statement.RenameTable r) {
                LifecycleAnalyzer.renameTable(r, lookup(r.table()), List.of("settings", "rates").contains(r.to().name()));
            } else if (statement instanceof Statement.SetRetention r) {
                LifecycleAnalyzer.setRetention(r, lookup(r.table()));
            } else if (statement instanceof Statement.CreateIndex c) {
                LifecycleAnalyzer.createIndex(c, lookup(c.table()));
            } else if (statement instanceof Statement.DeleteHistory d) {
                LifecycleAnalyzer.deleteHistory(d, lookup(d.table()));
            } else if (statement instanceof Statement.Erase e) {
                LifecycleAnalyzer.erase(e, lookup(e.table()), params);
            } else {
                throw new IllegalArgumentException(statement.getClass().getSimpleName());
            }
        }
    }
}
