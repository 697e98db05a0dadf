package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The statements of docs/security.md run as written, by an administrator, and do what the page says. */
class SecurityDocsTests extends IntegrationTest {

    @Test
    void theSqlExamplesRunAsWritten() throws Exception {
        String page = Files.readString(Path.of("docs", "security.md"));
        Matcher blocks = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL).matcher(page);
        List<String> sqlBlocks = new ArrayList<>();
        while (blocks.find()) {
            sqlBlocks.add(blocks.group(1));
        }
        assertThat(sqlBlocks).isNotEmpty();
        for (String block : sqlBlocks) {
            var results = sql.run(block).path("results");
            assertThat(results.size()).isGreaterThan(1);
            // SHOW GRANTS FOR analyst, last: SELECT on sales revoked WRITE, and SELECT on ALL TABLES.
            String grants = results.get(results.size() - 1).path("rows").toString();
            assertThat(grants).contains("[\"analyst\",\"TABLE sales\",\"SELECT\"]")
                    .contains("[\"analyst\",\"ALL TABLES\",\"SELECT\"]").doesNotContain("WRITE");
        }
    }
}
