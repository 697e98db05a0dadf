package io.verso.api.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.graphql.test.tester.GraphQlTester;

/** The schema follows DDL made through POST /v1/sql, without a restart, and never shows half a schema. */
class GraphqlSchemaRefreshTests extends GraphqlSupport {

    @Autowired
    RefreshingGraphQlSource schemas;

    @Autowired
    BatchRunner batches;

    @Autowired
    MeterRegistry meters;

    /** The GraphQL requests observed so far (Spring GraphQL's {@code graphql.request}), by outcome. */
    private Map<String, Long> graphqlRequests() {
        return meters.find("graphql.request").timers().stream().collect(Collectors.groupingBy(
                t -> String.valueOf(t.getId().getTag("graphql.outcome")), Collectors.summingLong(Timer::count)));
    }

    /** A new VERSIONED table (k INT PRIMARY KEY, v {@code type}) holding the row (1, {@code value}). */
    private String oneRow(String prefix, String type, String value) {
        String t = table(prefix);
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v " + type + ") VERSIONED; UPSERT INTO " + t
                + " VALUES (1, " + value + ")");
        return t;
    }

    @Test
    void aQueryOnAKnownSchemaAsksTheCatalogNothingAndAMutationRunsOnce() {
        String t = oneRow("known", "TEXT", "'one'");
        String query = "{ " + t + "_by_key(k: 1) { v } }";
        graphql.document(query).execute().path(t + "_by_key.v").entity(String.class).isEqualTo("one");
        long checks = schemas.catalogChecks();
        long calls = batches.engineCalls();
        for (int i = 0; i < 10; i++) {
            graphql.document(query).execute().path(t + "_by_key.v").entity(String.class).isEqualTo("one");
        }
        assertThat(schemas.catalogChecks() - checks).isZero();
        assertThat(batches.engineCalls() - calls).isEqualTo(10);

        String log = table("log");
        sql.write("CREATE TABLE " + log + " (article INT, qte INT) APPEND");
        long before = sql.latestCommit();
        Map<String, Long> observed = graphqlRequests();
        graphql.document("mutation { insert_" + log + "(rows: [{article: 1, qte: 2}]) { commit } }").execute()
                .errors().verify();
        assertThat(sql.latestCommit()).isEqualTo(before + 1);
        // One request observed, and as a success: a mutation is never started on an unchecked schema.
        Map<String, Long> after = graphqlRequests();
        assertThat(after.getOrDefault("SUCCESS", 0L) - observed.getOrDefault("SUCCESS", 0L)).isEqualTo(1);
        assertThat(after.values().stream().mapToLong(Long::longValue).sum()
                - observed.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1);
        graphql.document("{ " + log + " { nodes { article } } }").execute()
                .path(log + ".nodes[*].article").entityList(Integer.class).containsExactly(1);
    }

    @Test
    void aQueryTheOldSchemaStillValidatesIsAnsweredOnTheNewOne() {
        String t = oneRow("retyped", "TEXT", "'seven'");
        String query = "{ " + t + "_by_key(k: 1) { v } }";
        for (int i = 0; i < 2; i++) {
            graphql.document(query).execute().path(t + "_by_key.v").entity(Object.class).isEqualTo("seven");
        }
        // The old schema's v (String) still takes the query, and would answer "7".
        sql.write("DROP TABLE " + t + "; CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT) VERSIONED; UPSERT INTO "
                + t + " VALUES (1, 7)");
        GraphQlTester.Response response = graphql.document(query).execute();
        response.errors().verify();
        response.path(t + "_by_key.v").entity(Object.class).isEqualTo(7);
    }

    @Test
    void createDropAndRecreateChangeTheSchema() {
        String t = table("fresh");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT)");
        sql.write("UPSERT INTO " + t + " VALUES (1, 'one')");
        document("simple", t).execute().path(t + ".nodes[*].v").entityList(String.class).containsExactly("one");

        sql.write("DROP TABLE " + t);
        document("simple", t).execute().errors().satisfy(errors -> {
            assertThat(errors).isNotEmpty();
            assertThat(errors.get(0).getErrorType().toString()).isEqualTo("ValidationError");
            assertThat(errors.get(0).getMessage()).contains(t);
        });

        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v INT, w TEXT) VERSIONED");
        sql.write("UPSERT INTO " + t + " VALUES (1, 7, 'seven')");
        GraphQlTester.Response response = graphql.document("{ " + t + " { nodes { k v w } } " + t
                + "_by_key(k: 1, asOfCommit: \"" + sql.latestCommit() + "\") { w } }").execute();
        response.errors().verify();
        response.path(t + ".nodes[0].v").entity(Integer.class).isEqualTo(7);
        response.path(t + "_by_key.w").entity(String.class).isEqualTo("seven");
    }

    @Test
    void alterTableChangesTheTypeAndRenamesFollow() {
        String t = table("altered");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT, ix INT) VERSIONED VALID BY (ix)");
        long before = sql.write("UPSERT INTO " + t + " VALUES (1, 'one', 1)");
        sql.write("ALTER TABLE " + t + " ADD COLUMN score INT DEFAULT 5; ALTER TABLE " + t + " RENAME COLUMN v TO label");
        GraphQlTester.Response response = graphql.document("{ " + t + "(asOfCommit: \"" + before
                + "\") { nodes { k label score } } }").execute();
        response.errors().verify();
        response.path(t + ".nodes[0].label").entity(String.class).isEqualTo("one");
        response.path(t + ".nodes[0].score").entity(Integer.class).isEqualTo(5);
        graphql.document("{ " + t + " { nodes { v } } }").execute().errors()
                .satisfy(errors -> assertThat(errors).isNotEmpty());
    }

    @Test
    void requestsDuringDdlSeeAWholeSchemaAndATableRightAfterItsCreation() throws Exception {
        String stable = table("stable");
        sql.write("CREATE TABLE " + stable + " (k INT PRIMARY KEY, v TEXT)");
        sql.write("UPSERT INTO " + stable + " VALUES (1, 'a'), (2, 'b')");
        String query = GraphqlSupport.text("simple").replace("TABLE", stable);

        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        CountDownLatch started = new CountDownLatch(3);
        List<Future<Integer>> readers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            readers.add(pool.submit(() -> {
                started.countDown();
                int n = 0;
                while (!stop.get()) {
                    try {
                        graphql.document(query).execute().path(stable + ".nodes[*].v").entityList(String.class)
                                .containsExactly("a", "b");
                    } catch (Throwable e) {
                        failures.add(e.toString());
                    }
                    n++;
                }
                return n;
            }));
        }
        started.await();
        try {
            for (int i = 0; i < 6; i++) {
                String t = table("churn");
                sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, v TEXT)");
                // The DDL's response has returned: the very next request sees the new table.
                graphql.document("{ " + t + " { nodes { k } } }").execute().errors().verify();
                sql.write("DROP TABLE " + t);
            }
        } finally {
            stop.set(true);
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        int requests = 0;
        for (Future<Integer> reader : readers) {
            requests += reader.get();
        }
        assertThat(failures).isEmpty();
        assertThat(requests).isGreaterThan(3);
    }

    @Test
    void namesThatAreNotGraphqlNamesAreLeftOutWithoutBreakingTheSchema() {
        sql.write("CREATE TABLE \"" + table("odd") + " table\" (k INT PRIMARY KEY)");
        String t = table("names");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, \"and\" INT, \"my col\" TEXT, \"true\" INT, v TEXT)");
        sql.write("UPSERT INTO " + t + " (k, \"and\", \"my col\", \"true\", v) VALUES (1, 2, 'x', 3, 'v')");
        GraphQlTester.Response response = graphql.document("{ " + t + "(where: {v: {eq: \"v\"}}, orderBy: [{column: "
                + "and}]) { nodes { k and v } } }").execute();
        response.errors().verify();
        response.path(t + ".nodes[0].and").entity(Integer.class).isEqualTo(2);
    }
}
