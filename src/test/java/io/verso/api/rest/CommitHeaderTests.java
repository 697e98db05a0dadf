package io.verso.api.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Verso-Commit on every response that made or read a commit, Verso-Min-Commit honoured on the next
 * request (with or without replicas), as the example in docs/replicas.md shows it.
 */
class CommitHeaderTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theDocsExampleReturnsTheCommitAndTakesItBack() throws Exception {
        String doc = Files.readString(Path.of("docs/replicas.md"));
        List<String> bodies = new ArrayList<>();
        int at = doc.indexOf("Verso-Min-Commit: 12");
        String block = doc.substring(doc.lastIndexOf("```shell", at), doc.indexOf("```", at));
        Matcher m = Pattern.compile("-d '(\\{[^']*})'").matcher(block);
        while (m.find()) {
            bodies.add(m.group(1));
        }
        assertThat(bodies).hasSize(2);
        String table = table("notes");
        HttpResponse<String> create = post(bodies.get(0).replace("notes", table), null);
        assertThat(create.statusCode()).as(create.body()).isEqualTo(200);
        String commit = SqlClient.JSON.readTree(create.body()).get("commit").asString();
        assertThat(create.headers().firstValue("Verso-Commit")).hasValue(commit);

        HttpResponse<String> read = post(bodies.get(1).replace("notes", table), commit);
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        JsonNode body = SqlClient.JSON.readTree(read.body());
        assertThat(Long.parseLong(body.get("readCommit").asString())).isGreaterThanOrEqualTo(Long.parseLong(commit));
        assertThat(read.headers().firstValue("Verso-Commit")).hasValue(body.get("readCommit").asString());
    }

    @Test
    void aMinCommitThatIsNotACommitSequenceIsRefused() throws Exception {
        for (String bad : List.of("-1", "twelve", "1.5")) {
            HttpResponse<String> response = post("{\"sql\": \"SHOW TABLES\"}", bad);
            assertThat(response.statusCode()).isEqualTo(400);
            JsonNode problem = SqlClient.JSON.readTree(response.body());
            assertThat(problem.get("code").asString()).isEqualTo("INVALID_REQUEST");
            assertThat(problem.get("detail").asString()).contains("Verso-Min-Commit");
        }
    }

    private HttpResponse<String> post(String body, String minCommit) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/sql")).header(io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (minCommit != null) {
            request.header("Verso-Min-Commit", minCommit);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
