package io.verso.api.console;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.verso.support.IntegrationTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the jar serves for the console, over HTTP: the pages and every asset they name come from the
 * service itself (no CDN), and GET /v1/openapi.yaml is the repository's contract.
 */
class ConsoleAssetsTests extends IntegrationTest {

    private static final Pattern ASSET = Pattern.compile("(?:src|href)=\"([^\"]+)\"");

    private Response get(String path) {
        return given().port(port).redirects().follow(true).when().get(path);
    }

    @Test
    void theConsoleIsTheServicesHomePage() {
        Response home = get("/");
        assertThat(home.statusCode()).isEqualTo(200);
        assertThat(home.contentType()).startsWith("text/html");
        assertThat(home.asString()).contains("<title>Verso console</title>");
        assertPagesAssetsAreServedHere("/", home.asString());
    }

    @Test
    void swaggerUiAndGraphiqlPagesLoadNothingFromElsewhere() {
        Response swagger = get("/swagger-ui.html");
        assertThat(swagger.statusCode()).isEqualTo(200);
        assertPagesAssetsAreServedHere("/", swagger.asString());

        Response graphiql = get("/graphiql");
        assertThat(graphiql.statusCode()).isEqualTo(200);
        // The bundled page replaces Spring GraphQL's, which imports its scripts from esm.sh.
        assertThat(graphiql.asString()).contains("<title>Verso GraphiQL</title>").doesNotContain("esm.sh");
        assertPagesAssetsAreServedHere("/graphiql", graphiql.asString());
    }

    @Test
    void theRestContractIsServedAsBuilt() throws IOException {
        Response contract = get("/v1/openapi.yaml");
        assertThat(contract.statusCode()).isEqualTo(200);
        assertThat(contract.contentType()).startsWith("application/yaml");
        assertThat(contract.asString()).isEqualTo(Files.readString(Path.of("openapi", "verso.yaml")));
    }

    private void assertPagesAssetsAreServedHere(String pagePath, String html) {
        Matcher m = ASSET.matcher(html);
        int assets = 0;
        while (m.find()) {
            String ref = m.group(1);
            assertThat(ref).as("asset of %s", pagePath).doesNotStartWith("http").doesNotStartWith("//");
            if (ref.startsWith("#") || !ref.contains("assets/")) {
                continue;
            }
            String resolved = java.net.URI.create("http://x" + pagePath).resolve(ref).getPath()
                    .replaceFirst("^(/\\.\\.)+/", "/"); // as a browser does: no parent above the root
            assertThat(get(resolved).statusCode()).as(resolved).isEqualTo(200);
            assets++;
        }
        assertThat(assets).as("assets named by %s", pagePath).isPositive();
    }
}
