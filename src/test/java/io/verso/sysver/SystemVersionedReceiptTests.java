package io.verso.sysver;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.RestClient;
import io.verso.support.TestSecurity;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.graphql.test.tester.GraphQlTester;
import org.springframework.graphql.test.tester.HttpGraphQlTester;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * A write to a system-versioned table that committed answers its receipt on every surface, with
 * each row's key and outcome: a client that saw an error would retry and write twice.
 */
class SystemVersionedReceiptTests extends IntegrationTest {

    private RestClient rest;
    private HttpGraphQlTester graphql;
    private String stock;

    @BeforeEach
    void clients() {
        rest = new RestClient(port);
        WebTestClient client = WebTestClient.bindToServer(new JdkClientHttpConnector())
                .baseUrl("http://localhost:" + port + "/graphql").responseTimeout(Duration.ofSeconds(60))
                .defaultHeader(TestSecurity.HEADER, TestSecurity.ADMIN_KEY).build();
        graphql = HttpGraphQlTester.create(client);
        stock = table("stock");
        sql.write("CREATE TABLE " + stock + " (article INT PRIMARY KEY, qte INT NOT NULL) WITH SYSTEM VERSIONING");
    }

    private static String document(String name) {
        try (InputStream in = SystemVersionedReceiptTests.class.getResourceAsStream("/graphql-test/" + name + ".graphql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void graphqlInsertAnswersItsReceipt() {
        long before = sql.latestCommit();
        GraphQlTester.Response response = graphql.document(document("insertStock").replace("TABLE", stock)).execute();
        response.errors().verify();
        String commit = response.path("insert_" + stock + ".commit").entity(String.class).get();
        assertThat(Long.parseLong(commit)).isGreaterThan(before);
        response.path("insert_" + stock + ".outcomes[*].current").entityList(Boolean.class).containsExactly(true, true);
        response.path("insert_" + stock + ".outcomes[1].article").entity(Integer.class).isEqualTo(78);
        assertThat(sql.rows("SELECT article, qte FROM " + stock + " ORDER BY article"))
                .containsExactly(List.of("77", "3"), List.of("78", "4"));
    }

    @Test
    void restWriteAnswersItsReceipt() {
        long before = sql.latestCommit();
        JsonNode receipt = RestClient.expect(rest.json(Map.of("rows", List.of(Map.of("article", 5, "qte", 1))))
                .post("/v1/tables/" + stock + "/rows"), 200);
        assertThat(Long.parseLong(receipt.path("commit").asString())).isGreaterThan(before);
        assertThat(receipt.path("outcomes").get(0).path("key").path("article").asInt()).isEqualTo(5);
        assertThat(receipt.path("outcomes").get(0).path("outcome").asString()).isEqualTo("CURRENT");
        assertThat(sql.rows("SELECT qte FROM " + stock)).containsExactly(List.of("1"));
    }
}
