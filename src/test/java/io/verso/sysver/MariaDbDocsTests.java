package io.verso.sysver;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every {@code sql} block of docs/mariadb.md runs as written, in order, each as one request. */
class MariaDbDocsTests extends IntegrationTest {

    private static final Pattern BLOCK = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyExampleRuns() throws Exception {
        String doc = Files.readString(Path.of("docs/mariadb.md"));
        // The suite shares one database: the page's tables get names no other test uses.
        String stock = table("stock");
        String stock2 = table("stock2");
        String clients = table("clients");
        String prices = table("prices");
        String emp = table("emp");
        List<String> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(doc);
        while (m.find()) {
            blocks.add(m.group(1).replaceAll("\\bstock2\\b", stock2).replaceAll("\\bstock\\b", stock)
                    .replaceAll("\\bclients\\b", clients).replaceAll("\\bprices\\b", prices)
                    .replaceAll("\\bemp\\b", emp));
        }
        assertThat(blocks).hasSizeGreaterThan(8);
        for (String block : blocks) {
            sql.run(block);
        }
        assertThat(sql.rows("SELECT article, price FROM " + prices + " FOR SYSTEM_TIME ALL ORDER BY row_start"))
                .containsExactly(List.of("1", "9.90"), List.of("1", "10.50"));
        assertThat(sql.rows("SELECT article, qte FROM " + stock + " ORDER BY article"))
                .containsExactly(List.of("1", "9"), List.of("2", "20"), List.of("3", "31"));
    }
}
