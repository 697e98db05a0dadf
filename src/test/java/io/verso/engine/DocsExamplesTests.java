package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.support.IntegrationTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs every {@code sql} block of docs/language.md, in order, one request per block, as a user
 * would on an empty install. The suite shares its database, so the page's table and view names get
 * a suffix of this run and its commit numbers (those of an empty install) are offset by the commits
 * the database already holds; nothing else of the text changes.
 */
class DocsExamplesTests extends IntegrationTest {

    private static final Pattern BLOCK = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern COMMIT = Pattern.compile("AS OF COMMIT (\\d+)");
    private static final List<String> NAMES = List.of("accounts_by_owner", "payments_by_id", "accounts", "payments",
            "settings", "snapshot", "rich");

    @Test
    void everyExampleOfTheLanguagePageRuns() throws Exception {
        String page = Files.readString(Path.of("docs/language.md"), StandardCharsets.UTF_8);
        String suffix = table("doc").replace("doc", "");
        long base = sql.latestCommit();
        List<String> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(page);
        while (m.find()) {
            blocks.add(m.group(1));
        }
        assertThat(blocks).as("sql examples on the page").hasSizeGreaterThan(10);
        for (String block : blocks) {
            String text = block;
            for (String name : NAMES) {
                text = text.replaceAll("\\b" + name + "\\b", name + suffix);
            }
            Matcher c = COMMIT.matcher(text);
            StringBuilder out = new StringBuilder();
            while (c.find()) {
                c.appendReplacement(out, "AS OF COMMIT " + (base + Long.parseLong(c.group(1))));
            }
            c.appendTail(out);
            Response response = sql.post(out.toString());
            assertThat(response.statusCode()).as(out + "\n=> " + response.asString()).isEqualTo(200);
        }
        // The page's own claims about what the examples read.
        assertThat(sql.rows("SELECT * FROM snapshot" + suffix + " ORDER BY id")).containsExactly(
                List.of("1", "ada", "100.00"), List.of("2", "bob", "50.00"));
        assertThat(sql.rows("SELECT id, balance FROM accounts" + suffix + " ORDER BY id")).containsExactly(
                List.of("1", "75.00"));
    }
}
