package io.verso.api.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.StringJoiner;
import org.junit.jupiter.api.Test;
import org.springframework.graphql.ResponseError;

/** Depth, complexity, limit and result-size limits refuse with errors a client can branch on. */
class GraphqlLimitsTests extends GraphqlSupport {

    @Test
    void aQueryDeeperThanMaxDepthIsRefusedButIntrospectionAloneIsNot() {
        String t = table("deep");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT)");
        String deepIntrospection = "__type(name: \"Query\") { fields { type { ofType { ofType { ofType { ofType "
                + "{ ofType { name } } } } } } } }";
        graphql.document("{ " + deepIntrospection + " }").execute().errors().verify();
        graphql.document("{ " + t + " { nodes { k } } " + deepIntrospection + " }").execute().errors()
                .satisfy(errors -> {
                    ResponseError error = errors.get(0);
                    assertThat(error.getMessage()).contains("verso.graphql.max-depth");
                    assertThat(error.getExtensions()).containsEntry("code", "INVALID_REQUEST")
                            .containsEntry("limit", "maxDepth");
                });
    }

    @Test
    void aQuerySelectingMoreFieldsThanMaxComplexityIsRefused() {
        String t = table("wide");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT)");
        StringJoiner query = new StringJoiner(" ", "{ ", " }");
        for (int i = 0; i < 400; i++) {
            query.add("a" + i + ": " + t + " { nodes { k v } }");
        }
        graphql.document(query.toString()).execute().errors().satisfy(errors -> {
            assertThat(errors).hasSize(1);
            assertThat(errors.get(0).getMessage()).contains("verso.graphql.max-complexity");
            assertThat(errors.get(0).getExtensions()).containsEntry("limit", "maxComplexity");
        });
    }

    @Test
    void aLimitAboveMaxLimitAndAResponseAboveMaxResultRowsAreRefused() {
        String t = table("many");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY) UPSERT");
        StringJoiner values = new StringJoiner(", ");
        for (int i = 0; i < 1000; i++) {
            values.add("(" + i + ")");
        }
        sql.write("UPSERT INTO " + t + " VALUES " + values);

        graphql.document("{ " + t + "(limit: 1001) { nodes { k } } }").execute().errors().satisfy(errors -> {
            assertThat(errors).hasSize(1);
            assertThat(errors.get(0).getExtensions()).containsEntry("code", "INVALID_LIMIT")
                    .containsEntry("argument", "limit");
        });

        StringJoiner query = new StringJoiner(" ", "{ ", " }");
        for (int i = 0; i < 11; i++) {
            query.add("a" + i + ": " + t + "(limit: 1000) { nodes { k } }");
        }
        graphql.document(query.toString()).execute().errors().satisfy(errors -> {
            assertThat(errors).isNotEmpty();
            assertThat(errors.get(0).getMessage()).contains("verso.graphql.max-result-rows");
            assertThat(errors.get(0).getExtensions()).containsEntry("code", "INVALID_REQUEST");
        });
    }
}
