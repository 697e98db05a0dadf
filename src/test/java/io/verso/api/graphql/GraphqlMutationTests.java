package io.verso.api.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.graphql.ResponseError;
import org.springframework.graphql.test.tester.GraphQlTester;

/** Batch writes with receipts and per-key outcomes; typed errors with REST's codes; nothing written on error. */
class GraphqlMutationTests extends GraphqlSupport {

    private static Map<String, Object> row(String token, String amount, long index, long version) {
        Map<String, Object> row = new HashMap<>();
        row.put("chain_id", "1");
        row.put("address", "0x9c2e4f1a");
        row.put("token", token);
        row.put("amount", amount);
        row.put("updated_at", "2026-10-01T12:00:00");
        row.put("balance_index", String.valueOf(index));
        row.put("balance_version", String.valueOf(version));
        return row;
    }

    private static ResponseError only(List<ResponseError> errors) {
        assertThat(errors).hasSize(1);
        return errors.get(0);
    }

    @Test
    void upsertReturnsTheReceiptWithEachKeysOutcome() {
        String balances = GraphqlQueryTests.createBalances(sql, table("balances"));
        long before = sql.latestCommit();
        GraphQlTester.Response response = document("upsertBalances", balances)
                .variable("rows", List.of(row("USDC", "101", 200, 1), row("DAI", "5", 1, 1),
                        row("USDC", "99999999999999999999999999999999999999", 150, 9))) // ordered before 200: loses
                .execute();
        response.errors().verify();
        String commit = response.path("upsert_" + balances + ".commit").entity(String.class).get();
        assertThat(Long.parseLong(commit)).isGreaterThan(before);
        response.path("upsert_" + balances + ".rows").entity(Object.class).isEqualTo(3); // a JSON number, as REST gives it
        response.path("upsert_" + balances + ".lost").entity(Object.class).isEqualTo(1);
        response.path("upsert_" + balances + ".outcomes[*].current").entityList(Boolean.class)
                .containsExactly(true, true, false);
        response.path("upsert_" + balances + ".outcomes[2].token").entity(String.class).isEqualTo("USDC");
        response.path("upsert_" + balances + ".outcomes[2].chain_id").entity(String.class).isEqualTo("1");

        assertThat(sql.rows("SELECT token, amount FROM " + balances + " ORDER BY token"))
                .containsExactly(List.of("DAI", "5"), List.of("USDC", "101"));
        // The losing version is kept in history with its full 38 digits.
        assertThat(sql.rows("SELECT amount FROM history(" + balances + ") WHERE balance_index = 150"))
                .containsExactly(List.of("99999999999999999999999999999999999999"));
    }

    @Test
    void missingOrderingValueIsATypedErrorAndNothingIsWritten() {
        String balances = GraphqlQueryTests.createBalances(sql, table("balances"));
        long before = sql.latestCommit();
        Map<String, Object> bad = row("USDC", "1", 1, 1);
        bad.remove("balance_index");

        GraphQlTester.Response response = document("twoWrites", balances)
                .variable("good", List.of(row("DAI", "5", 1, 1)))
                .variable("bad", List.of(bad))
                .execute();
        response.errors().satisfy(errors -> {
            assertThat(errors).hasSize(2);
            ResponseError second = errors.stream().filter(e -> e.getPath().equals("second")).findFirst().orElseThrow();
            assertThat(second.getExtensions()).containsEntry("code", "MISSING_ORDERING_VALUE")
                    .containsEntry("classification", "BAD_REQUEST");
            assertThat(second.getMessage()).contains("balance_index");
            ResponseError first = errors.stream().filter(e -> e.getPath().equals("first")).findFirst().orElseThrow();
            assertThat(first.getExtensions()).containsEntry("code", "MISSING_ORDERING_VALUE");
            assertThat(first.getMessage()).startsWith("nothing was written");
        });
        response.path("first").valueIsNull();
        assertThat(sql.rows("SELECT token FROM " + balances)).isEmpty();
        assertThat(sql.latestCommit()).isEqualTo(before);
    }

