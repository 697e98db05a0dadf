package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * {@code /v1/sql} is admitted by what its statements do (AdmissionFilter, analyze.Weight), over real HTTP
 * on the shared context: with every heavy place taken, a small UPSERT and a one-key SELECT still run, and a
 * whole-table read or a read by a non-key column waits its admission time and gets 503 OVERLOADED.
 */
class SqlAdmissionTests extends IntegrationTest {

    @Autowired
    private AdmissionFilter admission;

    @Test
    void aSmallUpsertAndAOneKeySelectAreAdmittedWhileHeavyPlacesAreFull() {
        String t = table("admitted");
        sql.run("CREATE TABLE " + t + " (id INT PRIMARY KEY, v TEXT) VERSIONED");
        sql.run("UPSERT INTO " + t + " VALUES (1, 'a')");
        // A read loads the definition into this instance's catalog cache, which the classing reads.
        sql.run("SELECT v FROM " + t + " WHERE id = 1");
        Semaphore heavy = admission.places(AdmissionFilter.Kind.HEAVY);
        int held = heavy.drainPermits();
        try {
            assertThat(held).isPositive();
            sql.run("UPSERT INTO " + t + " VALUES (2, 'b'), (3, 'c')");
            assertThat(sql.rows("SELECT v FROM " + t + " WHERE id = ?", 2)).containsExactly(java.util.List.of("b"));
            assertThat(sql.rows("SELECT id, v FROM " + t + " WHERE id IN (1, 3) AND v <> 'x'")).hasSize(2);
            sql.run("SHOW TABLES");
            sql.fails(503, "OVERLOADED", "SELECT count(*) FROM " + t);
            sql.fails(503, "OVERLOADED", "SELECT id FROM " + t + " WHERE v = 'a'");
            sql.fails(503, "OVERLOADED", "SELECT a.id FROM " + t + " a JOIN " + t + " b ON a.id = b.id WHERE a.id = 1");
            sql.fails(503, "OVERLOADED", "UPSERT INTO " + t + " SELECT id + 10, v FROM " + t);
        } finally {
            heavy.release(held);
        }
        assertThat(sql.rows("SELECT count(*) FROM " + t)).containsExactly(java.util.List.of("3"));
    }
}
