package io.verso.api.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.graphql.test.tester.GraphQlTester;

/**
 * One response, one commit: while a writer commits the same counter to a VERSIONED, an APPEND and
 * an UPSERT table in one request, every response shows the three tables, aliased and nested, at
 * the same counter, and reports that commit.
 */
class GraphqlSnapshotTests extends GraphqlSupport {

    @Test
    void everyFieldOfAResponseReadsOneCommitUnderConcurrentWrites() throws Exception {
        String v = table("snap_v");
        String a = table("snap_a");
        String u = table("snap_u");
        sql.write("CREATE TABLE " + v + " (k INT PRIMARY KEY, v BIGINT) VERSIONED;"
                + "CREATE TABLE " + a + " (v BIGINT) APPEND;"
                + "CREATE TABLE " + u + " (k INT PRIMARY KEY, v BIGINT) UPSERT");
        String write = "UPSERT INTO " + v + " VALUES (1, ?); INSERT INTO " + a + " VALUES (?); UPSERT INTO " + u
                + " VALUES (1, ?)";
        sql.write(write, 1, 1, 1);

        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Future<Integer> writer = pool.submit(() -> {
            int i = 1;
            while (!stop.get() && i < 500) {
                i++;
                sql.write(write, i, i, i);
            }
            return i;
        });
        List<Long> seen = new ArrayList<>();
        try {
            for (int r = 0; r < 25; r++) {
                GraphQlTester.Response response = document("snapshot", Map.of("VTABLE", v, "ATABLE", a, "UTABLE", u))
                        .execute();
                response.errors().verify();
                long counter = Long.parseLong(response.path("versioned.v").entity(String.class).get());
                response.path("versioned._history").entityList(Object.class).hasSize((int) counter);
                response.path("versioned._history[-1].v").entity(String.class).isEqualTo(String.valueOf(counter));
                response.path("again.nodes[0].v").entity(String.class).isEqualTo(String.valueOf(counter));
                response.path("appended.count").entity(String.class).isEqualTo(String.valueOf(counter));
                response.path("appended.max.v").entity(String.class).isEqualTo(String.valueOf(counter));
                response.path("current.v").entity(String.class).isEqualTo(String.valueOf(counter));
                String commit = response.path("_commit").entity(String.class).get();
                response.path("versioned._asOfCommit").entity(String.class).isEqualTo(commit);
                response.path("again.asOfCommit").entity(String.class).isEqualTo(commit);
                response.path("appended.asOfCommit").entity(String.class).isEqualTo(commit);
                seen.add(counter);
            }
        } finally {
            stop.set(true);
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(writer.get()).isGreaterThan(1);
        assertThat(seen).isSorted();
        assertThat(seen.get(seen.size() - 1)).isGreaterThan(seen.get(0)); // the writes really overlapped
    }
}
