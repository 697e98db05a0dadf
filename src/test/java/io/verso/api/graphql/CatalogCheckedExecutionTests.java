package io.verso.api.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which documents may run on an unchecked schema: those that cannot hold a mutation or a subscription. */
class CatalogCheckedExecutionTests {

    @ParameterizedTest
    @ValueSource(strings = {"{ t_by_key(id: 1) { v } }", "query Q($k: BigInt!) { t_by_key(id: $k) { v } }",
        "{ mutation_log_by_key(id: 1) { v } }", "{ a: submutation { x } }", "query Subscriptions { subscription_ { n } }",
        "{ t(where: {v: {eq: \"mutations\"}}) { nodes { v } } }"})
    void aDocumentWithoutEitherNameHoldsOnlyQueries(String document) {
        assertThat(CatalogCheckedExecution.onlyQueries(document)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"mutation { insert_t(rows: []) { commit } }", "subscription S { t_changes { commit } }",
        "{ a } mutation M { b }", "query A { a }\nsubscription\n{ b }", "{mutation}",
        "{ t(where: {v: {eq: \"mutation\"}}) { nodes { v } } }", "# mutation\n{ a }"})
    void aDocumentThatMayHoldAnotherOperationRunsChecked(String document) {
        assertThat(CatalogCheckedExecution.onlyQueries(document)).isFalse();
    }
}
