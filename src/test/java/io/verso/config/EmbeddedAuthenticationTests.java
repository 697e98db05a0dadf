package io.verso.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded PostgreSQL asks every connection for the superuser's password kept in its data folder,
 * readable by its owner only: another account on the machine, which knows no password, cannot connect.
 * A folder of an earlier version, which trusted every local connection, keeps its data and is given a
 * password at its first start.
 */
class EmbeddedAuthenticationTests {

    private static Connection connect(EmbeddedPostgres postgres, String password) throws SQLException {
        String url = "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
        return password == null ? DriverManager.getConnection(url + "?user=postgres")
                : DriverManager.getConnection(url, "postgres", password);
    }

    private static void refusesWithoutThePassword(EmbeddedPostgres postgres) {
        assertThatThrownBy(() -> connect(postgres, null).close()).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> connect(postgres, "guessed").close()).isInstanceOf(SQLException.class)
                .hasMessageContaining("password authentication failed");
    }

    @Test
    void aNewFolderAsksEveryConnectionForThePasswordKeptInIt(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pgdata");
        EmbeddedPostgresEnvironment.Started started = EmbeddedPostgresEnvironment.launch(data, 0, false);
        try (EmbeddedPostgres postgres = started.postgres()) {
            refusesWithoutThePassword(postgres);
            try (Connection c = connect(postgres, started.password()); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBoolean(1)).isTrue();
            }
            Path kept = data.resolve(EmbeddedAuthentication.PASSWORD_FILE);
            assertThat(Files.readString(kept).strip()).isEqualTo(started.password()).hasSize(32);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kept))).isEqualTo("rw-------");
            assertThat(Files.readString(data.resolve("pg_hba.conf"))).isEqualTo(EmbeddedAuthentication.PG_HBA)
                    .doesNotContain("trust");
            assertThat(Files.list(dir).map(p -> p.getFileName().toString())).as("initdb's copy is gone")
                    .containsExactlyInAnyOrder("pgdata", "postgres.log");
        }
        // The next start finds the kept password and the same pg_hba.conf.
        EmbeddedPostgresEnvironment.Started again = EmbeddedPostgresEnvironment.launch(data, 0, false);
        try (EmbeddedPostgres postgres = again.postgres()) {
            assertThat(again.password()).isEqualTo(started.password());
            refusesWithoutThePassword(postgres);
            connect(postgres, again.password()).close();
        }
    }

    @Test
    void aFolderThatTrustedEveryoneKeepsItsDataAndIsGivenAPassword(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pgdata");
        try (EmbeddedPostgres earlier = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false)
                .start(); Connection c = connect(earlier, null); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE kept (v INT); INSERT INTO kept VALUES (42)");
        }
        assertThat(Files.readString(data.resolve("pg_hba.conf"))).contains("trust");

        EmbeddedPostgresEnvironment.Started started = EmbeddedPostgresEnvironment.launch(data, 0, false);
        try (EmbeddedPostgres postgres = started.postgres()) {
            refusesWithoutThePassword(postgres);
            try (Connection c = connect(postgres, started.password()); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT v FROM kept")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
        }
        EmbeddedPostgresEnvironment.Started again = EmbeddedPostgresEnvironment.launch(data, 0, false);
        try (EmbeddedPostgres postgres = again.postgres()) {
            assertThat(again.password()).isEqualTo(started.password());
            connect(postgres, again.password()).close();
        }
    }

    @Test
    void aFolderThatAsksForAPasswordWhoseFileIsGoneSaysSo(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pgdata");
        EmbeddedPostgresEnvironment.launch(data, 0, false).postgres().close();
        Files.delete(data.resolve(EmbeddedAuthentication.PASSWORD_FILE));
        assertThatThrownBy(() -> EmbeddedPostgresEnvironment.launch(data, 0, false))
                .isInstanceOf(StartupException.class).hasMessageContaining(EmbeddedAuthentication.PASSWORD_FILE);
    }
}
