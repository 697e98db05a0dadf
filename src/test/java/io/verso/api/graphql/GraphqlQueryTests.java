package io.verso.api.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Typed reads: now and AS OF a commit, after out-of-order writes. */
class GraphqlQueryTests extends GraphqlSupport {

    private static final String UPSERT = """
            UPSERT INTO %s (chain_id, address, token, amount, updated_at, balance_index, balance_version)
            VALUES (1, '0x9c2e4f1a', 'USDC', ?, '2026-10-01 12:00:00.000', ?, ?)
            ATTRIBUTE GROUP holding""";

    private String balances() {
        String balances = table("balances");
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
        String balances = balances();
        long c1 = sql.write(UPSERT.formatted(balances), 101, 100, 1);
        long c2 = sql.write(UPSERT.formatted(balances), 102, 200, 1);
        sql.write(UPSERT.formatted(balances), 103, 150, 9); // ordered before write 2: loses on arrival
        long c4 = sql.write(UPSERT.formatted(balances), 104, 200, 2);

        var response = document("balances", balances).variable("asOf", String.valueOf(c2)).execute();
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
        assertThat(List.of(c1, c2, c4)).isSorted();
    }
}
