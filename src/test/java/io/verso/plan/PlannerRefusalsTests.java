package io.verso.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.verso.analyze.AsOfResolver;
import io.verso.analyze.CheckConstraints;
import io.verso.analyze.DdlAnalyzer;
import io.verso.analyze.LifecycleAnalyzer;
import io.verso.analyze.SystemTables;
import io.verso.analyze.ValuesExpressions;
import io.verso.analyze.WriteAnalyzer;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Privilege;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Statement;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.aggregator.ArgumentsAccessor;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every refusal the parser, the analyzers and the planner make from statement text alone, with its code and the
 * line:column a user sees, against the in-memory {@link PlanCatalog}: no database, no Spring. A statement the
 * planner passes on whole ({@link Plan.Direct}: DDL, INSERT ... VALUES, writes of APPEND and system-versioned
 * tables) is checked as the engine checks it before it runs anything ({@link #checkedAsTheEngineDoes}).
 * Refusals that need data, or only arise from REST and GraphQL requests, are tested over HTTP.
 */
class PlannerRefusalsTests {

    private final PlanCatalog catalog = new PlanCatalog();

    /**
     * A statement and its refusal: the code, and {@code line:column} of the offending text ({@code 0:0} where no
     * text is at fault); parameters, if any, separated by {@code ;}. The latest commit is 100; people's history
     * before commit 10 is deleted.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        SELECT * FROM items WHERE id = = 1                                                               | SYNTAX_ERROR                   | 1:32
        SELECT "" FROM items                                                                             | SYNTAX_ERROR                   | 1:8
        ;                                                                                                | EMPTY_STATEMENT                | 0:0
        SELECT * FROM aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa                   | NAME_TOO_LONG                  | 1:15
        SELECT * FROM public.items                                                                       | SCHEMA_QUALIFIED_NAME          | 1:15
        SELECT * FROM pg_catalog.pg_class                                                                | UNKNOWN_TABLE                  | 1:26
        SELECT a.b.c FROM items                                                                          | SCHEMA_QUALIFIED_NAME          | 1:8
        SELECT * FROM pg_class                                                                           | UNKNOWN_TABLE                  | 1:15
        SELECT * FROM items AS OF COMMIT 1 AS OF COMMIT 2                                                | AS_OF_DUPLICATE                | 1:36
        SELECT * FROM ledger FOR SYSTEM_TIME ALL AS OF COMMIT 1                                          | AS_OF_DUPLICATE                | 1:42
        SELECT * FROM items AS OF COMMIT 1.5                                                             | AS_OF_NOT_INTEGER              | 1:21
        SELECT * FROM items AS OF COMMIT 'x'                                                             | AS_OF_NOT_INTEGER              | 1:21
        SELECT * FROM items AS OF COMMIT ?                                                               | AS_OF_NOT_INTEGER              | 1:21  | abc
        SELECT * FROM items AS OF COMMIT ?                                                               | AS_OF_NOT_INTEGER              | 1:21  | 2.5
        SELECT * FROM items AS OF COMMIT 0                                                               | AS_OF_NOT_POSITIVE             | 1:21
        SELECT * FROM items AS OF COMMIT -3                                                              | AS_OF_NOT_POSITIVE             | 1:21
        SELECT * FROM items AS OF COMMIT ?                                                               | AS_OF_NOT_POSITIVE             | 1:21  | 0
        SELECT * FROM items AS OF COMMIT 101                                                             | AS_OF_BEYOND_LATEST            | 1:21
        SELECT * FROM items AS OF COMMIT 99999999999999999999                                            | AS_OF_BEYOND_LATEST            | 1:21
        SELECT * FROM items AS OF COMMIT ?                                                               | AS_OF_BEYOND_LATEST            | 1:21  | 99999999999999999999
        SELECT * FROM people AS OF COMMIT 5                                                              | AS_OF_BEFORE_HORIZON           | 1:22
        SELECT * FROM settings AS OF COMMIT 1                                                            | AS_OF_NOT_SUPPORTED            | 1:24
        SELECT * FROM items AS OF TIMESTAMP name                                                         | INVALID_EXPRESSION             | 1:37
        SELECT * FROM items AS OF TIMESTAMP max(now())                                                   | AGGREGATE_MISPLACED            | 1:37
        SELECT * FROM history(settings)                                                                  | NO_HISTORY                     | 1:15
        SELECT * FROM changes(ledger)                                                                    | NO_HISTORY                     | 1:15
        SELECT * FROM ledger FOR SYSTEM_TIME AS OF TRANSACTION 5                                         | NOT_SUPPORTED                  | 1:22
        SELECT * FROM settings FOR SYSTEM_TIME ALL                                                       | NOT_SYSTEM_VERSIONED           | 1:24
        SELECT * FROM items FOR SYSTEM_TIME ALL                                                          | NOT_SYSTEM_VERSIONED           | 1:21
        SELECT * FROM (SELECT 1 AS x) FOR SYSTEM_TIME ALL AS q                                           | NOT_SYSTEM_VERSIONED           | 1:31
        SELECT * FROM ledger FOR SYSTEM_TIME AS OF id                                                    | INVALID_EXPRESSION             | 1:44
        EXPLAIN EXPLAIN SELECT 1                                                                         | NOT_SUPPORTED                  | 1:9
        SELECT nope FROM items                                                                           | UNKNOWN_COLUMN                 | 1:8
        SELECT i.nope FROM items i                                                                       | UNKNOWN_COLUMN                 | 1:8
        SELECT x.id FROM items i                                                                         | UNKNOWN_TABLE                  | 1:8
        SELECT x.* FROM items i                                                                          | UNKNOWN_TABLE                  | 1:8
        SELECT name FROM items JOIN settings ON true                                                     | AMBIGUOUS_COLUMN               | 1:8
        SELECT * FROM items i JOIN settings i ON true                                                    | DUPLICATE_NAME                 | 1:28
        SELECT * FROM items JOIN settings USING (id)                                                     | UNKNOWN_COLUMN                 | 1:42
        SELECT nope(1)                                                                                   | UNKNOWN_FUNCTION               | 1:8
        SELECT pg_sleep(1) FROM items                                                                    | UNKNOWN_FUNCTION               | 1:8
        SELECT abs(1, 2)                                                                                 | INVALID_EXPRESSION             | 1:8
        SELECT sum(*) FROM items                                                                         | INVALID_EXPRESSION             | 1:8
        SELECT lower(DISTINCT name) FROM items                                                           | INVALID_EXPRESSION             | 1:8
        SELECT percentile_cont(0.5) FROM items                                                           | INVALID_EXPRESSION             | 1:8
        SELECT lower(name) WITHIN GROUP (ORDER BY name) FROM items                                       | INVALID_EXPRESSION             | 1:8
        SELECT row_number() FROM items                                                                   | INVALID_EXPRESSION             | 1:8
        SELECT lower(name) OVER () FROM items                                                            | INVALID_EXPRESSION             | 1:8
        SELECT EXTRACT(fortnight FROM now())                                                             | INVALID_EXPRESSION             | 1:8
        SELECT *                                                                                         | INVALID_EXPRESSION             | 1:8
        SELECT id FROM items WHERE id = (SELECT id, name FROM items)                                     | INVALID_EXPRESSION             | 1:33
        SELECT id FROM items WHERE id IN (SELECT id, name FROM items)                                    | INVALID_EXPRESSION             | 1:28
        SELECT id FROM items UNION SELECT id FROM items ORDER BY price                                   | INVALID_EXPRESSION             | 1:58
        WITH RECURSIVE r (n) AS (SELECT 1 UNION SELECT n + 1 FROM r LIMIT 3) SELECT * FROM r             | INVALID_EXPRESSION             | 1:26
        SELECT id, name FROM items ORDER BY 3                                                            | INVALID_EXPRESSION             | 1:37
        SELECT id FROM items UNION SELECT id, name FROM items                                            | SET_OPERATION_MISMATCH         | 1:22
        WITH RECURSIVE r (n) AS (SELECT 1 UNION SELECT n, n FROM r) SELECT * FROM r                      | SET_OPERATION_MISMATCH         | 1:35
        WITH RECURSIVE r (n) AS (SELECT 1 UNION SELECT n + 1 FROM r AS OF COMMIT 1) SELECT * FROM r      | AS_OF_NOT_SUPPORTED            | 1:61
        WITH a AS (SELECT 1), a AS (SELECT 2) SELECT * FROM a                                            | DUPLICATE_NAME                 | 1:23
        SELECT count(*) OVER w FROM items WINDOW w AS (), w AS ()                                        | DUPLICATE_NAME                 | 1:51
        SELECT count(*) OVER w FROM items                                                                | UNKNOWN_COLUMN                 | 1:22
        SELECT count(*) OVER (v) FROM items WINDOW w AS ()                                               | UNKNOWN_COLUMN                 | 1:23
        SELECT * FROM (SELECT 1 AS x) AS q (a, b)                                                        | COLUMN_COUNT_MISMATCH          | 1:15
        SELECT id, count(*) FROM items                                                                   | COLUMN_NOT_GROUPED             | 1:8
        SELECT *, count(*) FROM items                                                                    | COLUMN_NOT_GROUPED             | 1:8
        SELECT id FROM items WHERE count(*) > 1                                                          | AGGREGATE_MISPLACED            | 1:28
        SELECT id FROM items WHERE row_number() OVER () > 1                                              | AGGREGATE_MISPLACED            | 1:28
        SELECT id FROM items GROUP BY sum(id)                                                            | AGGREGATE_MISPLACED            | 1:31
        SELECT id FROM items LIMIT -1                                                                    | INVALID_LIMIT                  | 1:28
        SELECT id FROM items LIMIT 'x'                                                                   | INVALID_LIMIT                  | 1:28
        SELECT id FROM items LIMIT ?                                                                     | INVALID_LIMIT                  | 1:28  | -2
        SELECT id FROM items OFFSET ?                                                                    | INVALID_LIMIT                  | 1:29  | x
        SELECT id FROM items WHERE id = ?                                                                | PARAMETER_COUNT_MISMATCH       | 1:33
        SELECT id FROM items WHERE name > 5                                                              | TYPE_MISMATCH                  | 1:35
        SELECT id FROM items WHERE name AND true                                                         | TYPE_MISMATCH                  | 1:28
        SELECT name + 1 FROM items                                                                       | TYPE_MISMATCH                  | 1:8
        SELECT abs(name) FROM items                                                                      | TYPE_MISMATCH                  | 1:12
        SELECT id FROM items WHERE id IN (1, 2.5, true)                                                  | TYPE_MISMATCH                  | 1:43
        SELECT id FROM items WHERE name IN (SELECT id FROM items)                                        | TYPE_MISMATCH                  | 1:44
        SELECT id FROM items WHERE price = 'abc'                                                         | INVALID_VALUE                  | 1:36
        SELECT * FROM events WHERE at > 'x'                                                              | INVALID_VALUE                  | 1:33
        SELECT CAST(id AS money) FROM items                                                              | UNKNOWN_TYPE                   | 1:19
        SELECT id::numeric(99999999999) FROM items                                                       | UNKNOWN_TYPE                   | 1:20
        INSERT INTO items (id) SELECT id FROM  nowhere                                                   | UNKNOWN_TABLE                  | 1:40
        INSERT INTO items (id, name) SELECT id FROM items                                                | COLUMN_COUNT_MISMATCH          | 1:30
        INSERT INTO items (id, nope) SELECT id, name FROM items                                          | UNKNOWN_COLUMN                 | 1:24
        INSERT INTO items (id, id) SELECT id, id FROM items                                              | DUPLICATE_NAME                 | 1:24
        UPSERT INTO events SELECT at, kind, body FROM events                                             | UNSUPPORTED_FOR_MODE           | 1:1
        UPDATE items SET nope = 1, ix = 2 WHERE id = 1                                                   | UNKNOWN_COLUMN                 | 1:18
        UPDATE items SET id = 2, ix = 2                                                                  | INVALID_ASSIGNMENT             | 1:18
        UPDATE items SET ix = 1, ix = 2                                                                  | DUPLICATE_NAME                 | 1:26
        UPDATE items SET name = 'x' WHERE id = 1                                                         | MISSING_ORDERING_VALUE         | 1:1
        UPDATE people SET city = 'x' WHERE id = 1                                                        | MISSING_ORDERING_VALUE         | 1:1
        UPDATE items SET price = 'abc', ix = 1                                                           | INVALID_VALUE                  | 1:26
        UPDATE ledger SET amount = DEFAULT                                                               | NOT_NULL_VIOLATION             | 1:28
        UPDATE settings SET value = (SELECT name FROM nowhere)                                           | UNKNOWN_TABLE                  | 1:47
        UPDATE settings SET value = nope WHERE name = 'a'                                                | UNKNOWN_COLUMN                 | 1:29
        UPDATE settings SET value = count(*)                                                             | AGGREGATE_MISPLACED            | 1:29
        UPDATE settings SET value = 'x' WHERE count(*) > 1                                               | AGGREGATE_MISPLACED            | 1:39
        DELETE FROM items WHERE id = 1                                                                   | MISSING_ORDERING_VALUE         | 1:1
        DELETE FROM items WHERE id = 1 AT (nope = 1)                                                     | UNKNOWN_COLUMN                 | 1:36
        DELETE FROM items WHERE id = 1 AT (price = 1, ix = 1)                                            | INVALID_AT_CLAUSE              | 1:36
        DELETE FROM items WHERE id = 1 AT (ix = 1, ix = 2)                                               | DUPLICATE_NAME                 | 1:44
        DELETE FROM items WHERE nope = 1 AT (ix = 1)                                                     | UNKNOWN_COLUMN                 | 1:25
        DELETE FROM items WHERE id = 1 AT (ix = name)                                                    | INVALID_VALUE                  | 1:41
        DELETE FROM events WHERE kind = 'x' AT (at = 1)                                                  | INVALID_AT_CLAUSE              | 1:41
        DELETE FROM ledger WHERE id = 1 AT (id = 1)                                                      | INVALID_AT_CLAUSE              | 1:37
        UPDATE ledger SET row_start = now()                                                              | PERIOD_COLUMN_WRITE            | 1:19
        UPDATE ledger SET amount = NULL                                                                  | NOT_NULL_VIOLATION             | 1:28
        UPDATE ledger SET nope = 1                                                                       | UNKNOWN_COLUMN                 | 1:19
        UPDATE ledger SET amount = 1, amount = 2                                                         | DUPLICATE_NAME                 | 1:31
        UPDATE events SET nope = 1                                                                       | UNKNOWN_COLUMN                 | 1:19
        INSERT INTO items (id, nope) VALUES (1, 2)                                                       | UNKNOWN_COLUMN                 | 1:24
        INSERT INTO items (id, id) VALUES (1, 2)                                                         | DUPLICATE_NAME                 | 1:24
        INSERT INTO items (id, ix) VALUES (1, 2), (3)                                                    | COLUMN_COUNT_MISMATCH          | 1:44
        INSERT INTO items (id, ix) VALUES (1, 2, 3)                                                      | COLUMN_COUNT_MISMATCH          | 1:36
        INSERT INTO items (id, ix) VALUES (1, name)                                                      | INVALID_EXPRESSION             | 1:39
        INSERT INTO items (id, ix) VALUES (1, (SELECT 1))                                                | INVALID_EXPRESSION             | 1:39
        INSERT INTO items (id, ix) VALUES (1, count(*))                                                  | INVALID_EXPRESSION             | 1:39
        INSERT INTO items (id, ix) VALUES (1, INTERVAL '1 day')                                          | INVALID_VALUE                  | 1:39
        INSERT INTO items (id, ix) VALUES ('one', 2)                                                     | INVALID_VALUE                  | 1:36
        INSERT INTO items (id, ix) VALUES (1, 3000000000)                                                | INVALID_VALUE                  | 1:39
        INSERT INTO items (id, ix) VALUES (NULL, 2)                                                      | MISSING_KEY_VALUE              | 1:36
        INSERT INTO items (name, ix) VALUES ('a', 2)                                                     | MISSING_KEY_VALUE              | 1:1
        INSERT INTO items (id, name) VALUES (1, 'a')                                                     | MISSING_ORDERING_VALUE         | 1:1
        INSERT INTO items (id, ix) VALUES (1, NULL)                                                      | MISSING_ORDERING_VALUE         | 1:39
        INSERT INTO items (id, name, ix) VALUES (1, NULL, 2)                                             | NOT_NULL_VIOLATION             | 1:45
        UPSERT INTO people (id, city, moved) VALUES (1, 'x', '2026-01-01') ATTRIBUTE GROUP nope          | UNKNOWN_GROUP                  | 1:84
        UPSERT INTO people (id, name, city, moved) VALUES (1, 'a', 'x', '2026-01-01') ATTRIBUTE GROUP home | COLUMN_NOT_IN_GROUP            | 1:95
        UPSERT INTO people (id, city) VALUES (1, 'x') ATTRIBUTE GROUP home                               | MISSING_ORDERING_VALUE         | 1:1
        UPSERT INTO people (id, city, moved) VALUES (1, 'x', 'yesterday-ish')                            | INVALID_VALUE                  | 1:54
        UPSERT INTO events VALUES (now(), 'k', NULL)                                                     | UNSUPPORTED_FOR_MODE           | 1:1
        INSERT INTO ledger (id, row_start) VALUES (1, now())                                             | PERIOD_COLUMN_WRITE            | 1:25
        UPSERT INTO ledger VALUES (1, 2)                                                                 | UNSUPPORTED_FOR_MODE           | 1:1
        INSERT INTO ledger (id) VALUES (1)                                                               | NOT_NULL_VIOLATION             | 1:1
        CREATE TABLE t (k INT PRIMARY KEY, v INT PRIMARY KEY)                                            | INVALID_DEFINITION             | 1:36
        CREATE TABLE t (k INT PRIMARY KEY, v INT, PRIMARY KEY (v))                                       | INVALID_DEFINITION             | 1:43
        CREATE TABLE t (k INT PRIMARY KEY, v INT) VERSIONED VALID BY (v) VALID BY (v)                    | INVALID_DEFINITION             | 1:66
        CREATE TABLE t (k INT PRIMARY KEY, s TIMESTAMP(6), e TIMESTAMP(6), PERIOD FOR SYSTEM_TIME (s, e)) | INVALID_DEFINITION             | 1:68
        CREATE TABLE t (k INT PRIMARY KEY, a DATE, b DATE, PERIOD FOR app (a, b))                        | NOT_SUPPORTED                  | 1:52
        CREATE TABLE t (k INT, v MONEY)                                                                  | UNKNOWN_TYPE                   | 1:26
        CREATE TABLE t (k NUMERIC(99999999999))                                                          | UNKNOWN_TYPE                   | 1:27
        CREATE TABLE t (k INT PRIMARY KEY, v INT, V TEXT)                                                | DUPLICATE_NAME                 | 1:43
        CREATE TABLE t (k INT PRIMARY KEY, _commit INT)                                                  | RESERVED_NAME                  | 1:36
        CREATE TABLE pg_x (k INT PRIMARY KEY)                                                            | RESERVED_NAME                  | 1:14
        CREATE TABLE t (k INT PRIMARY KEY, a INT, ATTRIBUTE GROUP "default" (a)) VERSIONED               | RESERVED_NAME                  | 1:59
        CREATE TABLE t (k INT PRIMARY KEY, a INT, b INT, ATTRIBUTE GROUP g (a), ATTRIBUTE GROUP g (b)) VERSIONED | DUPLICATE_NAME                 | 1:89
        CREATE TABLE t (k INT PRIMARY KEY, a INT, ATTRIBUTE GROUP g (k, a)) VERSIONED                    | KEY_COLUMN_IN_GROUP            | 1:62
        CREATE TABLE t (k INT PRIMARY KEY, a INT, ATTRIBUTE GROUP g1 (a), ATTRIBUTE GROUP g2 (a)) VERSIONED | COLUMN_IN_TWO_GROUPS           | 1:87
        CREATE TABLE t (k INT PRIMARY KEY, a INT, b INT, ATTRIBUTE GROUP g (a) VALID BY (b)) VERSIONED   | ORDERING_COLUMN_OUTSIDE_GROUP  | 1:82
        CREATE TABLE t (k INT PRIMARY KEY, a INT, ATTRIBUTE GROUP g (a)) VERSIONED VALID BY (a)          | ORDERING_COLUMN_OUTSIDE_GROUP  | 1:86
        CREATE TABLE t (k INT PRIMARY KEY, v TEXT) VERSIONED VALID BY (v)                                | INVALID_ORDERING_COLUMN        | 1:64
        CREATE TABLE t (k INT PRIMARY KEY, v INT) VERSIONED VALID BY (k)                                 | INVALID_ORDERING_COLUMN        | 1:63
        CREATE TABLE t (k INT PRIMARY KEY, v INT) VERSIONED VALID BY (v) REVISION BY (v)                 | DUPLICATE_NAME                 | 1:79
        CREATE TABLE t (k INT PRIMARY KEY, v INT) VERSIONED VALID BY (nope)                              | UNKNOWN_COLUMN                 | 1:63
        CREATE TABLE t (a INT, b INT) APPEND VALID BY (b)                                                | ORDERING_ON_APPEND_TABLE       | 1:48
        CREATE TABLE t (a INT, b INT, ATTRIBUTE GROUP g (b)) APPEND                                      | ORDERING_ON_APPEND_TABLE       | 1:31
        CREATE TABLE t (a INT PRIMARY KEY) APPEND                                                        | INVALID_DEFINITION             | 1:17
        CREATE TABLE t (a INT) VERSIONED                                                                 | PRIMARY_KEY_REQUIRED           | 1:1
        CREATE TABLE t (k INT, PRIMARY KEY (z))                                                          | UNKNOWN_COLUMN                 | 1:37
        CREATE TABLE t (k INT, PRIMARY KEY (k, k))                                                       | DUPLICATE_NAME                 | 1:40
        CREATE TABLE t (k INT PRIMARY KEY, v INT DEFAULT 'abc')                                          | INVALID_DEFAULT                | 1:50
        CREATE TABLE t (k INT PRIMARY KEY, v INT NOT NULL DEFAULT NULL)                                  | INVALID_DEFAULT                | 1:59
        CREATE TABLE t (k INT PRIMARY KEY, v INT CHECK (v > (SELECT 1)))                                 | INVALID_DEFINITION             | 1:53
        CREATE TABLE t (k INT PRIMARY KEY, v INT CHECK (v > ?))                                          | INVALID_DEFINITION             | 1:53
        CREATE TABLE t (k INT PRIMARY KEY, v INT CHECK (t.v > 0))                                        | INVALID_DEFINITION             | 1:49
        CREATE TABLE t (k INT PRIMARY KEY, v INT CHECK (sum(v) > 0))                                     | INVALID_DEFINITION             | 1:49
        CREATE TABLE t (k INT PRIMARY KEY, v TIMESTAMP CHECK (v < now()))                                | INVALID_DEFINITION             | 1:59
        CREATE TABLE t (k INT PRIMARY KEY, v INT CHECK (v > 'abc'))                                      | INVALID_DEFINITION             | 1:53
        CREATE TABLE t (k INT PRIMARY KEY, v INT CHECK (w > 0))                                          | UNKNOWN_COLUMN                 | 1:49
        CREATE TABLE t (k INT PRIMARY KEY, v INT, CONSTRAINT c CHECK (v > 0), CONSTRAINT c CHECK (v < 9)) | DUPLICATE_NAME                 | 1:82
        CREATE TABLE t (k INT PRIMARY KEY) WITH SYSTEM VERSIONING VERSIONED                              | SYNTAX_ERROR                   | 1:59
        CREATE TABLE t (k INT PRIMARY KEY, v INT, ATTRIBUTE GROUP g (v)) WITH SYSTEM VERSIONING          | INVALID_DEFINITION             | 1:1
        CREATE TABLE t (k INT PRIMARY KEY, k INT) WITH SYSTEM VERSIONING                                 | DUPLICATE_NAME                 | 1:36
        CREATE TABLE t (k INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START) WITH SYSTEM VERSIONING      | INVALID_DEFINITION             | 1:24
        CREATE TABLE t (k INT, row_start INT) WITH SYSTEM VERSIONING                                     | DUPLICATE_NAME                 | 1:24
        CREATE TABLE t (k INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, s)) WITH SYSTEM VERSIONING | INVALID_DEFINITION             | 1:24
        CREATE TABLE t (k INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, x)) WITH SYSTEM VERSIONING | UNKNOWN_COLUMN                 | 1:141
        CREATE TABLE t (k INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, e TIMESTAMP(6), PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING | INVALID_DEFINITION             | 1:70
        CREATE TABLE t (k INT, s TIMESTAMP GENERATED ALWAYS AS ROW START, e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING | INVALID_PERIOD_COLUMN          | 1:26
        CREATE TABLE t (k INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, s2 TIMESTAMP(6) GENERATED ALWAYS AS ROW START, e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING | INVALID_DEFINITION             | 1:70
        CREATE TABLE t (s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING | INVALID_DEFINITION             | 1:1
        CREATE TABLE t (k INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e), PRIMARY KEY (k, s)) WITH SYSTEM VERSIONING | INVALID_DEFINITION             | 1:161
        CREATE TABLE t (k INT, PRIMARY KEY (z)) WITH SYSTEM VERSIONING                                   | UNKNOWN_COLUMN                 | 1:37
        CREATE TABLE t (k INT, v INT, UNIQUE (w)) WITH SYSTEM VERSIONING                                 | UNKNOWN_COLUMN                 | 1:39
        ALTER TABLE items ADD COLUMN name TEXT                                                           | DUPLICATE_NAME                 | 1:30
        ALTER TABLE items ADD COLUMN _x TEXT                                                             | RESERVED_NAME                  | 1:30
        ALTER TABLE items ADD COLUMN note TEXT NOT NULL                                                  | INVALID_ALTER                  | 1:30
        ALTER TABLE items ADD COLUMN note INT DEFAULT 'x'                                                | INVALID_DEFAULT                | 1:47
        ALTER TABLE people ADD COLUMN note TEXT TO ATTRIBUTE GROUP nope                                  | UNKNOWN_GROUP                  | 1:60
        ALTER TABLE events ADD COLUMN note TEXT TO ATTRIBUTE GROUP g                                     | ORDERING_ON_APPEND_TABLE       | 1:60
        ALTER TABLE ledger ADD COLUMN row_start TIMESTAMP                                                | DUPLICATE_NAME                 | 1:31
        ALTER TABLE items DROP COLUMN nope                                                               | UNKNOWN_COLUMN                 | 1:31
        ALTER TABLE items DROP COLUMN id                                                                 | INVALID_ALTER                  | 1:31
        ALTER TABLE items DROP COLUMN ix                                                                 | INVALID_ALTER                  | 1:31
        ALTER TABLE ledger DROP COLUMN row_end                                                           | PERIOD_COLUMN_ALTER            | 1:32
        ALTER TABLE items RENAME COLUMN nope TO other                                                    | UNKNOWN_COLUMN                 | 1:33
        ALTER TABLE items RENAME COLUMN price TO name                                                    | DUPLICATE_NAME                 | 1:42
        ALTER TABLE items RENAME COLUMN price TO _price                                                  | RESERVED_NAME                  | 1:42
        ALTER TABLE ledger RENAME COLUMN row_start TO s                                                  | PERIOD_COLUMN_ALTER            | 1:34
        ALTER TABLE items RENAME TO events                                                               | TABLE_EXISTS                   | 1:29
        ALTER TABLE items RENAME TO pg_items                                                             | RESERVED_NAME                  | 1:29
        ALTER TABLE items VALID BY (price)                                                               | INVALID_ALTER                  | 1:1
        ALTER TABLE settings SET APPEND                                                                  | INVALID_ALTER                  | 1:1
        ALTER TABLE settings SET HISTORY RETENTION 10 COMMITS                                            | UNSUPPORTED_FOR_MODE           | 1:1
        ALTER TABLE items SET HISTORY RETENTION 99999999999999999999 COMMITS                             | INVALID_DEFINITION             | 1:41
        ALTER TABLE ledger ADD SYSTEM VERSIONING                                                         | INVALID_ALTER                  | 1:1
        ALTER TABLE items ADD SYSTEM VERSIONING                                                          | UNSUPPORTED_FOR_MODE           | 1:1
        ALTER TABLE people DROP SYSTEM VERSIONING                                                        | INVALID_ALTER                  | 1:1
        CREATE INDEX _i ON items (name)                                                                  | RESERVED_NAME                  | 1:14
        CREATE INDEX i ON settings (name) SCOPE HISTORY                                                  | NO_HISTORY                     | 1:1
        CREATE UNIQUE INDEX i ON items (name) SCOPE BOTH                                                 | INVALID_DEFINITION             | 1:1
        CREATE INDEX i ON items (name, name)                                                             | DUPLICATE_NAME                 | 1:32
        CREATE INDEX i ON items (nope)                                                                   | UNKNOWN_COLUMN                 | 1:26
        DELETE HISTORY FROM settings BEFORE COMMIT 5                                                     | NO_HISTORY                     | 1:1
        DELETE HISTORY FROM events BEFORE COMMIT 5                                                       | UNSUPPORTED_FOR_MODE           | 1:1
        ERASE FROM events WHERE kind = 'x'                                                               | UNSUPPORTED_FOR_MODE           | 1:1
        ERASE FROM items WHERE name = 'x'                                                                | INVALID_REQUEST                | 1:24
        ERASE FROM items WHERE id = 'x'                                                                  | INVALID_VALUE                  | 1:1
        CREATE ROLE _r                                                                                   | RESERVED_NAME                  | 1:13
        """)
    void refusedAtTheOffendingText(ArgumentsAccessor row) {
        String statement = row.getString(0);
        VersoException.UserError refusal = refusal(statement, parameters(row.size() > 3 ? row.getString(3) : null));
        assertThat(refusal.code() + " " + refusal.line() + ":" + refusal.column()).as(refusal.getMessage())
                .isEqualTo(row.getString(1) + " " + row.getString(2));
    }

    /**
     * The limits on a statement's size, each refused where it is passed: parentheses nested past 200, queries past
     * 32 levels, more than 128 relations, more than 40,256 literals or 20,000 expression terms in a read.
     */
    @Test
    void limitsAreRefusedWhereTheyArePassed() {
        String parentheses = "SELECT " + "(".repeat(201) + "1" + ")".repeat(201);
        assertRefused(parentheses, ErrorCode.NESTING_TOO_DEEP, 1, "SELECT ".length() + 201);
        String queries = "SELECT * FROM " + "(SELECT * FROM ".repeat(33) + "items" + ") AS q".repeat(33);
        assertRefused(queries, ErrorCode.NESTING_TOO_DEEP, 1, "SELECT * FROM ".length() + "(SELECT * FROM ".length() * 32 + 2);
        String relations = "SELECT 1 FROM " + "items, ".repeat(128) + "items";
        // Each table read counts twice (its relation and its binding): the 65th is refused, not the 129th.
        assertRefused(relations, ErrorCode.TOO_MANY_RELATIONS, 1, "SELECT 1 FROM ".length() + "items, ".length() * 64 + 1);
        String literals = "SELECT " + "1 + ".repeat(41_000) + "1";
        assertRefused(literals, ErrorCode.STATEMENT_TOO_LARGE, 1, "SELECT ".length() + "1 + ".length() * 40_256 + 1);
        // The 20,001st term: 1, the IN, its value and the list before it.
        String terms = "SELECT 1 FROM items WHERE id IN (" + "id, ".repeat(20_001) + "id)";
        assertRefused(terms, ErrorCode.STATEMENT_TOO_LARGE, 1, "SELECT 1 FROM items WHERE id IN (".length()
                + "id, ".length() * 19_997 + 1);
    }

    /** Codes the limits test above asserts. */
    private static final Set<ErrorCode> LIMITS = EnumSet.of(ErrorCode.NESTING_TOO_DEEP,
            ErrorCode.TOO_MANY_RELATIONS, ErrorCode.STATEMENT_TOO_LARGE);

    /**
     * Codes the parser, analyzers, planner and compiler raise that no statement text raises when it is planned,
     * each with where it is tested instead. Empty today: every code those packages raise is in the table above.
     */
    private static final Map<ErrorCode, String> NOT_FROM_TEXT_AT_PLAN_TIME = Map.of();

    /**
     * Every code raised in sql/, analyze/, plan/ and compile/ is in the table, among {@link #LIMITS}, or listed in
     * {@link #NOT_FROM_TEXT_AT_PLAN_TIME}: a new refusal fails here until it has a case.
     */
    @Test
    void everyCodeRaisedBeforeExecutionHasACase() throws IOException, ReflectiveOperationException {
        Set<ErrorCode> raised = new TreeSet<>();
        Pattern code = Pattern.compile("ErrorCode\\.([A-Z_]+)");
        for (String stage : List.of("sql", "analyze", "plan", "compile")) {
            try (Stream<Path> files = Files.walk(Path.of("src/main/java/io/verso", stage))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher m = code.matcher(Files.readString(file));
                    while (m.find()) {
                        raised.add(ErrorCode.valueOf(m.group(1)));
                    }
                }
            }
        }
        assertThat(raised).as("codes found in the main sources").contains(ErrorCode.SYNTAX_ERROR, ErrorCode.UNKNOWN_TABLE);
        Set<ErrorCode> tested = EnumSet.copyOf(LIMITS);
        String table = getClass().getDeclaredMethod("refusedAtTheOffendingText", ArgumentsAccessor.class)
                .getAnnotation(CsvSource.class).textBlock();
        for (String line : table.strip().split("\n")) {
            tested.add(ErrorCode.valueOf(line.split("\\|")[1].strip()));
        }
        tested.addAll(NOT_FROM_TEXT_AT_PLAN_TIME.keySet());
        assertThat(tested).as("codes with a case").containsAll(raised);
    }

    private void assertRefused(String text, ErrorCode code, int line, int column) {
        VersoException.UserError refusal = refusal(text, List.of());
        assertThat(refusal.code() + " " + refusal.line() + ":" + refusal.column()).as(refusal.getMessage())
                .isEqualTo(code + " " + line + ":" + column);
    }

    private VersoException.UserError refusal(String text, List<Object> parameters) {
        Throwable thrown = catchThrowable(() -> {
            AsOfResolver asOf = new AsOfResolver(parameters, 100, (time, latest) -> 50).withInstants(ANY_TIME);
            for (Statement statement : SqlParser.parse(text).statements()) {
                if (Planner.plan(statement, catalog, asOf, parameters) instanceof Plan.Direct) {
                    checkedAsTheEngineDoes(statement, parameters);
                }
            }
        });
        assertThat(thrown).as(text).isInstanceOf(VersoException.UserError.class);
        return (VersoException.UserError) thrown;
    }

    /** Times of FOR SYSTEM_TIME: every bound is one instant, at commit 50. */
    private static final AsOfResolver.Instants ANY_TIME = new AsOfResolver.Instants() {
        @Override
        public Instant at(io.verso.sql.ast.Expr value) {
            return Instant.EPOCH;
        }

        @Override
        public long commitAt(Instant t, boolean strict, long latestCommit) {
            return 50;
        }
    };

    /**
     * What the engine checks of a statement planned {@link Plan.Direct} before it touches a row: the analyzers
     * it calls, in its order, on the tables the statement names (engine/DdlStatements, Lifecycle, RowWrites,
     * SystemVersioning, AppendChanges, AccessStatements). Checks against the stored catalog (a table or index
     * that exists) are the engine's own and tested over HTTP.
     */
    private void checkedAsTheEngineDoes(Statement statement, List<Object> parameters) {
        if (statement instanceof Statement.CreateTable create) {
            TableDef defined = create.systemVersioning() != null ? SystemTables.createTable(create, 1).table()
                    : DdlAnalyzer.createTable(create, 1);
            CheckConstraints.define(create, defined);
        } else if (statement instanceof Statement.InsertRows insert) {
            TableDef table = table(insert.table().name());
            ValuesExpressions.items(insert, insert.columns().isEmpty() ? table.columns().size()
                    : insert.columns().size(), parameters);
            if (table.mode() == TableMode.SYSTEM) {
                Statement.InsertRows rows = SystemTables.withoutPeriodNulls(insert, table);
                SystemTables.checkInsert(rows, table);
                SystemTables.insertRows(rows, table, WriteAnalyzer.namedColumns(rows, table),
                        WriteAnalyzer.rows(rows, table, parameters));
                return;
            }
            Planner.checkMode(insert, table);
            WriteAnalyzer.ValuesRows values = WriteAnalyzer.valuesRows(insert, table, parameters);
            WriteAnalyzer.batches(table, values, table.mode() == TableMode.APPEND ? List.of()
                    : WriteAnalyzer.touchedGroups(table, values.given(), insert.group()), 0, insert.pos());
        } else if (statement instanceof Statement.Update update) {
            SystemTables.assignments(update, table(update.table().name()));
        } else if (statement instanceof Statement.Delete delete) {
            SystemTables.checkDelete(delete, table(delete.table().name()));
        } else if (statement instanceof Statement.AddColumn add) {
            LifecycleAnalyzer.addColumn(add, table(add.table().name()));
        } else if (statement instanceof Statement.DropColumn drop) {
            LifecycleAnalyzer.dropColumn(drop, table(drop.table().name()));
        } else if (statement instanceof Statement.RenameColumn rename) {
            LifecycleAnalyzer.renameColumn(rename, table(rename.table().name()));
        } else if (statement instanceof Statement.RenameTable rename) {
            LifecycleAnalyzer.renameTable(rename, table(rename.table().name()), catalog.has(rename.to().name()));
        } else if (statement instanceof Statement.ChangeOrdering change) {
            throw LifecycleAnalyzer.changeOrdering(change, table(change.table().name()));
        } else if (statement instanceof Statement.SetRetention retention) {
            LifecycleAnalyzer.setRetention(retention, table(retention.table().name()));
        } else if (statement instanceof Statement.AlterSystemVersioning alter) {
            SystemTables.checkAlter(alter, table(alter.table().name()));
        } else if (statement instanceof Statement.CreateIndex create) {
            DdlAnalyzer.checkName(create.name(), "index");
            LifecycleAnalyzer.createIndex(create, table(create.table().name()));
        } else if (statement instanceof Statement.DeleteHistory delete) {
            LifecycleAnalyzer.deleteHistory(delete, table(delete.table().name()));
        } else if (statement instanceof Statement.Erase erase) {
            LifecycleAnalyzer.erase(erase, table(erase.table().name()), parameters);
        } else if (statement instanceof Statement.CreateRole create) {
            DdlAnalyzer.checkName(create.role(), "role");
        }
    }

    private TableDef table(String name) {
        return catalog.table(new io.verso.sql.ast.Ident(name, null), Set.of(Privilege.ADMIN));
    }

    /** {@code ;}-separated: integers as Long, other numbers as BigDecimal, the rest as text. */
    private static List<Object> parameters(String parameters) {
        if (parameters == null) {
            return List.of();
        }
        List<Object> values = new ArrayList<>();
        for (String p : parameters.split(";")) {
            values.add(p.matches("-?\\d{1,18}") ? (Object) Long.valueOf(p)
                    : p.matches("-?[\\d.]+") ? new BigDecimal(p) : p);
        }
        return values;
    }
}
