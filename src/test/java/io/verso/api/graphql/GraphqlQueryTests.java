package io.verso.api.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.graphql.test.tester.GraphQlTester;

/** Typed reads: now and AS OF a commit after out-of-order writes; where, orderBy, pages, aggregates, history. */
class GraphqlQueryTests extends GraphqlSupport {

    static final String UPSERT = """
            UPSERT INTO %s (chain_id, address, token, amount, updated_at, balance_index, balance_version)
            VALUES (1, '0x9c2e4f1a', ?, ?, '2026-10-01 12:00:00.000', ?, ?)
            ATTRIBUTE GROUP holding""";

    @Autowired
    BatchRunner batches;

    static String createBalances(io.verso.support.SqlClient sql, String balances) {
        sql.write("""
                CREATE TABLE %s (
                    chain_id BIGINT, address TEXT, token TEXT,
                    amount NUMERIC(38, 0), updated_at TIMESTAMP(3), balance_index BIGINT, balance_version BIGINT,
                    PRIMARY KEY (chain_id, address, token),
                    ATTRIBUTE GROUP holding (amount, updated_at, balance_index, balance_version)
                        VALID BY (balance_index) REVISION BY (balance_version)
                ) VERSIONED""".formatted(balances));
        return balances;
    }

    @Test
    void readsNowAndAsOfACommitAfterOutOfOrderWrites() {
        String balances = createBalances(sql, table("balances"));
        long c1 = sql.write(UPSERT.formatted(balances), "USDC", 101, 100, 1);
        long c2 = sql.write(UPSERT.formatted(balances), "USDC", 102, 200, 1);
        sql.write(UPSERT.formatted(balances), "USDC", 103, 150, 9); // ordered before write 2: loses on arrival
        long c4 = sql.write(UPSERT.formatted(balances), "USDC", 104, 200, 2);

        GraphQlTester.Response response = document("balances", balances).variable("asOf", String.valueOf(c2)).execute();
        response.errors().verify();
        response.path("now.asOfCommit").entity(String.class).isEqualTo(String.valueOf(c4));
        response.path("now.nodes[0]").entity(Map.class).isEqualTo(Map.of(
                "chain_id", "1", "address", "0x9c2e4f1a", "token", "USDC", "amount", "104",
                "updated_at", "2026-10-01T12:00:00", "balance_index", "200", "balance_version", "2",
                "_asOfCommit", String.valueOf(c4)));
        response.path("then.asOfCommit").entity(String.class).isEqualTo(String.valueOf(c2));
        response.path("then.nodes[*].amount").entityList(String.class).containsExactly("102");
        response.path("one.amount").entity(String.class).isEqualTo("102");
        response.path("_commit").entity(String.class).isEqualTo(String.valueOf(c4));

        document("balances", balances).variable("asOf", String.valueOf(c1)).execute()
                .path("then.nodes[*].amount").entityList(String.class).containsExactly("101");
    }

    @Test
    void historyOfAKeyAndNestedHistoryAsOfACommitInOneRead() {
        String balances = createBalances(sql, table("balances"));
        long c1 = sql.write(UPSERT.formatted(balances), "USDC", 101, 100, 1);
        long c2 = sql.write(UPSERT.formatted(balances), "USDC", 102, 200, 1);
        long c3 = sql.write(UPSERT.formatted(balances), "USDC", 103, 150, 9);
        sql.write(UPSERT.formatted(balances), "USDC", 104, 200, 2);
        for (String token : List.of("DAI", "WETH", "USDT")) {
            sql.write(UPSERT.formatted(balances), token, 1, 1, 1);
        }

        GraphQlTester.Response now = document("history", balances).execute();
        now.errors().verify();
        now.path("versions[*].amount").entityList(String.class).containsExactly("101", "102", "103", "104");
        now.path("versions[2]._current_from").valueIsNull();
        now.path("versions[0]._current_to").entity(String.class).isEqualTo(String.valueOf(c2));
        now.path("rows.nodes[*].token").entityList(String.class).containsExactly("DAI", "USDC", "USDT", "WETH");
        now.path("rows.nodes[1]._history[*].amount").entityList(String.class)
                .containsExactly("101", "102", "103", "104");
        now.path("rows.nodes[0]._history[*].amount").entityList(String.class).containsExactly("1");

        long before = batches.engineCalls();
        GraphQlTester.Response then = document("history", balances).variable("asOf", String.valueOf(c3)).execute();
        then.errors().verify();
        // Two levels, two engine calls: the four rows' _history fields are one statement, not four.
        assertThat(batches.engineCalls() - before).isEqualTo(2);
        then.path("versions[*].amount").entityList(String.class).containsExactly("101", "102", "103");
        then.path("versions[1]._current_to").valueIsNull(); // still current at c3
        then.path("rows.nodes[*].token").entityList(String.class).containsExactly("USDC");
        then.path("rows.nodes[0]._history[*]._commit").entityList(String.class)
                .containsExactly(String.valueOf(c1), String.valueOf(c2), String.valueOf(c3));
    }

