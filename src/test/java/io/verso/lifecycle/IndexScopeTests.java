package io.verso.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.analyze.AsOfResolver;
import io.verso.analyze.ReadAnalyzer;
import io.verso.catalog.Catalog;
import io.verso.catalog.TableDef;
import io.verso.compile.CompiledSql;
import io.verso.compile.SelectCompiler;
import io.verso.engine.SqlRunner;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Statement;
import io.verso.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * SCOPE decides which rows an index covers: EXPLAIN on the compiled SQL shows a filtered current
 * read using the CURRENT index and a filtered AS OF read using the HISTORY index.
 */
class IndexScopeTests extends IntegrationTest {

    @Autowired
    Catalog catalog;
    @Autowired
    SqlRunner runner;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void filteredReadsUseTheIndexOfTheirScope() {
        String t = table("idx");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, label TEXT, ix INT) VERSIONED VALID BY (ix)");
        for (int round = 1; round <= 3; round++) {
            StringBuilder values = new StringBuilder();
            List<Object> params = new ArrayList<>();
            for (int k = 0; k < 2000; k++) {
                values.append(k == 0 ? "" : ", ").append("(?, ?, ?)");
                params.add(k);
                params.add("label-" + k + "-" + round);
                params.add(round);
            }
            sql.write("UPSERT INTO " + t + " VALUES " + values, params.toArray());
        }
        long commit = sql.latestCommit();
        sql.write("CREATE INDEX " + t + "_cur ON " + t + " (label); CREATE INDEX " + t + "_hist ON " + t
                + " (label) SCOPE HISTORY");
        TableDef table = catalog.find(t).orElseThrow();
        jdbc.execute("ANALYZE verso_data." + table.currentTable());
        jdbc.execute("ANALYZE verso_data." + table.historyTable());

        String current = plan(table, "SELECT k FROM " + t + " WHERE label = ?", commit);
        assertThat(current).contains("t" + table.id() + "_i1_cur");
        String asOf = plan(table, "SELECT k FROM " + t + " AS OF COMMIT " + commit + " WHERE label = ?", commit);
        // A partitioned history's index shows under the name PostgreSQL gave the partition's part of it.
        String label = table.column("label").orElseThrow().physical();
        String historyIndex = "t" + table.id() + "_hist_was_current_" + label + "_";
        assertThat(asOf).contains(historyIndex).doesNotContain("never_current");

        assertThat(sql.run("DESCRIBE " + t).at("/results/0/rows").toString())
                .contains("\"" + t + "_cur\"", "\"CURRENT\"", "\"" + t + "_hist\"", "\"HISTORY\"");
        sql.write("DROP INDEX " + t + "_hist");
        assertThat(plan(table, "SELECT k FROM " + t + " AS OF COMMIT " + commit + " WHERE label = ?", commit))
                .doesNotContain(historyIndex);
        sql.fails(404, "UNKNOWN_INDEX", "DROP INDEX " + t + "_hist");
        sql.fails(400, "DUPLICATE_NAME", "CREATE INDEX " + t + "_cur ON " + t + " (ix)");
    }

    private String plan(TableDef table, String statement, long latest) {
        List<Object> params = List.of("label-7-3");
        var select = (Statement.Select) SqlParser.parse(statement).statements().get(0);
        CompiledSql compiled = SelectCompiler.compile(ReadAnalyzer.select(select, name -> table,
                new AsOfResolver(params, latest), params.size()), params);
        List<String[]> lines = runner.texts(new CompiledSql("EXPLAIN " + compiled.sql(), compiled.binds()));
        return String.join("\n", lines.stream().map(l -> l[0]).toList());
    }
}
