package io.verso.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's "How it works" package map names every package of src/main and no package that is
 * gone, and the classes its request walk names exist: a newcomer finds the stage that owns a bug
 * from it.
 */
class ReadmePackageMapTests {

    private static final Path ROOT = Path.of("src/main/java/io/verso");
    private static final Pattern NAMED = Pattern.compile("`([a-z]+(?:/[a-z]+)?)/?`");
    private static final Pattern CLASS = Pattern.compile("`([a-z]+)/([A-Z][A-Za-z]+)(?:[.(`])");

    @Test
    void thePackageMapNamesEveryPackage() throws IOException {
        String section = section();
        Set<String> named = new TreeSet<>();
        for (String row : section.lines().filter(l -> l.startsWith("| `")).toList()) {
            Matcher m = NAMED.matcher(row.substring(0, row.indexOf(" |", 2)));
            while (m.find()) {
                named.add(m.group(1));
            }
        }
        assertThat(named).isEqualTo(packages());
    }

    @Test
    void theClassesTheWalkNamesExist() throws IOException {
        Matcher m = CLASS.matcher(section());
        int found = 0;
        while (m.find()) {
            found++;
            assertThat(ROOT.resolve(m.group(1)).resolve(m.group(2) + ".java")).as(m.group()).exists();
        }
        assertThat(found).as("classes named in the walk").isGreaterThan(5);
    }

    private static String section() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        int start = readme.indexOf("## How it works");
        assertThat(start).isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        return end < 0 ? readme.substring(start) : readme.substring(start, end);
    }

    /** Every directory under io/verso that holds Java sources, as a path (api/rest, sql/ast). */
    private static Set<String> packages() throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.filter(p -> p.toString().endsWith(".java")).map(Path::getParent).filter(p -> !p.equals(ROOT))
                    .forEach(p -> out.add(ROOT.relativize(p).toString().replace('\\', '/')));
        }
        return out;
    }
}
