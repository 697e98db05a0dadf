package io.verso.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/deploying.md's samples that follow the schema: its health example and its start-up refusal name
 * the latest migration in db/migration, so a new migration without the page's update fails here.
 */
class DeployingDocsTests {

    private static final Pattern MIGRATION = Pattern.compile("V(\\d+)__(.+)\\.sql");

    @Test
    void theHealthExampleShowsTheLatestMigration() throws IOException {
        Matcher latest = latestMigration();
        String page = Files.readString(Path.of("docs/deploying.md"));
        assertThat(page).contains("\"version\":\"" + latest.group(1) + "\",\"description\":\""
                + latest.group(2).replace('_', ' ') + "\"");
        int next = Integer.parseInt(latest.group(1)) + 1;
        assertThat(page).contains(next + " (…) applied, while this Verso knows migrations up to version " + latest.group(1) + ".");
    }

    private static Matcher latestMigration() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("db/migration"))) {
            Matcher latest = files.map(p -> MIGRATION.matcher(p.getFileName().toString())).filter(Matcher::matches)
                    .max(Comparator.comparingInt(m -> Integer.parseInt(m.group(1)))).orElseThrow();
            return latest;
        }
    }
}