    @Test
    void allMutationFieldsOfARequestMakeOneCommitInDocumentOrder() {
        String balances = GraphqlQueryTests.createBalances(sql, table("balances"));
        GraphQlTester.Response response = document("twoWrites", balances)
                .variable("good", List.of(row("USDC", "1", 5, 1)))
                .variable("bad", List.of(row("USDC", "2", 5, 1))) // same ordering values: the later position wins
                .execute();
        response.errors().verify();
        String first = response.path("first.commit").entity(String.class).get();
        response.path("second.commit").entity(String.class).isEqualTo(first);
        assertThat(sql.rows("SELECT amount FROM " + balances)).containsExactly(List.of("2"));
    }

    @Test
    void insertRefusesALiveKeyWithRestsCode() {
        String balances = GraphqlQueryTests.createBalances(sql, table("balances"));
        document("insertBalances", balances).variable("rows", List.of(row("USDC", "1", 1, 1))).execute()
                .errors().verify();
        document("insertBalances", balances).variable("rows", List.of(row("USDC", "2", 2, 1))).execute()
                .errors().satisfy(errors -> assertThat(only(errors).getExtensions())
                        .containsEntry("code", "KEY_EXISTS").containsEntry("status", 409));
    }

    @Test
    void deleteWritesOrderedTombstonesThatALateWriteDoesNotUndo() {
        String balances = GraphqlQueryTests.createBalances(sql, table("balances"));
        sql.write(GraphqlQueryTests.UPSERT.formatted(balances), "USDC", 1, 100, 1);
        sql.write(GraphqlQueryTests.UPSERT.formatted(balances), "DAI", 1, 100, 1);
        GraphQlTester.Response response = document("deleteBalances", balances)
                .variable("keys", List.of(
                        Map.of("chain_id", "1", "address", "0x9c2e4f1a", "token", "USDC"),
                        Map.of("chain_id", "1", "address", "0x9c2e4f1a", "token", "DAI")))
                .variable("at", Map.of("balance_index", "300", "balance_version", "0"))
                .execute();
        response.errors().verify();
        response.path("delete_" + balances + ".outcomes[*].token").entityList(String.class)
                .containsExactly("USDC", "DAI");
        response.path("delete_" + balances + ".outcomes[*].current").entityList(Boolean.class)
                .containsExactly(true, true);
        // A late write ordered before the tombstone does not bring the key back.
        sql.write(GraphqlQueryTests.UPSERT.formatted(balances), "USDC", 2, 250, 1);
        assertThat(sql.rows("SELECT token FROM " + balances)).isEmpty();

        // Without AT, a table with ordering columns refuses the delete, with REST's code.
        Map<String, Object> key = Map.of("chain_id", "1", "address", "0x9c2e4f1a", "token", "USDC");
        document("deleteBalances", balances).variable("keys", List.of(key)).execute().errors()
                .satisfy(errors -> assertThat(only(errors).getExtensions())
                        .containsEntry("code", "MISSING_ORDERING_VALUE"));
    }

    @Test
    void aCommitAfterTheLatestFailsOnlyItsOwnFieldAndTheRestShareOneCommit() {
        String balances = GraphqlQueryTests.createBalances(sql, table("balances"));
        long c1 = sql.write(GraphqlQueryTests.UPSERT.formatted(balances), "USDC", 7, 1, 1);
        GraphQlTester.Response response = document("asOfMixed", balances)
                .variable("beyond", String.valueOf(c1 + 1_000_000)).execute();
        response.errors().satisfy(errors -> {
            ResponseError error = only(errors);
            assertThat(error.getPath()).isEqualTo("bad");
            assertThat(error.getExtensions()).containsEntry("code", "AS_OF_BEYOND_LATEST");
        });
        response.path("ok.nodes[*].amount").entityList(String.class).containsExactly("7");
        response.path("stats.count").entity(String.class).isEqualTo("1");
        String commit = response.path("_commit").entity(String.class).get();
        assertThat(Long.parseLong(commit)).isGreaterThanOrEqualTo(c1);
    }
}