    @Test
    void whereOrderByCursorPagesAndAggregatesKeepFullPrecision() {
        String items = table("items");
        sql.write("CREATE TABLE " + items + " (id INT PRIMARY KEY, name TEXT, price NUMERIC(30, 2), qty INT,"
                + " big BIGINT, seen TIMESTAMPTZ, tags JSONB) VERSIONED");
        sql.write("UPSERT INTO " + items + " VALUES "
                + "(1, 'apple', 1234567890123456789012345678.10, 5, 9007199254740993, '2026-01-01T10:00:00Z', '{\"a\": [1, 2.50]}'),"
                + "(2, 'avocado', 3.00, NULL, 1, '2026-01-02T10:00:00+02:00', NULL),"
                + "(3, 'banana', 3.00, 7, 2, NULL, NULL),"
                + "(4, 'cherry', 0.50, 1, 3, NULL, NULL),"
                + "(5, 'date', 9.99, 2, 4, NULL, NULL),"
                + "(6, 'elder', 0.10, 3, 5, NULL, NULL)");

        Map<String, Object> where = Map.of("or", List.of(
                Map.of("price", Map.of("gt", "1")),
                Map.of("name", Map.of("like", "a%"))), "not", Map.of("qty", Map.of("isNull", true)));
        GraphQlTester.Response first = document("itemsPage", items).variable("where", where).variable("limit", 2)
                .execute();
        first.errors().verify();
        first.path("page.nodes[*].name").entityList(String.class).containsExactly("apple", "date");
        first.path("page.nodes[0].price").entity(String.class).isEqualTo("1234567890123456789012345678.10");
        first.path("page.nodes[0].big").entity(String.class).isEqualTo("9007199254740993");
        first.path("page.nodes[0].seen").entity(String.class).isEqualTo("2026-01-01T10:00:00Z");
        first.path("page.nodes[0].tags").entity(Map.class).isEqualTo(Map.of("a", List.of(1, 2.50)));
        first.path("page.pageInfo.hasNextPage").entity(Boolean.class).isEqualTo(true);
        first.path("stats.count").entity(String.class).isEqualTo("3");
        first.path("stats.min.name").entity(String.class).isEqualTo("apple");
        first.path("stats.max.big").entity(String.class).isEqualTo("9007199254740993");
        first.path("stats.sum.big").entity(String.class).isEqualTo("9007199254740999");
        first.path("stats.sum.qty").entity(String.class).isEqualTo("14");
        first.path("stats.sum.price").entity(String.class).isEqualTo("1234567890123456789012345691.09");
        String cursor = first.path("page.pageInfo.endCursor").entity(String.class).get();
        String commit = first.path("page.asOfCommit").entity(String.class).get();

        // A write between pages does not move the next page: the cursor keeps the first page's commit.
        sql.write("UPSERT INTO " + items + " (id, name, price, qty) VALUES (7, 'aardvark', 100, 1)");
        GraphQlTester.Response second = document("itemsPage", items).variable("where", where).variable("limit", 2)
                .variable("after", cursor).execute();
        second.errors().verify();
        second.path("page.nodes[*].name").entityList(String.class).containsExactly("banana");
        second.path("page.asOfCommit").entity(String.class).isEqualTo(commit);
        second.path("page.pageInfo.hasNextPage").entity(Boolean.class).isEqualTo(false);
    }
}
