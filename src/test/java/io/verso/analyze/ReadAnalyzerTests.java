package io.verso.analyze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.Origin;
import io.verso.error.VersoException;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The analysis of reads against an in-memory catalog, without a database (latest commit 100): each
 * bad SELECT fails with its code at the line and column of the part at fault. {@code at} names that
 * part by its first occurrence in the text; a statement on two lines shows the line counts too.
 */
class ReadAnalyzerTests {

    private static final Map<String, TableDef> CATALOG = Map.of(
            "items", table(1, "CREATE TABLE items (id BIGINT PRIMARY KEY, name TEXT, price NUMERIC(12,2), ix INT) "
                    + "VERSIONED VALID BY (ix)"),
            "settings", table(2, "CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT) UPSERT"),
            "events", table(3, "CREATE TABLE events (at TIMESTAMPTZ, kind TEXT, body JSONB) APPEND"),
            "flags", table(4, "CREATE TABLE flags (id INT PRIMARY KEY, ok BOOLEAN, u UUID) VERSIONED"),
            "days", table(5, "CREATE TABLE days (id INT PRIMARY KEY, d DATE, ts TIMESTAMP) VERSIONED"));

    private static TableDef table(long id, String ddl) {
        TableDef t = DdlAnalyzer.createTable((Statement.CreateTable) SqlParser.parse(ddl).statements().get(0), 1);
        return new TableDef(id, t.name(), t.mode(), t.columns(), t.groups(), 0, 1);
    }

    private static TableDef lookup(Ident name) {
        TableDef table = CATALOG.get(name.name());
        if (table == null) {
            throw VersoException.at(ErrorCode.UNKNOWN_TABLE, "unknown table '" + name.name() + "'", name.pos());
        }
        return table;
    }

    /** The catalog, and its system relations as a caller that may see every table of it. */
    private static final TableLookup LOOKUP = new TableLookup() {
        @Override
        public TableDef table(Ident name) {
            return lookup(name);
        }

        @Override
        public java.util.Optional<SystemRelation> system(Ident schema, Ident name) {
            return SystemSchemas.relation(schema.name(), name.name(), new SystemSchemas.Visible() {
                @Override
                public String database() {
                    return "verso";
                }

                @Override
                public List<TableDef> tables() {
                    return CATALOG.values().stream().sorted(java.util.Comparator.comparing(TableDef::name)).toList();
                }

                @Override
                public List<SystemSchemas.View> views() {
                    return List.of();
                }
            });
        }
    };

