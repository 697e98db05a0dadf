package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A SELECT result's {@code asOfCommit} names the commit whose state it read: reading AS OF that
 * commit returns the same rows, in a request that writes before, after or around the SELECT too.
 */
class ReportedCommitTests extends IntegrationTest {

    @Test
    void aReadAfterTheRequestsOwnWriteReportsTheRequestsCommit() {
        String t = versioned("own");
        sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        JsonNode response = sql.run("UPSERT INTO " + t + " VALUES (1, 2); SELECT k, v FROM " + t);
        String commit = response.get("commit").asString();

        JsonNode read = response.get("results").get(1);
        assertThat(read.get("asOfCommit").asString()).isEqualTo(commit);
        assertThat(rowsOf(read)).containsExactly(List.of("1", "2"));
        assertThat(sql.rows("SELECT k, v FROM " + t + " AS OF COMMIT ?", commit)).containsExactly(List.of("1", "2"));
    }

    @Test
    void aReadBeforeTheRequestsWriteReportsTheCommitBefore() {
        String t = versioned("before");
        long before = sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        JsonNode response = sql.run("SELECT k, v FROM " + t + "; UPSERT INTO " + t + " VALUES (1, 2)");

        JsonNode read = response.get("results").get(0);
        assertThat(read.get("asOfCommit").asString()).isEqualTo(Long.toString(before));
        assertThat(rowsOf(read)).containsExactly(List.of("1", "1"));
        assertThat(sql.rows("SELECT k, v FROM " + t + " AS OF COMMIT ?", read.get("asOfCommit").asString()))
                .containsExactly(List.of("1", "1"));
    }

    @Test
    void aReadOfATableWrittenOnlyAfterItInTheRequestStillReportsTheRequestsCommitWhenNothingElseChanged() {
        String t = versioned("read");
        String other = versioned("other");
        sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        JsonNode response = sql.run("UPSERT INTO " + t + " VALUES (1, 2); SELECT k, v FROM " + t
                + "; UPSERT INTO " + other + " VALUES (7, 7)");

        JsonNode read = response.get("results").get(1);
        assertThat(read.get("asOfCommit").asString()).isEqualTo(response.get("commit").asString());
        assertThat(sql.rows("SELECT k, v FROM " + t + " AS OF COMMIT ?", response.get("commit").asString()))
                .containsExactly(List.of("1", "2"));
    }

    @Test
    void aReadBetweenTwoWritesOfItsTableNamesNoCommitForNoCommitHoldsThoseRows() {
        String t = versioned("between");
        sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        JsonNode response = sql.run("UPSERT INTO " + t + " VALUES (1, 2); SELECT k, v FROM " + t
                + "; UPSERT INTO " + t + " VALUES (1, 3)");

        JsonNode read = response.get("results").get(1);
        assertThat(rowsOf(read)).containsExactly(List.of("1", "2"));
        assertThat(read.has("asOfCommit")).as(read.toString()).isFalse();
    }

    @Test
    void aReadOnlyRequestReportsTheLatestCommitItsRowsAreAt() {
        String t = versioned("plain");
        long commit = sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        JsonNode read = sql.run("SELECT k, v FROM " + t).get("results").get(0);
        assertThat(Long.parseLong(read.get("asOfCommit").asString())).isGreaterThanOrEqualTo(commit);
        assertThat(sql.rows("SELECT k, v FROM " + t + " AS OF COMMIT ?", read.get("asOfCommit").asString()))
                .containsExactly(List.of("1", "1"));
    }

    @Test
    void aTimeBeforeTheFirstCommitReadsNoRowsAndNamesNoCommit() {
        String t = versioned("early");
        sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        JsonNode read = sql.run("SELECT k, v FROM " + t + " AS OF TIMESTAMP '2000-01-01T00:00:00Z'")
                .get("results").get(0);
        assertThat(read.get("rows")).isEmpty();
        assertThat(read.has("asOfCommit")).as("commit 0 is no commit: AS OF COMMIT 0 is refused").isFalse();
    }

    private String versioned(String prefix) {
        String t = table(prefix);
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        return t;
    }

    private static List<List<String>> rowsOf(JsonNode result) {
        List<List<String>> rows = new java.util.ArrayList<>();
        result.get("rows").forEach(row -> {
            List<String> values = new java.util.ArrayList<>();
            row.forEach(v -> values.add(v.asString()));
            rows.add(values);
        });
        return rows;
    }
}
