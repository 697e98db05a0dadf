package io.verso.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.catalog.Catalog;
import io.verso.engine.RetentionJob;
import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A table-level retention setting, applied by the job, keeps exactly the last N commits readable. */
class RetentionJobTests extends IntegrationTest {

    @Autowired
    RetentionJob job;
    @Autowired
    Catalog catalog;

    @Test
    void keepsTheLastCommitsAndAnswersThemAsBefore() {
        String t = table("ret");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        long[] commits = new long[6];
        for (int i = 0; i < commits.length; i++) {
            commits[i] = sql.write("UPSERT INTO " + t + " VALUES (1, ?), (2, ?)", i, i * 10);
        }
        sql.write("ALTER TABLE " + t + " SET HISTORY RETENTION 3 COMMITS");
        List<List<String>> atFourth = sql.rows("SELECT * FROM " + t + " AS OF COMMIT " + commits[4] + " ORDER BY k");

        long deleted = job.apply(catalog.find(t).orElseThrow());
        long latest = sql.latestCommit();
        long horizon = catalog.find(t).orElseThrow().horizon();
        assertThat(deleted).isPositive();
        assertThat(horizon).isEqualTo(latest - 1 - 3 + 1); // as computed before the job's own commit
        assertThat(sql.rows("SELECT * FROM " + t + " AS OF COMMIT " + commits[4] + " ORDER BY k")).isEqualTo(atFourth);
        sql.fails(400, "AS_OF_BEFORE_HORIZON", "SELECT * FROM " + t + " AS OF COMMIT " + commits[0]);
        assertThat(sql.rows("SELECT * FROM " + t + " ORDER BY k")).containsExactly(List.of("1", "5"), List.of("2", "50"));
        assertThat(sql.run("SHOW CREATE TABLE " + t).toString()).contains("SET HISTORY RETENTION 3 COMMITS");

        sql.write("ALTER TABLE " + t + " SET HISTORY RETENTION '1 day'");
        assertThat(job.apply(catalog.find(t).orElseThrow())).isZero(); // nothing is a day old yet
        sql.fails(400, "INVALID_VALUE", "ALTER TABLE " + t + " SET HISTORY RETENTION 'soon'");
    }
}
