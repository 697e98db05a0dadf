package io.verso.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every fenced example in README.md and docs/*.md is run by the page's own test, in order, or is of
 * a kind the page declares is not run (and why). A new page, or a block of a new kind on a page,
 * fails here until a test runs it or the table below says why nothing can.
 */
class DocsCoverageTests {

    private static final Pattern FENCE = Pattern.compile("(?m)^```(\\w*)\\n.*?^```$", Pattern.DOTALL);

    /** Per page: the block kinds its test runs, and the test. */
    private static final Map<String, Page> PAGES = new LinkedHashMap<>();

    record Page(Set<String> run, String test, Set<String> notRun, String why) {
    }

    static {
        PAGES.put("README.md", new Page(Set.of("sh", "shell", "sql", "graphql", "json"), "ReadmeExamplesTests",
                Set.of("", "text"), "diagrams; the security set-up, which needs the reader's issuer or key"));
        PAGES.put("docs/language.md", new Page(Set.of("sql"), "DocsExamplesTests", Set.of(""),
                "the grammar"));
        PAGES.put("docs/mariadb.md", new Page(Set.of("sql"), "MariaDbDocsTests", Set.of(), ""));
        PAGES.put("docs/derived-and-feeds.md", new Page(Set.of("sql", "sh", "graphql", "json"),
                "DerivedFeedsDocsTests", Set.of(), ""));
        PAGES.put("docs/security.md", new Page(Set.of("sql"), "SecurityDocsTests", Set.of("shell", "js"),
                "configuration (issuer, admin key, CORS origins) and a browser's fetch; SecurityTests and "
                        + "IdempotencyAndCorsTests cover what they set up"));
        PAGES.put("docs/replicas.md", new Page(Set.of(), "CommitHeaderTests (its Verso-Min-Commit block)",
                Set.of("shell"), "a standby's set-up"));
        PAGES.put("docs/deploying.md", new Page(Set.of(), "", Set.of("shell", "json"),
                "image builds, Kubernetes and Helm commands; log and problem samples"));
        PAGES.put("docs/benchmark.md", new Page(Set.of(), "", Set.of("shell"), "the benchmark's own run"));
        PAGES.put("docs/console.md", new Page(Set.of(), "", Set.of(), "no examples"));
        PAGES.put("docs/pgwire.md", new Page(Set.of("sh", "python", "js", "sql"), "PgWireDocsTests", Set.of("java"),
                "a pgjdbc fragment; PgWireTests runs the same through pgjdbc"));
    }

    @Test
    void everyPageIsAccountedFor() throws IOException {
        Set<String> pages = new TreeSet<>(List.of("README.md"));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(p -> pages.add("docs/" + p.getFileName()));
        }
        assertThat(new TreeSet<>(PAGES.keySet())).isEqualTo(pages);
    }

    @Test
    void everyBlockIsOfAKindItsPageRunsOrSaysWhyNot() throws IOException {
        Map<String, String> unaccounted = new TreeMap<>();
        for (Map.Entry<String, Page> entry : PAGES.entrySet()) {
            String text = Files.readString(Path.of(entry.getKey()));
            Matcher m = FENCE.matcher(text);
            while (m.find()) {
                String kind = m.group(1);
                Page page = entry.getValue();
                if (!page.run().contains(kind) && !page.notRun().contains(kind)) {
                    int line = (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
                    unaccounted.put(entry.getKey() + ":" + line, "```" + kind);
                }
            }
        }
        assertThat(unaccounted).as("blocks no test runs and no page says why").isEmpty();
    }

    /** The tests named above exist, so the table cannot point at a test that is gone. */
    @Test
    void theNamedTestsExist() throws IOException {
        Set<String> tests = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("Tests.java"))
                    .forEach(n -> tests.add(n.replace(".java", "")));
        }
        for (Page page : PAGES.values()) {
            String test = page.test().split(" ")[0];
            if (!test.isEmpty()) {
                assertThat(tests).as(page.test()).contains(test);
            }
        }
    }
}
