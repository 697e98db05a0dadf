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
 * A write's statements take their rows as arrays, and PostgreSQL must plan each one for the arrays it is given.
 * The plan it makes for no binds in particular (a generic plan, which it switches to after a prepared
 * statement's fifth run on a connection) counts ten elements in each array: it joined a batch's written rows to
 * its candidates by a nested loop over every pair, and from the sixth request on a connection an UPSERT of
 * 10,000 rows took 9.4 s instead of 0.15 s (20,000 replacements ran into the statement timeout). Judged on
 * PostgreSQL's own count of the plans each of the service's connections made for the table's statements.
 */
class WritePlansTests extends IntegrationTest {

    @Autowired
    DataSource dataSource;
    @Autowired
    Catalog catalog;

    @Test
    void everyStatementOfAWriteIsPlannedForItsOwnRows() throws SQLException {
        String t = table("wp");
        sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT, n INT) VERSIONED VALID BY (n)");
        // Sixty requests of the same statement text (the rows are arrays: their number does not change it),
        // new keys and replacing ones: on a pool of at most ten connections, one of them runs it six times at least.
        for (int i = 0; i < 60; i++) {
            StringJoiner rows = new StringJoiner(", ");
            for (int k = 0; k < 5; k++) {
                rows.add("(" + (i % 20 * 5 + k) + ", 'v" + i + "', " + i + ")");
            }
            sql.write("UPSERT INTO " + t + " (id, v, n) VALUES " + rows);
        }
        TableDef def = catalog.find(t).orElseThrow();
        long custom = 0;
        List<Connection> pool = new ArrayList<>();
        try {
            // Every idle connection of the pool (the writes' among them; the commit signal's listener holds one
            // for good), each held until all are seen.
            int idle = ((HikariDataSource) dataSource).getHikariPoolMXBean().getIdleConnections();
            for (int i = 0; i < idle; i++) {
                Connection c = dataSource.getConnection();
                pool.add(c);
                try (PreparedStatement plans = c.prepareStatement("SELECT coalesce(sum(generic_plans), 0), "
                        + "coalesce(sum(custom_plans), 0) FROM pg_prepared_statements WHERE statement LIKE ?")) {
                    plans.setString(1, "%\"" + def.currentTable() + "\"%");
                    try (ResultSet rs = plans.executeQuery()) {
                        rs.next();
                        assertThat(rs.getLong(1)).as("generic plans of %s's statements on a connection", t).isZero();
                        custom += rs.getLong(2);
                    }
                }
            }
        } finally {
            for (Connection c : pool) {
                c.close();
            }
        }
        // The statements did run prepared, where PostgreSQL chooses between the two plans.
        assertThat(custom).isGreaterThanOrEqualTo(6);
        assertThat(sql.rows("SELECT count(*), min(n), max(n) FROM " + t)).containsExactly(List.of("100", "40", "59"));
    }
}
