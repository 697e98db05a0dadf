package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.verso.catalog.Catalog;
import io.verso.catalog.TableDef;
import io.verso.support.IntegrationTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A write's statements take their rows as arrays, and PostgreSQL must plan one of many rows for the arrays it is
 * given. The plan it makes for no binds in particular (a generic plan, which it switches to after a prepared
 * statement's fifth run on a connection) counts ten elements in each array: it joined a batch's written rows to
 * its candidates by a nested loop over every pair, and from the sixth request on a connection an UPSERT of
 * 10,000 rows took 9.4 s instead of 0.15 s (20,000 replacements ran into the statement timeout). A write of a few
 * rows keeps its cached plan, which costs less than planning it anew. Judged on PostgreSQL's own count of the
 * plans each of the service's connections made for the tables' statements.
 */
class WritePlansTests extends IntegrationTest {

    @Autowired
    DataSource dataSource;
    @Autowired
    Catalog catalog;

    @Test
    void aWriteOfManyRowsIsPlannedForItsRowsAndOneOfAFewKeepsItsPlan() throws SQLException {
        String few = table("wp_few");
        String many = table("wp_many");
        for (String t : List.of(few, many)) {
            sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT, n INT) VERSIONED VALID BY (n)");
        }
        // Sixty requests of the same statement text (the rows are arrays: their number does not change it),
        // new keys and replacing ones: on a pool of at most ten connections, one of them runs it six times at least.
        int size = SqlRunner.PLANNED_FOR_ITS_ROWS + 50;
        for (int i = 0; i < 60; i++) {
            sql.write("UPSERT INTO " + few + " (id, v, n) VALUES " + rows(i, 5));
            sql.write("UPSERT INTO " + many + " (id, v, n) VALUES " + rows(i, size));
        }
        long small = genericPlans(few);
        assertThat(small).as("generic plans of a write of 5 rows").isPositive();
        assertThat(genericPlans(many)).as("generic plans of a write of %d rows", size).isZero();
        // Many rows into the table of few: the statement its small writes prepared is not what they run on.
        for (int i = 0; i < 20; i++) {
            sql.write("UPSERT INTO " + few + " (id, v, n) VALUES " + rows(i + 60, size));
        }
        assertThat(genericPlans(few)).as("generic plans of the writes of 5 rows, then of %d", size).isEqualTo(small);
        assertThat(sql.rows("SELECT count(*), min(n), max(n) FROM " + many))
                .containsExactly(List.of(String.valueOf(20 * size), "40", "59"));
    }

    /** Rows of keys {@code i % 20 * size} on, each key written at {@code i}, {@code i + 20} and {@code i + 40}. */
    private static String rows(int i, int size) {
        StringJoiner rows = new StringJoiner(", ");
        for (int k = 0; k < size; k++) {
            rows.add("(" + (i % 20 * size + k) + ", 'v" + i + "', " + i + ")");
        }
        return rows.toString();
    }

    /**
     * The generic plans made for statements naming {@code table}'s current rows, over every idle connection of
     * the pool (the writes' among them; the commit signal's listener holds one for good), each held until all
     * are seen.
     */
    private long genericPlans(String table) throws SQLException {
        TableDef def = catalog.find(table).orElseThrow();
        long generic = 0;
        List<Connection> pool = new ArrayList<>();
        try {
            int idle = dataSource.unwrap(HikariDataSource.class).getHikariPoolMXBean().getIdleConnections();
            for (int i = 0; i < idle; i++) {
                Connection c = dataSource.getConnection();
                pool.add(c);
                try (PreparedStatement plans = c.prepareStatement("SELECT coalesce(sum(generic_plans), 0) "
                        + "FROM pg_prepared_statements WHERE statement LIKE ?")) {
                    plans.setString(1, "%INSERT INTO \"verso_data\".\"" + def.currentTable() + "\"%");
                    try (ResultSet rs = plans.executeQuery()) {
                        rs.next();
                        generic += rs.getLong(1);
                    }
                }
            }
        } finally {
            for (Connection c : pool) {
                c.close();
            }
        }
        return generic;
    }
}
