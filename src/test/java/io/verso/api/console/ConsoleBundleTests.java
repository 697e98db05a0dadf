package io.verso.api.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console bundle the jar serves is committed in console/dist, so that building and running the
 * service need no Node. These tests keep it honest: rebuilt from console/'s sources with the machine's
 * Node it must come out byte for byte the same, and a Node too old to build it is refused with a
 * message saying what to do. Without a Node that can build the console they are skipped, except with
 * VERSO_REQUIRE_CONSOLE_BUILD=1 (.ci/run), where they fail.
 */
class ConsoleBundleTests {

    private static final Path CONSOLE = Path.of("console").toAbsolutePath();
    private static final Path COMMITTED = CONSOLE.resolve("dist");
    /** npm ci (when console/node_modules is missing or stale) and Vite: about 20 s here, minutes on a cold npm cache. */
    private static final long BUILD_SECONDS = 600;
    private static final long QUICK_SECONDS = 30;

    @BeforeAll
    static void needsNode() throws Exception {
        String problem = nodeProblem();
        if (problem == null) {
            return;
        }
        if ("1".equals(System.getenv("VERSO_REQUIRE_CONSOLE_BUILD"))) {
            fail("VERSO_REQUIRE_CONSOLE_BUILD=1 but " + problem);
        }
        Assumptions.abort(problem + ": the committed console/dist is not checked against its sources");
    }

    @Test
    void theCommittedBundleIsWhatItsSourcesBuild(@TempDir Path out) throws Exception {
        Run build = node(BUILD_SECONDS, CONSOLE.resolve("build.mjs").toString(), out.toString());
        assertThat(build.exit).as("node console/build.mjs\n%s", build.output).isZero();

        Map<String, byte[]> built = files(out);
        Map<String, byte[]> committed = files(COMMITTED);
        assertThat(committed).as("console/dist").isNotEmpty();
        List<String> differing = new ArrayList<>();
        for (String name : union(built, committed)) {
            if (!Arrays.equals(built.get(name), committed.get(name))) {
                differing.add(name + (built.containsKey(name) ? committed.containsKey(name) ? " (changed)"
                        : " (not committed)" : " (no longer built)"));
            }
        }
        assertThat(differing)
                .as("console/dist differs from what console/'s sources build: run `node console/build.mjs` "
                        + "(Node 20.19+) and commit console/dist with the sources")
                .isEmpty();
    }

    @Test
    void aNodeTooOldToBuildTheConsoleIsToldWhatToDo() throws Exception {
        Run check = node(QUICK_SECONDS, "--input-type=module", "-e",
                "import { nodeTooOld } from " + quoted(CONSOLE.resolve("node-version.mjs").toUri().toString()) + ";"
                        + "console.log(nodeTooOld('18.19.0'));"
                        + "console.log(nodeTooOld(process.versions.node));");
        assertThat(check.exit).as(check.output).isZero();
        assertThat(check.output.lines().toList()).containsExactly(
                "Node 18.19.0 cannot build the console: it needs Node 20.19+ or 22.12+. Install one (https://nodejs.org), "
                        + "or leave console/dist as committed: building and running the service need no Node at all.",
                "null");
    }

    private record Run(int exit, String output) {
    }

    /** Null when this machine's node can build the console, else why not. */
    private static String nodeProblem() throws InterruptedException {
        Run version;
        try {
            version = node(QUICK_SECONDS, "-p", "process.versions.node");
        } catch (IOException e) {
            return "no node on PATH";
        }
        String v = version.output.strip();
        String[] parts = v.split("\\.");
        if (version.exit != 0 || parts.length < 2) {
            return "node does not report its version (" + v + ")";
        }
        int major = Integer.parseInt(parts[0]);
        int minor = Integer.parseInt(parts[1]);
        boolean builds = (major == 20 && minor >= 19) || (major == 22 && minor >= 12) || major >= 23;
        return builds ? null : "node " + v + " cannot build the console (it needs 20.19+ or 22.12+)";
    }

    private static Run node(long seconds, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("node"));
        command.addAll(List.of(arguments));
        Path log = Files.createTempFile("verso-node", ".log");
        try {
            Process process = new ProcessBuilder(command).directory(CONSOLE.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("node " + String.join(" ", arguments) + " did not end within " + seconds + " s:\n"
                        + Files.readString(log));
            }
            return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
        }
        return files;
    }

    private static List<String> union(Map<String, byte[]> a, Map<String, byte[]> b) {
        TreeMap<String, byte[]> all = new TreeMap<>(a);
        all.putAll(b);
        return List.copyOf(all.keySet());
    }

    private static String quoted(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
