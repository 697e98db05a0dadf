package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * GROUP BY an expression, with the same expression (or one built on it) selected: accepted as
 * PostgreSQL accepts it, and answered as PostgreSQL answers it, on plain reads, in derived tables and
 * in a derived table's defining query.
 */
class GroupByExpressionTests extends IntegrationTest {

    private String t;

    @BeforeEach
    void rows() {
        t = table("gbx");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, x INT, ix INT, s TEXT) VERSIONED");
        sql.write("UPSERT INTO " + t + " VALUES (1, NULL, 11, 'A'), (2, 5, 21, 'a'), (3, NULL, 32, 'B'), "
                + "(4, 5, 12, 'b'), (5, 7, 3, 'C')");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            coalesce with a negative default    | SELECT coalesce(x, -1), count(*) FROM $t GROUP BY coalesce(x, -1) ORDER BY 1 | -1:2;5:2;7:1
            modulo                              | SELECT ix % 10, count(*) FROM $t GROUP BY ix % 10 ORDER BY 1 | 1:2;2:2;3:1
            expression over the grouped one     | SELECT coalesce(x, -1) + 1 AS y, count(*) FROM $t GROUP BY coalesce(x, -1) ORDER BY y | 0:2;6:2;8:1
            grouped by the output alias         | SELECT ix % 10 AS m, count(*) FROM $t GROUP BY m ORDER BY m | 1:2;2:2;3:1
            grouped by ordinal                  | SELECT ix % 10, count(*) FROM $t GROUP BY 1 ORDER BY 1 | 1:2;2:2;3:1
            function of a column                | SELECT lower(s), count(*) FROM $t GROUP BY lower(s) ORDER BY 1 | a:2;b:2;c:1
            in HAVING and ORDER BY              | SELECT ix % 10, sum(k) FROM $t GROUP BY ix % 10 HAVING ix % 10 > 1 ORDER BY ix % 10 DESC | 3:5;2:7
            in a derived table                  | SELECT m, n FROM (SELECT ix % 10 AS m, count(*) AS n FROM $t GROUP BY ix % 10) AS d ORDER BY m | 1:2;2:2;3:1
            string literal, ordered by it       | SELECT concat(lower(s), '!'), count(*) FROM $t GROUP BY concat(lower(s), '!') ORDER BY concat(lower(s), '!') DESC | c!:1;b!:2;a!:2
            string literal in the expression    | SELECT concat(lower(s), '!'), count(*) FROM $t GROUP BY concat(lower(s), '!') ORDER BY 1 | a!:2;b!:2;c!:1
            CASE over the grouped expression    | SELECT CASE WHEN coalesce(x, -1) < 0 THEN 'none' ELSE 'some' END, count(*) FROM $t GROUP BY coalesce(x, -1) ORDER BY 2, 1 | some:1;none:2;some:2
            """)
    void acceptedAndAnsweredAsPostgreSqlDoes(String what, String query, String expected) {
        List<String> answer = sql.rows(query.replace("$t", t)).stream().map(r -> r.get(0) + ":" + r.get(1)).toList();
        assertThat(String.join(";", answer)).as(what).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            column beside an expression | SELECT ix, count(*) FROM $t GROUP BY ix % 10
            other expression            | SELECT ix % 7 FROM $t GROUP BY ix % 10
            """)
    void aColumnOutsideTheGroupedExpressionIsStillRefused(String what, String query) {
        sql.fails(400, "COLUMN_NOT_GROUPED", query.replace("$t", t));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            coalesce | SELECT coalesce(x, -1) AS g, count(*) AS n FROM $t GROUP BY coalesce(x, -1)
            modulo   | SELECT ix % 10 AS g, count(*) AS n FROM $t GROUP BY ix % 10
            """)
    void inADerivedTablesDefiningQuery(String what, String query) {
        String d = table("gbxd");
        sql.write("CREATE DERIVED TABLE " + d + " PRIMARY KEY (g) AS " + query.replace("$t", t));
        assertThat(sql.rows("SELECT sum(n) FROM " + d)).as(what).containsExactly(List.of("5"));
    }
}
