package io.verso.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The zero-set-up PostgreSQL after the service was killed with -9: its postmaster is still running
 * on the data folder. The next start stops it first, then starts on the same data, which is all
 * there; and the server it starts acknowledges commits only once they are on disk.
 */
class EmbeddedRecoveryTests {

    @Test
    void anOrphanedPostgresIsStoppedAndTheNextStartFindsItsData() throws Exception {
        Path data = Files.createTempDirectory("verso-orphan-pg");
        EmbeddedPostgres orphan = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false)
                .setRegisterShutdownHook(false).start();
        try (Connection c = orphan.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE kept (v INT); INSERT INTO kept VALUES (42)");
        }
        long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).strip());
        Optional<ProcessHandle> postmaster = ProcessHandle.of(pid);
        assertThat(postmaster).isPresent();
        // The service that started it is gone (as after kill -9): nothing closes `orphan`.

        EmbeddedPostgresEnvironment.stopOrphan(data);
        assertThat(postmaster.get().isAlive()).as("the orphaned postmaster was stopped").isFalse();
        // A new service runs in a new JVM; here the dead one's library object must let go of its lock file.
        try {
            orphan.close();
        } catch (Exception alreadyStopped) {
            // its postmaster is gone: nothing to stop
        }

        EmbeddedPostgres next = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false)
                .setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on").start();
        try (Connection c = next.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT v FROM kept")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
            try (ResultSet rs = s.executeQuery("SELECT current_setting('fsync'), current_setting('synchronous_commit')")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("on");
                assertThat(rs.getString(2)).isEqualTo("on");
            }
        } finally {
            next.close();
        }
    }

    @Test
    void aStaleLockFileOfADeadProcessIsLeftToPostgres() throws Exception {
        Path data = Files.createTempDirectory("verso-stale-pg");
        Files.writeString(data.resolve("postmaster.pid"), "999999999\n" + data + "\n");
        EmbeddedPostgresEnvironment.stopOrphan(data);
        assertThat(data.resolve("postmaster.pid")).exists();
    }
}
