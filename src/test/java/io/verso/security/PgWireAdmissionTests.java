package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.pgwire.PgWireServer;
import io.verso.support.IntegrationTest;
import io.verso.support.TestSecurity;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A PostgreSQL-protocol request takes its place in the same admission classes as {@code /v1/sql}: with every
 * heavy place taken, a one-key read over pgjdbc still runs and a whole-table read is refused as OVERLOADED
 * (SQLSTATE 53000), exactly as over HTTP (SqlAdmissionTests).
 */
class PgWireAdmissionTests extends IntegrationTest {

    @Autowired
    private AdmissionFilter admission;

    @Autowired
    private PgWireServer server;

    @Test
    void heavyReadsOverThePostgresProtocolShareTheHeavyPlaces() throws SQLException {
        String t = table("pgw_admitted");
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/verso",
                "anyone", TestSecurity.ADMIN_KEY); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, v TEXT) VERSIONED");
            s.execute("UPSERT INTO " + t + " VALUES (1, 'a'), (2, 'b')");
            s.execute("SELECT v FROM " + t + " WHERE id = 1"); // the definition into this instance's cache
            Semaphore heavy = admission.places(AdmissionFilter.Kind.HEAVY);
            int held = heavy.drainPermits();
            try {
                assertThat(held).isPositive();
                try (ResultSet rs = s.executeQuery("SELECT v FROM " + t + " WHERE id = 2")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("b");
                }
                SQLException refused = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                        () -> s.executeQuery("SELECT count(*) FROM " + t));
                assertThat(refused.getSQLState()).isEqualTo("53000");
                assertThat(refused.getMessage()).contains("code: OVERLOADED");
            } finally {
                heavy.release(held);
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + t)) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(2);
            }
        }
    }
}
