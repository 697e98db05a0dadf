package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.restassured.response.Response;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * verso.max-result-rows and verso.max-result-chars bound a request, not each of its statements: many
 * statements that each stay under the bounds are refused together once their results pass them, and the
 * service goes on answering light reads meanwhile.
 */
class RequestResultBudgetTests extends IntegrationTest {

    @Test
    void manyLargeSelectsInOneRequestAreRefusedTogetherWhileLightReadsGoOn() {
        String big = table("budget");
        sql.write("CREATE TABLE " + big + " (k INT PRIMARY KEY, v TEXT)");
        StringBuilder upsert = new StringBuilder("UPSERT INTO " + big + " (k, v) VALUES ");
        List<Object> values = new ArrayList<>();
        for (int k = 0; k < 3000; k++) {
            upsert.append(k > 0 ? ", " : "").append("(?, ?)");
            values.add(k);
            values.add("row " + k);
        }
        sql.write(upsert.toString(), values.toArray());
        // 40 statements of 3,000 rows each: 120,000 rows, past the 100,000 of verso.max-result-rows, though
        // every statement alone is far under it.
        String many = String.join("; ", java.util.Collections.nCopies(40, "SELECT * FROM " + big));
        CompletableFuture<Response> heavy = CompletableFuture.supplyAsync(() -> sql.post(many));
        for (int i = 0; i < 10; i++) {
            assertThat(sql.rows("SELECT v FROM " + big + " WHERE k = ?", i)).containsExactly(List.of("row " + i));
        }
        Response refused = heavy.join();
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.jsonPath().getString("code")).isEqualTo("RESULT_TOO_LARGE");
        assertThat(refused.jsonPath().getString("detail")).contains("100000 rows", "over all its statements");
        // Under the bound together, the same statements answer.
        assertThat(sql.run(String.join("; ", java.util.Collections.nCopies(30, "SELECT * FROM " + big)))
                .get("results")).hasSize(30);
    }

    @Test
    void rowsAndCharactersAreSummedOverTheStatementsTheBudgetCounts() {
        ResultBudget budget = new ResultBudget(3, 100);
        budget.add(10);
        budget.add(10);
        assertThat(budget.rowsLeft()).isEqualTo(1);
        budget.add(10);
        assertThatThrownBy(() -> budget.add(1)).isInstanceOfSatisfying(VersoException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.RESULT_TOO_LARGE));
        ResultBudget chars = new ResultBudget(100, 100);
        chars.add(60);
        assertThatThrownBy(() -> chars.add(60)).isInstanceOfSatisfying(VersoException.class,
                e -> assertThat(e.getMessage()).contains("100 characters", "over all its statements"));
    }
}
