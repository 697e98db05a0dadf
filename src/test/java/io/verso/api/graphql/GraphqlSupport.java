package io.verso.api.graphql;

import io.verso.support.IntegrationTest;
import io.verso.support.TestSecurity;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.graphql.test.tester.GraphQlTester;
import org.springframework.graphql.test.tester.HttpGraphQlTester;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * GraphQL tests over real HTTP on the shared application context. The tester is built from the
 * random port rather than with @AutoConfigureHttpGraphQlTester, which would start a second context.
 * Documents live in src/test/resources/graphql-test; the word TABLE in them stands for the test's
 * own table name, so field names like {@code TABLE_by_key} become {@code balances_x1_3_by_key}.
 */
abstract class GraphqlSupport extends IntegrationTest {

    protected HttpGraphQlTester graphql;

    @BeforeEach
    void graphqlClient() {
        WebTestClient client = WebTestClient.bindToServer(new JdkClientHttpConnector())
                .baseUrl("http://localhost:" + port + "/graphql")
                .responseTimeout(Duration.ofSeconds(60))
                .defaultHeader(TestSecurity.HEADER, TestSecurity.ADMIN_KEY)
                .build();
        graphql = HttpGraphQlTester.create(client);
    }

    /** The document {@code graphql-test/<name>.graphql} with TABLE replaced by {@code table}. */
    protected GraphQlTester.Request<?> document(String name, String table) {
        return graphql.document(text(name).replace("TABLE", table));
    }

    /** The document with each placeholder replaced, longest placeholder first. */
    protected GraphQlTester.Request<?> document(String name, java.util.Map<String, String> tables) {
        String text = text(name);
        java.util.List<String> keys = new java.util.ArrayList<>(tables.keySet());
        keys.sort(java.util.Comparator.comparingInt(String::length).reversed());
        for (String key : keys) {
            text = text.replace(key, tables.get(key));
        }
        return graphql.document(text);
    }

    static String text(String name) {
        try (InputStream in = GraphqlSupport.class.getResourceAsStream("/graphql-test/" + name + ".graphql")) {
            if (in == null) {
                throw new IllegalArgumentException("no document graphql-test/" + name + ".graphql");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
