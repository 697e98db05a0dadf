package io.verso.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded PostgreSQL of the quick start keeps its output out of the service's log, and never
 * writes the text of a statement it refused (it holds the caller's values) anywhere.
 */
class EmbeddedPostgresLogTests {

    @Test
    void aRefusedStatementLeavesNoSqlInAnyLog(@TempDir Path dir) throws Exception {
        Path dataDir = dir.resolve("pgdata");
        Files.createDirectories(dataDir);
        try (EmbeddedPostgres postgres = EmbeddedPostgresEnvironment.builder(dataDir).start();
             Connection connection = postgres.getPostgresDatabase().getConnection()) {
            assertThatThrownBy(() -> connection.createStatement()
                    .execute("SELECT CAST('secret_marker_value' AS numeric) AS refused_marker_column"))
                    .isInstanceOf(SQLException.class);
        }
        Path log = dir.resolve("postgres.log");
        assertThat(log).exists();
        String text = Files.readString(log);
        assertThat(text).contains("invalid input syntax").doesNotContain("refused_marker_column");
    }
}
