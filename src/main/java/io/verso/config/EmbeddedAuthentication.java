package io.verso.config;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PostgreSQL asks every connection for its superuser's password, so another account on the
 * machine cannot connect as superuser (the library's initdb trusts every local connection). The password
 * is generated once, kept in {@value #PASSWORD_FILE} inside the data folder (which PostgreSQL keeps
 * readable by its owner only; the file is owner-only too), and travels with the folder. A new folder is
 * initialised with it (initdb's --pwfile and --auth); a folder from an earlier version, which trusts
 * everyone, gets a password and the same pg_hba.conf at its first start, before the service connects.
 */
final class EmbeddedAuthentication {

    static final String PASSWORD_FILE = "verso-superuser.password";

    /** Every connection, over TCP on loopback or the Unix socket, gives the password. Nothing else connects. */
    static final String PG_HBA = """
            # Written by Verso at every start of its embedded PostgreSQL: every connection gives the
            # superuser's password, kept in %s in this folder. Edits here are replaced.
            local   all   all                  scram-sha-256
            host    all   all   127.0.0.1/32   scram-sha-256
            host    all   all   ::1/128        scram-sha-256
            """.formatted(PASSWORD_FILE);

    private static final Logger log = LoggerFactory.getLogger(EmbeddedAuthentication.class);
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private final Path dataDir;
    private final String password;
    private Path initdbFile;

    private EmbeddedAuthentication(Path dataDir, String password) {
        this.dataDir = dataDir;
        this.password = password;
    }

    /**
     * The folder's password: the kept one, or a new one for a folder that has none yet (new, or from an
     * earlier version), kept by {@link #prepare} before PostgreSQL starts.
     */
    static EmbeddedAuthentication of(Path dataDir) {
        Path file = dataDir.resolve(PASSWORD_FILE);
        try {
            if (Files.exists(file)) {
                return new EmbeddedAuthentication(dataDir, Files.readString(file, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the embedded PostgreSQL's password from " + file, e);
        }
        if (Files.exists(dataDir.resolve("pg_hba.conf")) && !trusting(dataDir)) {
            throw new StartupException("The embedded PostgreSQL in " + dataDir + " asks for a password, but "
                    + file + " that kept it is missing.", "Put the file back, or move the folder aside to start "
                    + "with an empty database.", null);
        }
        SecureRandom random = new SecureRandom();
        StringBuilder generated = new StringBuilder();
        for (int i = 0; i < 32; i++) {
            generated.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return new EmbeddedAuthentication(dataDir, generated.toString());
    }

    String password() {
        return password;
    }

    /**
     * Sets the library up: it connects with the password to see the server ready; a folder initdb creates
     * now gets the password and password authentication from its start (the library passes these as
     * {@code --name=value} initdb options); the password is kept in the folder before the server starts.
     */
    EmbeddedPostgres.Builder prepare(EmbeddedPostgres.Builder builder) {
        builder.setConnectConfig("password", password);
        if (!Files.exists(dataDir.resolve("postgresql.conf"))) {
            // initdb wants an empty folder, so its password file lies beside it until initdb has run.
            Path file = dataDir.resolveSibling(dataDir.getFileName() + ".initdb-password");
            try {
                initdbFile = ownerOnly(file);
            } catch (IOException e) {
                throw new UncheckedIOException("could not write " + file, e);
            }
            builder.setLocaleConfig("pwfile", initdbFile.toString()).setLocaleConfig("auth", "scram-sha-256");
        }
        return builder.setDataDirectoryCustomizer(folder -> keep());
    }

    /**
     * Once the server runs: a folder whose pg_hba.conf is not this one (it trusted everyone, or initdb
     * wrote its own) has the superuser's password set, then the file written and reloaded.
     */
    void enforce(EmbeddedPostgres postgres) {
        Path hba = dataDir.resolve("pg_hba.conf");
        try {
            if (Files.exists(hba) && Files.readString(hba).equals(PG_HBA)) {
                return;
            }
            try (Connection connection = postgres.getPostgresDatabase().getConnection()) {
                // The driver sends the SCRAM verifier, never the password itself.
                connection.unwrap(PGConnection.class).alterUserPassword("postgres", password.toCharArray(),
                        "scram-sha-256");
                Path written = ownerOnly(hba.resolveSibling("pg_hba.conf.verso"));
                Files.writeString(written, PG_HBA);
                Files.move(written, hba, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SELECT pg_reload_conf()");
                }
            }
            log.info("the embedded PostgreSQL in {} now asks every connection for the password kept in {}", dataDir,
                    dataDir.resolve(PASSWORD_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + hba, e);
        } catch (SQLException e) {
            throw new IllegalStateException("could not set the embedded PostgreSQL's password: " + e.getMessage(), e);
        }
    }

    /** After initdb, before the server starts: the password in the folder, initdb's copy gone. */
    private void keep() {
        Path file = dataDir.resolve(PASSWORD_FILE);
        try {
            if (!Files.exists(file)) {
                Path written = ownerOnly(dataDir.resolve(PASSWORD_FILE + ".new"));
                Files.move(written, file, StandardCopyOption.ATOMIC_MOVE);
            }
            if (initdbFile != null) {
                Files.deleteIfExists(initdbFile);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not keep the embedded PostgreSQL's password in " + file, e);
        }
    }

    /** A file holding the password that only its owner may read, created so from the start (no readable moment). */
    private Path ownerOnly(Path file) throws IOException {
        Files.deleteIfExists(file);
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } else {
            Files.createFile(file);
        }
        Files.writeString(file, password + "\n", StandardCharsets.UTF_8);
        return file;
    }

    /** Whether the folder's pg_hba.conf lets some connection in without a password (as every earlier version's did). */
    private static boolean trusting(Path dataDir) {
        try {
            return Files.readAllLines(dataDir.resolve("pg_hba.conf")).stream().map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .anyMatch(line -> line.matches(".*\\s(trust)(\\s.*)?$"));
        } catch (IOException e) {
            return true;
        }
    }
}
