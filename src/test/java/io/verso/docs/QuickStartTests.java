package io.verso.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's quick start names two commands, and CI runs exactly those: .ci/first-run runs the run
 * command in a fresh clone (and .ci/run runs it), .ci/run ends with the test command. So a README that
 * changes its commands, or a CI that drifts from them, fails here rather than on a newcomer's machine.
 */
class QuickStartTests {

    private static final Pattern QUICK_START = Pattern.compile("## Quick start\\n.*?```shell\\n(.*?)```", Pattern.DOTALL);

    @Test
    void ciRunsTheReadmesTwoCommands() throws IOException {
        List<String> commands = readmeCommands();
        assertThat(commands).as("the quick start's commands").containsExactly("./mvnw spring-boot:run", "./mvnw -B verify");

        List<String> ci = commandLines(Files.readString(Path.of(".ci/run")));
        assertThat(ci.get(ci.size() - 1)).as(".ci/run's last command is the README's test command").isEqualTo(commands.get(1));
        assertThat(ci).as(".ci/run runs the first-run check").contains("bash .ci/first-run");

        String firstRun = Files.readString(Path.of(".ci/first-run"));
        assertThat(firstRun).as(".ci/first-run starts the README's run command")
                .contains("setsid " + commands.get(0) + "\n");
    }

    @Test
    void theWrapperNeedsOnlyAJdk() throws IOException {
        assertThat(Files.isExecutable(Path.of("mvnw"))).as("mvnw is executable").isTrue();
        String properties = Files.readString(Path.of(".mvn/wrapper/maven-wrapper.properties"));
        assertThat(properties)
                .as("the wrapper fetches Maven itself (only-script), from Maven Central, checksum pinned")
                .contains("distributionType=only-script")
                .contains("distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/")
                .containsPattern("distributionSha256Sum=[0-9a-f]{64}");
    }

    private static List<String> readmeCommands() throws IOException {
        Matcher m = QUICK_START.matcher(Files.readString(Path.of("README.md")));
        assertThat(m.find()).as("README.md has a Quick start with a shell block").isTrue();
        return m.group(1).lines().map(l -> l.replaceFirst("\\s+#.*$", "").strip()).filter(l -> !l.isEmpty()).toList();
    }

    private static List<String> commandLines(String script) {
        return script.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }
}