    @ParameterizedTest(name = "{1}: {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            SELECT nope FROM items                                         | UNKNOWN_COLUMN         | nope
            SELECT * FROM nope                                             | UNKNOWN_TABLE          | nope
            SELECT i.id FROM items i JOIN events e ON e.nope = i.id        | UNKNOWN_COLUMN         | e.nope
            SELECT name FROM items, settings                               | AMBIGUOUS_COLUMN       | name
            SELECT _commit FROM items                                      | UNKNOWN_COLUMN         | _commit
            SELECT nosuch(id) FROM items                                   | UNKNOWN_FUNCTION       | nosuch
            SELECT name, count(*) FROM items                               | COLUMN_NOT_GROUPED     | name
            SELECT id FROM items WHERE count(*) > 1                        | AGGREGATE_MISPLACED    | count
            SELECT id FROM items UNION SELECT id, name FROM items          | SET_OPERATION_MISMATCH | UNION
            SELECT * FROM items LIMIT -1                                   | INVALID_LIMIT          | -1
            SELECT * FROM settings AS OF COMMIT 5                          | AS_OF_NOT_SUPPORTED    | AS OF
            SELECT * FROM history(settings)                                | NO_HISTORY             | history
            SELECT * FROM items AS OF COMMIT 0                             | AS_OF_NOT_POSITIVE     | AS OF
            SELECT * FROM items AS OF COMMIT 101                           | AS_OF_BEYOND_LATEST    | AS OF
            SELECT * FROM items AS OF COMMIT 'x'                           | AS_OF_NOT_INTEGER      | AS OF
            SELECT * FROM items AS OF TIMESTAMP nosuchfn()                 | UNKNOWN_FUNCTION       | nosuchfn
            SELECT * FROM items AS OF TIMESTAMP now(1)                     | INVALID_EXPRESSION     | now
            SELECT * FROM items AS OF TIMESTAMP max(1)                     | AGGREGATE_MISPLACED    | max
            SELECT * FROM items FOR SYSTEM_TIME AS OF nosuchfn()           | UNKNOWN_FUNCTION       | nosuchfn
            SELECT * FROM items AS OF COMMIT 5 i JOIN settings s ON s.name = i.name WHERE i.id = 1 AS OF COMMIT 7 | AS_OF_NOT_SUPPORTED | AS OF COMMIT 7
            "SELECT id\nFROM items\nWHERE nope = 1"                        | UNKNOWN_COLUMN         | nope
            SELECT 'a' + 1                                                 | INVALID_VALUE          | 'a'
            SELECT id FROM items WHERE price > 'abc'                       | INVALID_VALUE          | 'abc'
            SELECT id FROM items WHERE ix IN (1, '2', 'x')                 | INVALID_VALUE          | 'x'
            SELECT NOT ix FROM items                                       | TYPE_MISMATCH          | ix
            SELECT ok FROM flags WHERE ok AND id                           | TYPE_MISMATCH          | id
            SELECT id FROM flags WHERE ok OR 1                             | TYPE_MISMATCH          | 1
            SELECT sum(name) FROM items                                    | TYPE_MISMATCH          | name)
            SELECT avg(ok) FROM flags                                      | TYPE_MISMATCH          | ok)
            SELECT name, sum(price) FROM items GROUP BY name HAVING sum(name) > 1 | TYPE_MISMATCH | name) >
            SELECT id FROM flags WHERE ok = 'maybe'                        | INVALID_VALUE          | 'maybe'
            SELECT id FROM flags WHERE ok = 'o'                            | INVALID_VALUE          | 'o'
            SELECT id FROM flags WHERE u = 'zz'                            | INVALID_VALUE          | 'zz'
            SELECT id FROM flags WHERE u IN ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1')  | INVALID_VALUE | 'a0eebc99
            SELECT CAST('x' AS BOOLEAN)                                    | INVALID_VALUE          | 'x'
            SELECT id FROM items WHERE ix BETWEEN 'a' AND 5                | INVALID_VALUE          | 'a'
            SELECT CAST('x' AS INT)                                        | INVALID_VALUE          | 'x'
            SELECT abs('1,5')                                              | INVALID_VALUE          | '1,5'
            SELECT name + 1 FROM items                                     | TYPE_MISMATCH          | name
            SELECT id FROM items WHERE name > 5                            | TYPE_MISMATCH          | 5
            SELECT id FROM items WHERE id = DATE '2026-01-01'              | TYPE_MISMATCH          | DATE
            SELECT abs(name) FROM items                                    | TYPE_MISMATCH          | name)
            SELECT upper(price) FROM items                                 | TYPE_MISMATCH          | price)
            SELECT id FROM items WHERE (SELECT 1) = 1 AND -price < 'x'     | INVALID_VALUE          | 'x'
            "SELECT id FROM items\nUNION SELECT kind FROM events AS OF COMMIT 200" | AS_OF_BEYOND_LATEST | AS OF
            SELECT coalesce(ix, 'abc') FROM items                          | INVALID_VALUE          | 'abc'
            SELECT coalesce(ix, name) FROM items                           | TYPE_MISMATCH          | name)
            SELECT nullif(price, 'x') FROM items                           | INVALID_VALUE          | 'x'
            SELECT nullif(ix, name) FROM items                             | TYPE_MISMATCH          | name)
            SELECT greatest(ix, ok) FROM items, flags                      | TYPE_MISMATCH          | ok)
            SELECT least('x', 1)                                           | INVALID_VALUE          | 'x'
            SELECT id FROM items WHERE coalesce(ix, 0) = 'z'               | INVALID_VALUE          | 'z'
            SELECT CASE WHEN ix > 0 THEN 1 ELSE 'x' END FROM items         | INVALID_VALUE          | 'x'
            SELECT CASE WHEN true THEN true ELSE 1 END                     | TYPE_MISMATCH          | 1 END
            SELECT CASE WHEN ok THEN u ELSE id END FROM flags              | TYPE_MISMATCH          | id END
            SELECT CASE ix WHEN 'y' THEN 1 END FROM items                  | INVALID_VALUE          | 'y'
            SELECT CASE WHEN ix THEN 1 END FROM items                      | TYPE_MISMATCH          | ix THEN
            SELECT id FROM days WHERE d = 'not a date'                     | INVALID_VALUE          | 'not
            SELECT CAST('2024-13-45' AS DATE)                              | INVALID_VALUE          | '2024
            SELECT id FROM days WHERE ts > 'yesterdayish'                  | INVALID_VALUE          | 'yesterdayish'
            SELECT kind FROM events WHERE at BETWEEN 'today' AND ''        | INVALID_VALUE          | ''
            SELECT id FROM days WHERE d IN ('2024-01-02', '2023-02-29')    | INVALID_VALUE          | '2023
            SELECT DATE 'x'                                                | INVALID_VALUE          | DATE
            SELECT TIMESTAMP '2024-02-30 10:00'                            | INVALID_VALUE          | TIMESTAMP
            SELECT coalesce(d, 'soon') FROM days                           | INVALID_VALUE          | 'soon'
            SELECT ix FROM items WHERE ix IN (SELECT name FROM items)      | TYPE_MISMATCH          | name FROM
            SELECT ix FROM items WHERE ix = ANY (SELECT kind FROM events)  | TYPE_MISMATCH          | kind
            SELECT ix FROM items WHERE ix IN (SELECT '5')                  | TYPE_MISMATCH          | '5'
            SELECT ix FROM items WHERE 'abc' IN (SELECT price FROM items)  | INVALID_VALUE          | 'abc'
            SELECT ix FROM items WHERE ix = (SELECT name FROM settings)    | TYPE_MISMATCH          | (SELECT
            SELECT ix FROM items WHERE (SELECT name FROM settings) + 1 > 2 | TYPE_MISMATCH          | (SELECT
            SELECT substring(ix, 1, 2) FROM items                          | TYPE_MISMATCH          | ix,
            SELECT substring(ix FROM 1 FOR 2) FROM items                   | TYPE_MISMATCH          | ix FROM
            SELECT position('a' IN price) FROM items                       | TYPE_MISMATCH          | price)
            SELECT trim(BOTH ix FROM name) FROM items                      | TYPE_MISMATCH          | ix FROM
            SELECT trim(name, ix) FROM items                               | TYPE_MISMATCH          | ix)
            SELECT left(name, 'x') FROM items                              | INVALID_VALUE          | 'x'
            SELECT left(name, price) FROM items                            | TYPE_MISMATCH          | price)
            SELECT lpad(name, 3, ix) FROM items                            | TYPE_MISMATCH          | ix)
            SELECT replace(name, ix, 'x') FROM items                       | TYPE_MISMATCH          | ix,
            SELECT length(body) FROM events                                | TYPE_MISMATCH          | body)
            SELECT extract(year FROM ix) FROM items                        | TYPE_MISMATCH          | ix)
            SELECT * FROM information_schema.nope                          | UNKNOWN_TABLE          | nope
            SELECT * FROM public.items                                     | SCHEMA_QUALIFIED_NAME  | public
            SELECT * FROM history(information_schema.tables)               | SCHEMA_QUALIFIED_NAME  | information_schema
            SELECT * FROM information_schema.tables AS OF COMMIT 5         | AS_OF_NOT_SUPPORTED    | AS OF
            SELECT nope FROM information_schema.columns                    | UNKNOWN_COLUMN         | nope
            SELECT * FROM tables                                           | UNKNOWN_TABLE          | tables
            SELECT generate_series(1, 3)                                   | AGGREGATE_MISPLACED    | generate_series
            SELECT current_setting('nope')                                 | INVALID_EXPRESSION     | 'nope'
            SELECT * FROM count(1) AS c                                    | AGGREGATE_MISPLACED    | count
            SELECT * FROM generate_series(1, 3) AS g(a, b)                 | COLUMN_COUNT_MISMATCH  | generate_series
            """)
    void aBadReadFailsWithItsCodeWhereItIsWrong(String text, String codeName, String at) {
        String statement = text.replace("\\n", "\n");
        VersoException.UserError error = catchThrowableOfType(VersoException.UserError.class, () -> analyse(statement));
        assertThat(error).as("refused: " + statement).isNotNull();
        assertThat(error.code()).as(error.getMessage()).isEqualTo(ErrorCode.valueOf(codeName));
        int offset = statement.indexOf(at);
        assertThat(offset).as("'" + at + "' in the statement").isNotNegative();
        int line = (int) statement.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
        int column = offset - statement.lastIndexOf('\n', offset - 1);
        assertThat(error.origin()).as(error.getMessage()).isEqualTo(new Origin.Text(line, column));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            SELECT i.name, s.value FROM items AS OF COMMIT 5 i LEFT JOIN settings s ON s.name = i.name
            SELECT name, count(*) FROM items GROUP BY name HAVING count(*) > 1 ORDER BY 2 DESC
            SELECT _group, _commit, _deleted FROM history(items) WHERE id = 1
            SELECT kind FROM events AS OF COMMIT 100 UNION SELECT name FROM items
            SELECT id FROM items WHERE price > '1.5' AND ix = ' 12 ' AND name = 'x' AND price < 'NaN'
            SELECT price * 2 + ix, CAST('12' AS INT), upper(name), abs(-price) FROM items
            SELECT at FROM events WHERE at > '2026-01-01' AND kind = 'x' AND at > DATE '2026-01-01'
            SELECT x.v + 1 FROM (SELECT name AS v FROM items) AS x
            SELECT id FROM flags WHERE ok = 't' AND ok <> 'Off' AND ok = ' yes ' AND ok = '0' AND NOT ok AND (ok OR NULL)
            SELECT id FROM flags WHERE u = '{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}' OR u = 'a0eebc999c0b4ef8bb6d6bb9bd380a11'
            SELECT sum(ix), avg(price), sum(CAST(name AS INT)), count(name), max(name) FROM items
            SELECT coalesce(ix, 0), coalesce(name, 'x'), coalesce(ix, '5'), coalesce(ix, price, 1.5), nullif(ix, '3'), greatest(ix, NULL, '7'), least(price, ix) FROM items
            SELECT CASE WHEN ix > 0 THEN 1 ELSE NULL END, CASE WHEN ix > 0 THEN 1 ELSE '5' END, CASE WHEN ix > 0 THEN 'a' ELSE 'b' END, CASE ix WHEN '1' THEN price ELSE 2 END, CASE WHEN ix = 1 THEN name ELSE 'x' END FROM items
            SELECT coalesce(at, '2026-01-01'), greatest(at, DATE '2026-01-01'), CASE WHEN true THEN at ELSE 'today' END FROM events
            SELECT coalesce(d, ts, 'now'), CASE WHEN d > ts THEN d ELSE ts END FROM days
            SELECT CASE WHEN ok THEN 't' ELSE ok END, coalesce(u, '{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}') FROM flags
            SELECT id FROM days WHERE d = 'today' AND d > 'yesterday' AND d < 'tomorrow' AND ts >= 'epoch' AND ts < 'infinity' AND d > '-infinity' AND ts < 'now' AND ts = 'allballs today' AND d = ' TODAY ' AND d = 'now()'
            SELECT id FROM days WHERE ts = '2024-01-02 03:04:05+02' AND d = 'Jan 2 2024' AND d = '20240102' AND ts = '2024-01-02T03:04:05' AND d = '2024-1-2' AND d = '12/31/2024' AND ts = '2024-01-02 03:04:05 PST' AND d = '2024-02-29' AND d = 'J2451187' AND d = '0001-02-29 BC'
            SELECT CAST('2024-01-02' AS DATE), CAST('today' AS TIMESTAMP), TIMESTAMPTZ '2024-01-02 03:04:05Z', ts + '1 day', ts - 'yesterday' FROM days
            SELECT ix FROM items WHERE ix IN (SELECT id FROM items) AND price = (SELECT ix FROM items) AND name IN (SELECT kind FROM events) AND '5' IN (SELECT ix FROM items) AND ix IN (SELECT x.v FROM (SELECT ix AS v FROM items) AS x) AND ix IN (SELECT max(ix) FROM items) AND ix IN (SELECT ix FROM items UNION SELECT id FROM items) AND name = (SELECT 'x') AND price > ALL (SELECT ix FROM items)
            SELECT kind FROM events WHERE at IN (SELECT d FROM days)
            SELECT t.table_name, count(*) FROM information_schema.tables t JOIN information_schema.columns c USING (table_name) WHERE t.table_name IN (SELECT table_name FROM information_schema.key_column_usage) GROUP BY t.table_name
            SELECT trim(s[i]), user, quote_ident(name) FROM generate_series(1, 2) AS i, string_to_array(current_setting('search_path'), ',') s, items
            SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'
            SELECT (parse_ident('a.b'))[1], array_length(parse_ident('a'), 1), g FROM generate_series(1, 3) g
            SELECT split_part(name, ',', '2'), substring(name, 2), substring(name FROM 'a.' FOR 'b'), substring(name, 'x'), left(name, '2'), lpad(name, 5, 'x'), position('a' IN name), trim(name), trim(LEADING 'x' FROM name), extract(year FROM at), length(kind), upper(kind) FROM items, events
            """)
    void aGoodReadPasses(String text) {
        analyse(text);
    }

    private static void analyse(String text) {
        SqlParser.Script script = SqlParser.parse(text);
        List<Object> params = new ArrayList<>();
        AsOfResolver asOf = new AsOfResolver(params, 100);
        for (Statement statement : script.statements()) {
            ReadAnalyzer.select((Statement.Select) statement, LOOKUP, asOf, params.size());
        }
    }
}
