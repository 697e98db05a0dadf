package io.verso.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.verso.VersoApplication;
import io.verso.support.SqlClient;
import io.verso.support.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The README's examples, run as written and in order on an empty install: a fresh database on the
 * test's PostgreSQL server and a service of its own. Shell blocks that call {@code curl} run as one
 * bash script (so variables taken from responses carry from block to block), each SQL block is one
 * {@code POST /v1/sql}, each GraphQL block one {@code POST /graphql}, and each JSON block must parse.
 * A request must succeed unless the comment after it shows its status ({@code # 400 ...}); the
 * values a comment shows ({@code "amount":"104"}) must be in the response, and a JSON block right
 * after a GraphQL block is that request's whole response.
 */
class ReadmeExamplesTests {

    private static final Pattern BLOCK = Pattern.compile("(?m)^```(\\w*)\\n(.*?)^```$", Pattern.DOTALL);
    private static final Pattern PAIR = Pattern.compile("\"(\\w+)\":(\"[^\"]*\"|-?[0-9.]+|true|false|null)");
    private static final Pattern STATUS = Pattern.compile("^#\\s+(\\d{3})\\b");

    record Block(String lang, String text, int firstLine) {
    }

    /** One request the README made: the README line of its command, its status and body. */
    record Call(int line, int status, String body) {
    }

    @Test
    void everyExampleRunsAsWrittenOnAnEmptyInstall(@TempDir Path dir) throws Exception {
        Path readme = Path.of("README.md");
        String text = Files.readString(readme);
        List<String> lines = text.lines().toList();
        List<Block> blocks = blocks(text);

        try (FreshDatabase database = FreshDatabase.create(dir)) {
            // Command-line arguments: they win over SPRING_DATASOURCE_URL, which names the suite's database.
            ConfigurableApplicationContext service = new SpringApplicationBuilder(VersoApplication.class)
                    .run("--server.port=0", "--spring.datasource.url=" + database.url,
                            "--spring.datasource.username=" + database.user,
                            "--spring.datasource.password=" + database.password,
                            "--verso.retention.check-interval=365d", "--verso.embedded.enabled=false",
                            // An empty install is the local zero-set-up run: no credentials asked.
                            "--verso.security.mode=none",
                    // Its own database: the suite's read replica (CI) is a standby of another one.
                    "--verso.read-replicas=");
            try {
                int port = Integer.parseInt(service.getEnvironment().getProperty("local.server.port"));
                run(blocks, lines, port, dir);
            } finally {
                service.close();
            }
        }
    }

    private void run(List<Block> blocks, List<String> lines, int port, Path dir) throws Exception {
        StringBuilder script = new StringBuilder();
        Path log = dir.resolve("calls.log");
        script.append("set -euo pipefail\n")
                .append("VERSO_LOG=").append(log).append("; VERSO_AT=0; VERSO_N=0\n")
                // Records each request's README line, status and body; the caller still gets the body.
                .append("curl() {\n")
                .append("  VERSO_N=$((VERSO_N+1)); local body=").append(dir).append("/body.$BASHPID.$VERSO_N\n")
                .append("  local status; status=$(command curl -s -o \"$body\" -w '%{http_code}' \"$@\")\n")
                .append("  printf '%s %s %s\\n' \"$VERSO_AT\" \"$status\" \"$body\" >> \"$VERSO_LOG\"\n")
                .append("  cat \"$body\"\n")
                .append("}\n");
        int skipped = 0;
        // A JSON block right after a GraphQL block shows that request's response: README line -> response.
        Map<Integer, String> shown = new LinkedHashMap<>();
        Block previous = null;
        for (Block block : blocks) {
            if (block.lang().equals("json") && previous != null && previous.lang().equals("graphql")) {
                shown.put(lastLine(previous), block.text());
            }
            previous = block;
            switch (block.lang()) {
                case "sh", "shell" -> {
                    if (!block.text().contains("curl")) {
                        assertThat(block.text()).as("a shell block without curl is a build command").contains("mvn");
                        skipped++;
                        continue;
                    }
                    appendShell(script, block, port);
                }
                case "sql" -> appendPost(script, block, port, "/v1/sql", Map.of("sql", block.text()), dir);
                case "graphql" -> appendPost(script, block, port, "/graphql", Map.of("query", block.text()), dir);
                case "json" -> SqlClient.JSON.readTree(block.text());
                case "" -> {
                    // diagrams
                }
                case "text" -> {
                    // configurations that need the reader's own issuer or keys (the security section)
                }
                default -> fail("README block of unknown kind '" + block.lang() + "' at line " + block.firstLine());
            }
        }
        assertThat(skipped).as("only the quick start's build commands are not run").isEqualTo(1);
        Path file = dir.resolve("readme.sh");
        Files.writeString(file, script);
        Process bash = new ProcessBuilder("bash", file.toString()).redirectErrorStream(true).start();
        String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(bash.exitValue()).as("the README's shell examples ran\n" + output).isZero();

        List<Call> calls = new ArrayList<>();
        for (String entry : Files.readAllLines(log)) {
            String[] parts = entry.split(" ", 3);
            calls.add(new Call(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Files.readString(Path.of(parts[2]))));
        }
        assertThat(calls).as("requests made").hasSizeGreaterThan(25);
        for (Call call : calls) {
            check(call, lines);
        }
        for (Map.Entry<Integer, String> response : shown.entrySet()) {
            Call call = calls.stream().filter(c -> c.line() == response.getKey()).findFirst().orElseThrow();
            JsonNode actual = SqlClient.JSON.readTree(call.body());
            assertThat(matches(SqlClient.JSON.readTree(response.getValue()), actual, new LinkedHashMap<>()))
                    .as("the response README.md shows after line " + response.getKey() + ", got\n" + actual).isTrue();
        }
    }

    private static final Pattern PLACEHOLDER = Pattern.compile("<\\w+>");

    /**
     * Whether {@code actual} is the response {@code shown}: equal, except that a string shown as a
     * placeholder ({@code "<c1>"}) stands for any string, the same one wherever that placeholder is.
     */
    private static boolean matches(JsonNode shown, JsonNode actual, Map<String, String> bound) {
        if (shown.isString() && PLACEHOLDER.matcher(shown.asString()).matches()) {
            return actual.isString() && bound.computeIfAbsent(shown.asString(), k -> actual.asString())
                    .equals(actual.asString());
        }
        if (shown.isObject()) {
            if (!actual.isObject() || !Set.copyOf(shown.propertyNames()).equals(Set.copyOf(actual.propertyNames()))) {
                return false;
            }
            return shown.propertyNames().stream().allMatch(name -> matches(shown.get(name), actual.get(name), bound));
        }
        if (shown.isArray()) {
            if (!actual.isArray() || shown.size() != actual.size()) {
                return false;
            }
            for (int i = 0; i < shown.size(); i++) {
                if (!matches(shown.get(i), actual.get(i), bound)) {
                    return false;
                }
            }
            return true;
        }
        return shown.equals(actual);
    }

    private static int lastLine(Block block) {
        return block.firstLine() + (int) block.text().lines().count() - 1;
    }

    private static void check(Call call, List<String> lines) {
        String where = "README.md line " + call.line() + ": " + lines.get(call.line() - 1) + "\n" + call.body();
        List<String> comment = comment(lines, call.line());
        int expected = 200;
        for (String c : comment) {
            Matcher m = STATUS.matcher(c);
            if (m.find()) {
                expected = Integer.parseInt(m.group(1));
                break;
            }
        }
        if (expected == 200) {
            assertThat(call.status()).as(where).isBetween(200, 299);
        } else {
            assertThat(call.status()).as(where).isEqualTo(expected);
        }
        JsonNode body = SqlClient.JSON.readTree(call.body());
        assertThat(body.has("errors")).as("GraphQL errors at " + where).isFalse();
        String flat = call.body().replace(" ", "");
        for (String c : comment) {
            Matcher pair = PAIR.matcher(c);
            while (pair.find()) {
                String value = pair.group(2);
                if (value.contains("...") || value.contains("<")) {
                    continue;
                }
                assertThat(flat).as(where).contains("\"" + pair.group(1) + "\":" + value.replace(" ", ""));
            }
        }
    }

    /** The comment that shows a command's result: after it on its last line, and the lines that follow. */
    private static List<String> comment(List<String> lines, int line) {
        List<String> out = new ArrayList<>();
        String own = lines.get(line - 1);
        int hash = own.indexOf("   # ");
        if (hash >= 0) {
            out.add(own.substring(hash).trim());
        }
        for (int i = line; i < lines.size() && lines.get(i).startsWith("#"); i++) {
            out.add(lines.get(i));
        }
        return out;
    }

    /**
     * The block's lines, each command prefixed with {@code VERSO_AT=<its README line>} so requests
     * are traced back to it. A command's line is its last one, where its comment goes; lines inside
     * a function body or a quoted string are left alone.
     */
    private static void appendShell(StringBuilder script, Block block, int port) {
        List<String> lines = block.text().lines().toList();
        boolean inFunction = false;
        int quotes = 0;
        List<String> pending = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replace("localhost:8080", "localhost:" + port);
            int readmeLine = block.firstLine() + i;
            if (inFunction) {
                script.append(line).append('\n');
                inFunction = !line.equals("}");
                continue;
            }
            if (pending.isEmpty() && line.matches("^\\w+\\(\\) \\{\\s*$")) {
                script.append(line).append('\n');
                inFunction = true;
                continue;
            }
            pending.add(line);
            quotes += countQuotes(line);
            if (quotes % 2 == 0 && !line.endsWith("\\")) {
                script.append("VERSO_AT=").append(readmeLine).append("; ").append(String.join("\n", pending)).append('\n');
                pending.clear();
                quotes = 0;
            }
        }
        assertThat(pending).as("unterminated command in the block at README line " + block.firstLine()).isEmpty();
    }

    private static int countQuotes(String line) {
        int hash = line.indexOf("   # ");
        String code = hash >= 0 ? line.substring(0, hash) : line;
        return (int) code.chars().filter(c -> c == '\'').count();
    }

    private static void appendPost(StringBuilder script, Block block, int port, String path, Map<String, String> body,
                                   Path dir) throws IOException {
        Path file = dir.resolve("block" + block.firstLine() + ".json");
        Files.writeString(file, SqlClient.JSON.writeValueAsString(new LinkedHashMap<>(body)));
        // The block's own line is where its result would be shown: its last line.
        int last = lastLine(block);
        script.append("VERSO_AT=").append(last).append("; curl -s localhost:").append(port).append(path)
                .append(" -H 'Content-Type: application/json' -d @").append(file).append(" > /dev/null\n");
    }

    private static List<Block> blocks(String text) {
        List<Block> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            int firstLine = (int) text.substring(0, m.start(2)).chars().filter(c -> c == '\n').count() + 1;
            blocks.add(new Block(m.group(1), m.group(2).stripTrailing(), firstLine));
        }
        return blocks;
    }

    /**
     * A database no test has touched: a new one on the server the suite uses, or a private embedded
     * PostgreSQL when the suite runs on the service's own embedded one.
     */
    static final class FreshDatabase implements AutoCloseable {
        private static final Pattern URL = Pattern.compile("^(jdbc:postgresql://[^/]+/)([^?]+)(.*)$");

        final String url;
        final String user;
        final String password;
        private final EmbeddedPostgres embedded;

        private FreshDatabase(String url, String user, String password, EmbeddedPostgres embedded) {
            this.url = url;
            this.user = user;
            this.password = password;
            this.embedded = embedded;
        }

        static FreshDatabase create(Path dir) throws Exception {
            TestDatabase.ensure();
            String suiteUrl = System.getenv("SPRING_DATASOURCE_URL") != null ? System.getenv("SPRING_DATASOURCE_URL")
                    : System.getProperty("spring.datasource.url");
            if (suiteUrl == null) {
                EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("pg"))
                        .setCleanDataDirectory(true).start();
                return new FreshDatabase(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "", postgres);
            }
            Matcher m = URL.matcher(suiteUrl);
            assertThat(m.matches()).as("a PostgreSQL JDBC URL: " + suiteUrl).isTrue();
            String name = m.group(2) + "_readme";
            String user = System.getenv().getOrDefault("SPRING_DATASOURCE_USERNAME",
                    System.getProperty("spring.datasource.username", "postgres"));
            String password = System.getenv().getOrDefault("SPRING_DATASOURCE_PASSWORD",
                    System.getProperty("spring.datasource.password", ""));
            java.util.Properties properties = new java.util.Properties();
            properties.put("user", user);
            properties.put("password", password);
            try (Connection c = DriverManager.getConnection(m.group(1) + "postgres" + m.group(3), properties);
                 Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
                s.execute("CREATE DATABASE \"" + name + "\"");
            }
            return new FreshDatabase(m.group(1) + name + m.group(3), user, password, null);
        }

        @Override
        public void close() throws IOException {
            if (embedded != null) {
                embedded.close();
            }
        }
    }
}
