package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.security.Caller;
import io.verso.sql.SqlParser;
import io.verso.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Which reads are fixed by their AS OF alone, so that a snapshot missing later commits (a hot
 * standby's) answers them exactly: what the read replica router relies on to serve a caller who
 * names no commit of its own. A current read, a time at or after the latest commit, history or
 * FOR SYSTEM_TIME ALL must not count as fixed; AS OF COMMIT and a time before the latest commit do.
 */
class ReadFixityTests extends IntegrationTest {

    @Autowired
    StatementEngine engine;

    private String t;
    private long c1;

    @BeforeEach
    void table() {
        t = table("fixity");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED");
        c1 = sql.write("UPSERT INTO " + t + " VALUES (1, 1)");
        sql.write("UPSERT INTO " + t + " VALUES (1, 2)");
    }

    private boolean fixed(String statement, Object... params) {
        ExecutionResult result = Caller.asSystem(() ->
                engine.execute(SqlParser.parse(statement), List.of(params), "test"));
        return ((StatementResult.Rows) result.results().get(0)).fixed();
    }

    @Test
    void onlyReadsPinnedBeforeTheSnapshotsEndAreFixed() {
        assertThat(fixed("SELECT v FROM " + t)).as("current rows").isFalse();
        assertThat(fixed("SELECT v FROM " + t + " AS OF COMMIT ?", c1)).as("AS OF COMMIT").isTrue();
        assertThat(fixed("SELECT a.v FROM " + t + " AS OF COMMIT " + c1 + " a JOIN " + t + " b ON a.k = b.k"))
                .as("an AS OF relation joined to current rows").isFalse();
        assertThat(fixed("SELECT v FROM " + t + " AS OF TIMESTAMP '2999-01-01T00:00:00Z'"))
                .as("a time after every commit names whatever commit is latest").isFalse();
        assertThat(fixed("SELECT v FROM " + t + " AS OF TIMESTAMP '2000-01-01T00:00:00Z'"))
                .as("a time before every commit").isTrue();
        assertThat(fixed("SELECT count(*) FROM history(" + t + ")")).as("all history so far").isFalse();
        assertThat(fixed("SELECT 1")).as("no relation").isTrue();
        assertThat(fixed("SHOW TABLES")).as("a catalog listing").isFalse();
    }
}
