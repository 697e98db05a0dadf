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
 * a suffix of this run and its commit numbers (those of an empty install) are offset by the first
 * block's commit, which is commit 1 on an empty install (not by the latest commit before the test: a
 * request that drew a sequence and made no commit leaves a gap after it); nothing else of the text changes.
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
        Long base = null;
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
                assertThat(base).as("the first block makes commit 1").isNotNull();
                c.appendReplacement(out, "AS OF COMMIT " + (base + Long.parseLong(c.group(1))));
            }
            c.appendTail(out);
            Response response = sql.post(out.toString());
            assertThat(response.statusCode()).as(out + "\n=> " + response.asString()).isEqualTo(200);
            if (base == null) {
                base = Long.parseLong(response.jsonPath().getString("commit")) - 1;
            }
        }
        // The page's own claims about what the examples read.
        assertThat(sql.rows("SELECT * FROM snapshot" + suffix + " ORDER BY id")).containsExactly(
                List.of("1", "ada", "100.00"), List.of("2", "bob", "50.00"));
        assertThat(sql.rows("SELECT id, balance FROM accounts" + suffix + " ORDER BY id")).containsExactly(
                List.of("1", "75.00"));
    }

    /** The error table's examples that are whole statements get the code the table gives, at a position. */
    @Test
    void theErrorTablesExamplesGetTheirCodes() throws Exception {
        String page = Files.readString(Path.of("docs/language.md"), StandardCharsets.UTF_8);
        Matcher row = Pattern.compile("(?m)^\\| (.*) \\| `([A-Z_]+)` \\|$").matcher(page);
        int checked = 0;
        while (row.find()) {
            Matcher example = Pattern.compile("`(SELECT [^`]+)`").matcher(row.group(1));
            while (example.find()) {
                var problem = sql.fails(400, row.group(2), example.group(1));
                assertThat(problem.path("column").isInt()).as(example.group(1) + " => " + problem).isTrue();
                checked++;
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(4);
    }
}
