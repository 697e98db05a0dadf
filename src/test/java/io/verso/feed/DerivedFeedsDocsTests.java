package io.verso.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Runs docs/derived-and-feeds.md in order as a user would on an empty install: every {@code sql}
 * block as one request, every {@code curl} against this service. Table names get a suffix of this
 * run and commit numbers are offset by the commits the shared database already holds; the page's
 * claims about results are checked below.
 */
class DerivedFeedsDocsTests extends IntegrationTest {

    private static final Pattern BLOCK = Pattern.compile("```(sql|sh)\\n(.*?)```", Pattern.DOTALL);
    /** A path as written, or {@code $build}: the page keeps the Location of the build it started in that variable. */
    private static final Pattern URL = Pattern.compile("['\"]localhost:8080(/[^'\"]*|\\$build)['\"]");
    private static final Pattern HEADER = Pattern.compile("-H '([^:']+): ([^']*)'");
    private static final Pattern FIRST_ID = Pattern.compile("# id:(\\d+)");
    private static final Pattern DATA = Pattern.compile("-d '([^']*)'");
    private static final Pattern SHOWN_COMMITS = Pattern.compile("\"commitsTotal\":(\\d+)");
    private static final List<String> NAMES = List.of("account_totals", "ledger", "accounts", "region_totals",
            "largest_entries");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void everyExampleOfThePageRuns() throws Exception {
        String page = Files.readString(Path.of("docs/derived-and-feeds.md"), StandardCharsets.UTF_8);
        String suffix = table("doc").replace("doc", "");
        long base = sql.latestCommit();
        Matcher m = BLOCK.matcher(page);
        List<String> firstIds = new ArrayList<>();
        String build = null;
        int blocks = 0;
        while (m.find()) {
            blocks++;
            String text = m.group(2);
            for (String name : NAMES) {
                text = text.replaceAll("\\b" + name + "\\b", name + suffix);
            }
            text = offset(text, "AS OF COMMIT ", base);
            text = offset(text, "after=", base);
            text = offset(text, "Last-Event-ID: ", base);
            if (m.group(1).equals("sql")) {
                Response response = sql.post(text);
                assertThat(response.statusCode()).as(text + "\n=> " + response.asString()).isEqualTo(200);
                if (blocks == 1) {
                    // The page's commit 1: sequences may have a gap after the latest commit (a failed write
                    // of an earlier test drew a number), so the offset is taken from the commit made.
                    base = Long.parseLong(SqlClient.JSON.readTree(response.asString()).get("commit").asString()) - 1;
                }
                continue;
            }
            Matcher url = URL.matcher(text);
            assertThat(url.find()).as(text).isTrue();
            assertThat(url.group(1)).as("a literal build id exists on no other install: read it from the Location\n" + text)
                    .doesNotStartWith("/v1/derived-builds/");
            String path = url.group(1).equals("$build") ? build : url.group(1);
            assertThat(path).as("$build is the Location of a build started above\n" + text).isNotNull();
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY);
            Matcher header = HEADER.matcher(text);
            boolean stream = false;
            while (header.find()) {
                request.header(header.group(1), header.group(2));
                stream |= header.group(2).equals("text/event-stream");
            }
            Matcher data = DATA.matcher(text);
            if (data.find()) {
                // Creating a derived table with Prefer: respond-async: accepted, its build to follow.
                HttpResponse<String> response = HTTP.send(request.POST(HttpRequest.BodyPublishers.ofString(
                        data.group(1))).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as(text + "\n=> " + response.body()).isEqualTo(202);
                build = response.headers().firstValue("Location").orElseThrow();
                continue;
            }
            if (path.startsWith("/v1/derived-builds/")) {
                JsonNode done = followBuild(build);
                assertThat(done.get("state").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
                Matcher shownCommits = SHOWN_COMMITS.matcher(text);
                assertThat(shownCommits.find()).as(text).isTrue();
                assertThat(done.get("commitsTotal").asLong()).as(done.toString())
                        .isEqualTo(Long.parseLong(shownCommits.group(1)));
                assertThat(done.get("commitsApplied").asLong()).isEqualTo(done.get("commitsTotal").asLong());
                assertThat(text).contains("\"rowsWritten\":" + done.get("rowsWritten").asLong() + ",");
                assertThat(done.get("commit").asString()).isEqualTo(Long.toString(base + 10));
                continue;
            }
            if (!stream) {
                HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as(text + "\n=> " + response.body()).isEqualTo(200);
                JsonNode feed = SqlClient.JSON.readTree(response.body());
                List<String> ops = new ArrayList<>();
                feed.get("changes").forEach(c -> ops.add(c.get("commit").asString() + " " + c.get("op").asString()
                        + " " + c.get("key").get("account").asString()));
                assertThat(ops).containsExactly((base + 1) + " insert alice", (base + 1) + " insert bob",
                        (base + 2) + " update alice", (base + 5) + " update alice");
                continue;
            }
            // A stream: its first event is the one the page shows first.
            Matcher id = FIRST_ID.matcher(m.group(2));
            assertThat(id.find()).as(text).isTrue();
            HttpResponse<InputStream> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            assertThat(response.statusCode()).isEqualTo(200);
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String line = lines.readLine();
                while (line != null && !line.startsWith("id:")) {
                    line = lines.readLine();
                }
                assertThat(line).isEqualTo("id:" + (base + Long.parseLong(id.group(1))));
            }
            firstIds.add(id.group(1));
        }
        // The GraphQL subscription resumes after commit 5 and receives commit 6, as the page shows.
        Matcher graphql = Pattern.compile("```graphql\\n(.*?)```", Pattern.DOTALL).matcher(page);
        Matcher shown = Pattern.compile("```json\\n(\\{\"account_totals_changes.*?)```", Pattern.DOTALL).matcher(page);
        assertThat(graphql.find() && shown.find()).isTrue();
        String document = offset(graphql.group(1).replace("account_totals", "account_totals" + suffix), "after: \"", base);
        try (io.verso.support.GraphqlSocket socket = io.verso.support.GraphqlSocket.open(port,
                java.util.Map.of(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY),
                java.util.Map.of())) {
            assertThat(socket.next().get("type").asString()).isEqualTo("connection_ack");
            socket.subscribe("doc", document);
            JsonNode event = socket.data("doc", "account_totals" + suffix);
            JsonNode expected = SqlClient.JSON.readTree(shown.group(1)).get("account_totals_changes");
            assertThat(event.get("commit").asString()).isEqualTo(Long.toString(base + 6));
            assertThat(event.get("changes")).hasSize(1);
            assertThat(event.get("changes").get(0).get("row")).isEqualTo(expected.get("changes").get(0).get("row"));
            assertThat(event.get("changes").get(0).get("op")).isEqualTo(expected.get("changes").get(0).get("op"));
        }
        assertThat(blocks).isGreaterThanOrEqualTo(10);
        assertThat(firstIds).hasSize(2);
        assertThat(sql.rows("SELECT account, balance, entries FROM account_totals" + suffix + " ORDER BY account"))
                .containsExactly(List.of("alice", "94.50", "2"), List.of("bob", "40.00", "1"),
                        List.of("carol", "10.00", "1"));
        assertThat(sql.rows("SELECT account, balance FROM account_totals" + suffix + " AS OF COMMIT ? ORDER BY account",
                base + 1)).containsExactly(List.of("alice", "100.00"), List.of("bob", "40.00"));
        // The join: totals per region after bob moved, kept by the keys each commit reached.
        assertThat(sql.rows("SELECT region, balance, entries FROM region_totals" + suffix + " ORDER BY region"))
                .containsExactly(List.of("north", "134.50", "3"), List.of("south", "10.00", "1"));
        JsonNode derivedTables = sql.run("SHOW DERIVED TABLES").get("results").get(0).get("rows");
        List<String> modes = new ArrayList<>();
        derivedTables.forEach(row -> {
            if (row.get(0).asString().endsWith(suffix)) {
                modes.add(row.get(0).asString().replace(suffix, "") + " " + row.get(5).asString());
            }
        });
        assertThat(modes).containsExactlyInAnyOrder("account_totals incremental", "region_totals incremental",
                "largest_entries incremental");
        assertThat(sql.rows("SELECT account, largest FROM largest_entries" + suffix + " ORDER BY account"))
                .containsExactly(List.of("alice", "120.00"), List.of("bob", "40.00"), List.of("carol", "10.00"));
    }

    /** The build resource at {@code location}, once it has ended. */
    private JsonNode followBuild(String location) throws Exception {
        for (int i = 0; i < 200; i++) {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                    + location)).header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY)
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode build = SqlClient.JSON.readTree(response.body());
            if (!List.of("QUEUED", "RUNNING").contains(build.get("state").asString())) {
                return build;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the build at " + location + " did not end");
    }

    private static String offset(String text, String prefix, long base) {
        Matcher c = Pattern.compile(Pattern.quote(prefix) + "(\\d+)").matcher(text);
        StringBuilder out = new StringBuilder();
        while (c.find()) {
            long n = Long.parseLong(c.group(1));
            c.appendReplacement(out, prefix + (n == 0 ? 0 : base + n));
        }
        c.appendTail(out);
        return out.toString();
    }
}
