package io.verso.api.graphql;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.restassured.response.Response;
import io.verso.support.SqlClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A read of one row by key is answered without graphql-java ({@link OneKeyReads}), and every request gets the
 * answer graphql-java gives. The oracle: the same document with {@code @include(if: true)} on its root field,
 * which graphql-java answers alike and the shortcut never takes; the document under test carries as many spaces
 * there, so an error's locations are the same too. The two answers are compared byte for byte.
 */
class OneKeyReadsTests extends GraphqlSupport {

    private static final String DIRECTIVE = " @include(if: true)";
    /** Two the filter takes, and one that goes on to Spring GraphQL's handler. */
    private static final List<String> ACCEPTS = List.of("application/json", "application/graphql-response+json",
            "application/graphql-response+json;q=0.5, application/json");

    @Autowired
    GraphqlRead filter;

    @Autowired
    BatchRunner batches;

    @Autowired
    CatalogCheckedExecution execution;

    @Autowired
    MeterRegistry meters;

    private String t;
    private long first;

    @BeforeEach
    void rows() {
        t = table("onekey");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY, name TEXT, big BIGINT, amount NUMERIC(20, 4), "
                + "ratio DOUBLE PRECISION, flag BOOLEAN, day DATE, at TIMESTAMP, atz TIMESTAMPTZ, id UUID, doc JSONB) VERSIONED");
        first = sql.write("UPSERT INTO " + t + " VALUES (1, 'one', 9007199254740993, 12.5, 0.1, TRUE, '2026-01-02', "
                + "'2026-01-02 03:04:05.5', '2026-01-02 03:04:05+02', '6f1c2e1a-51a4-4b0e-9d7c-0b8f7a3c2d10', "
                + "'{\"a\": [1, 2.5, null]}'), (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
        sql.write("UPSERT INTO " + t + " VALUES (1, 'uno', -1, -0.0001, 1e300, FALSE, '1999-12-31', "
                + "'1999-12-31 23:59:59', '1999-12-31 23:59:59Z', '00000000-0000-0000-0000-000000000000', '[]')");
        answer("{ " + t + "_by_key(k: 1) { k } }", null, null); // the first request after DDL learns of the table
    }

    private long shortcuts() {
        return execution.shortcuts();
    }

    /**
     * The status, Content-Type and body answered to {@code document}, with {@code variables} (may be null), an
     * operation name and an Accept header (may be null); an error's request id left out.
     */
    private String answer(String document, Map<String, Object> variables, String operationName, String accept) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", document);
        if (variables != null) {
            body.put("variables", variables);
        }
        if (operationName != null) {
            body.put("operationName", operationName);
        }
        var request = given().port(port).contentType("application/json");
        if (accept != null) {
            request = request.accept(accept);
        }
        Response response = request.body(SqlClient.JSON.writeValueAsString(body)).when().post("/graphql");
        return response.statusCode() + " " + response.contentType() + "\n"
                + response.asString().replaceAll("\"requestId\":\"[^\"]*\"", "\"requestId\":\"…\"");
    }

    private String answer(String document, Map<String, Object> variables, String operationName) {
        return answer(document, variables, operationName, "application/json");
    }

    /**
     * Asserts that {@code document} (its root field's arguments followed by {@code @}) is answered as graphql-java
     * answers it, for each kind of Accept: by the filter when it may take the request, else by the execution
     * service; and whether the shortcut answered it. Returns the answer to the first.
     */
    private String sameAnswer(String document, Map<String, Object> variables, String operationName,
                              boolean shortcut) {
        String text = document.replace("TABLE", t);
        int brace = text.indexOf('{', text.indexOf(t + "_by_key"));
        String plain = text.substring(0, brace) + " ".repeat(DIRECTIVE.length()) + " " + text.substring(brace);
        String oracle = text.substring(0, brace) + DIRECTIVE + " " + text.substring(brace);
        String first = null;
        for (String accept : ACCEPTS) {
            long before = shortcuts();
            long filtered = filter.answered();
            String answered = answer(plain, variables, operationName, accept);
            assertThat(shortcuts() - before).as(plain).isEqualTo(shortcut ? 1 : 0);
            assertThat(filter.answered() - filtered).as(accept).isEqualTo(shortcut && !accept.contains(",") ? 1 : 0);
            before = shortcuts();
            String expected = answer(oracle, variables, operationName, accept);
            assertThat(shortcuts() - before).as(oracle).isZero();
            assertThat(answered).as(plain + " (Accept: " + accept + ")").isEqualTo(expected);
            first = first == null ? answered : first;
        }
        return first;
    }

    @Test
    void readsByKeyAreAnsweredAsGraphqlJavaAnswersThem() {
        String all = "{ k name big amount ratio flag day at atz id doc _asOfCommit }";
        assertThat(sameAnswer("{ TABLE_by_key(k: 1) " + all + " }", null, null, true))
                .contains("\"name\":\"uno\"", "\"extensions\":{\"verso\":{\"commit\":");
        sameAnswer("{ TABLE_by_key(k: 2) " + all + " }", null, null, true);
        assertThat(sameAnswer("{ TABLE_by_key(k: 3) { k } }", null, null, true)).contains("_by_key\":null");
        sameAnswer("{ then: TABLE_by_key(k: 1, asOfCommit: \"" + first + "\") { n: name big: amount k } }",
                null, null, true);
        sameAnswer("query One($k: Int!, $at: CommitSeq) { TABLE_by_key(k: $k, asOfCommit: $at) { name day } }",
                Map.of("k", 1, "at", Long.toString(first)), "One", true);
        sameAnswer("query One($k: Int!, $at: CommitSeq) { TABLE_by_key(k: $k, asOfCommit: $at) { name } }",
                Map.of("k", 1), null, true);
        sameAnswer("query ($k: Int!, $at: CommitSeq!) { TABLE_by_key(asOfCommit: $at, k: $k) { name } }",
                Map.of("k", 1, "at", Long.toString(first)), null, true);
        sameAnswer("{ TABLE_by_key(k: 1, asOfTime: \"2999-01-01T00:00:00Z\") { name _asOfCommit } }", null, null,
                true);
    }

    /**
     * Documents that differ in their literals only are planned once ({@link DocumentShape}), and each is answered
     * for its own values: the first of the shape here is one graphql-java refuses, and some after it are too.
     */
    @Test
    void documentsOfOneShapeAreEachAnsweredForTheirOwnLiterals() {
        String shape = "{ TABLE_by_key(k: %s, asOfCommit: %s) { name _asOfCommit } # 1 \"note\" 2.5\n}";
        String now = "\"" + first + "\"";
        Object[][] cases = {
                {"4294967296", now, false}, // beyond Int
                {"1", now, true},
                {"2", now, true},
                {"-0", now, true},
                {"3", now, true},
                {"1", "\"" + (first + 1) + "\"", true},
                {"1", "\"999999999999\"", false}, // beyond the latest commit
                {"1", "\"x\"", false},
                {"1", "\"\"", false},
                {"2147483647", now, true},
                {"-2147483649", now, false},
                {"1.5", now, false}, // another shape
                {"\"1\"", now, false}, // another shape
                {"1", "\"" + first + "\\u0031\"", false}, // an escape: a document of its own, read by graphql-java
                {"1", "\"\\u0031\"", true}};
        for (Object[] c : cases) {
            sameAnswer(shape.formatted(c[0], c[1]), null, null, (Boolean) c[2]);
        }
        // A variable's type and a literal's kind are part of the shape.
        sameAnswer("query Q($at: CommitSeq) { TABLE_by_key(k: 1, asOfCommit: $at) { name } }",
                Map.of("at", Long.toString(first)), null, true);
        sameAnswer("query Q($at: CommitSeq) { TABLE_by_key(k: 2, asOfCommit: $at) { name } }",
                Map.of("at", "nope"), null, false);
    }

    @Test
    void whatIsNotPlainlyValidGoesToGraphqlJava() {
        List<String> documents = List.of(
                "{ TABLE_by_key(k: \"1\") { name } }",
                "{ TABLE_by_key(k: null) { name } }",
                "{ TABLE_by_key { name } }",
                "{ TABLE_by_key(k: 1, k: 2) { name } }",
                "{ TABLE_by_key(k: 1, nope: 2) { name } }",
                "{ TABLE_by_key(k: 1) { name name } }",
                "{ TABLE_by_key(k: 1) { nope } }",
                "{ TABLE_by_key(k: 1) { name(x: 1) } }",
                "{ TABLE_by_key(k: 1) { __typename name } }",
                "{ TABLE_by_key(k: 1) { _history { k } } }",
                "{ TABLE_by_key(k: 1) { } }",
                "{ TABLE_by_key(k: 1) { name @skip(if: true) } }",
                "{ TABLE_by_key(k: 1, asOfCommit: \"1\", asOfTime: \"2026-01-01\") { name } }",
                "{ TABLE_by_key(k: 1, asOfCommit: \"999999999999\") { name } }",
                "{ TABLE_by_key(k: 1, asOfCommit: \"-3\") { name } }",
                "{ TABLE_by_key(k: 1, asOfTime: \"not a time\") { name } }",
                "{ TABLE_by_key(k: 1) { name } TABLE_by_key(k: 1) { name } }",
                "query A { TABLE_by_key(k: 1) { name } } query B { TABLE_by_key(k: 2) { name } }",
                "{ TABLE_by_key(k: 1) { ...F } } fragment F on TABLE { name }");
        for (String document : documents) {
            sameAnswer(document, null, null, false);
        }
        sameAnswer("query Q($k: Int!) { TABLE_by_key(k: $k) { name } }", Map.of("k", "one"), null, false);
        sameAnswer("query Q($k: Int!) { TABLE_by_key(k: $k) { name } }", Map.of(), null, false);
        sameAnswer("query Q($k: Int) { TABLE_by_key(k: $k) { name } }", Map.of("k", 1), null, false);
        sameAnswer("query Q($k: String!) { TABLE_by_key(k: $k) { name } }", Map.of("k", "1"), null, false);
        sameAnswer("query Q($k: Int!, $unused: Int) { TABLE_by_key(k: 1) { name } }", Map.of("k", 1), null, false);
        sameAnswer("query Q($k: Int! = 1) { TABLE_by_key(k: $k) { name } }", Map.of(), null, false);
        sameAnswer("query Q { TABLE_by_key(k: 1) { name } }", null, "Other", false);
    }

    @Test
    void aBodyInAnotherFormGoesOnToSpringGraphql() {
        String query = "{ " + t + "_by_key(k: 1) { name } }";
        String data = "{\"data\":{\"" + t + "_by_key\":{\"name\":\"uno\"}}";
        long filtered = filter.answered();
        long before = shortcuts();
        // A field Spring GraphQL ignores, a charset, a body that is not JSON: the handler reads them.
        Response extra = given().port(port).contentType("application/json").accept("application/json")
                .body(SqlClient.JSON.writeValueAsString(Map.of("query", query, "note", 1))).when().post("/graphql");
        assertThat(extra.asString()).startsWith(data);
        Response latin = given().port(port).contentType("application/json; charset=ISO-8859-1")
                .body(SqlClient.JSON.writeValueAsString(Map.of("query", query))).when().post("/graphql");
        assertThat(latin.asString()).startsWith(data);
        assertThat(filter.answered() - filtered).isZero();
        assertThat(shortcuts() - before).isEqualTo(2);
        Response broken = given().port(port).contentType("application/json").body("{\"query\": ").when()
                .post("/graphql");
        assertThat(broken.statusCode()).isEqualTo(400);
        // UTF-8 named is the filter's.
        Response utf8 = given().port(port).contentType("application/json; charset=UTF-8")
                .body(SqlClient.JSON.writeValueAsString(Map.of("query", query))).when().post("/graphql");
        assertThat(utf8.asString()).startsWith(data);
        assertThat(filter.answered() - filtered).isEqualTo(1);
    }

    @Test
    void aReadTheFilterTriedIsNotTriedAgainBehindIt() {
        long calls = batches.engineCalls();
        answer("{ " + t + "_by_key(k: 1, asOfCommit: \"999999999999\") { name } }", null, null);
        // The filter's read, refused, then graphql-java's: not a second try of the shortcut between them.
        assertThat(batches.engineCalls() - calls).isEqualTo(2);
    }

    @Test
    void aReadAfterTheCatalogChangedIsNotAnsweredOnTheOldSchema() {
        String query = "{ " + t + "_by_key(k: 1) { name } }";
        long before = shortcuts();
        assertThat(answer(query, null, null)).contains("\"name\":\"uno\"");
        assertThat(shortcuts() - before).isEqualTo(1);
        // The old schema still takes the document; its read under the new catalog has no column "name".
        sql.write("ALTER TABLE " + t + " RENAME COLUMN name TO label");
        before = shortcuts();
        assertThat(answer(query, null, null)).contains("FieldUndefined").doesNotContain("\"data\"");
        assertThat(shortcuts() - before).isZero();
        assertThat(answer("{ " + t + "_by_key(k: 1) { label } }", null, null)).contains("\"label\":\"uno\"");
    }

    @Test
    void anAnsweredReadIsObservedOnceAsASuccess() {
        String query = "{ " + t + "_by_key(k: 1) { name } }";
        answer(query, null, null);
        Map<String, Long> before = observed();
        long shortcuts = shortcuts();
        answer(query, null, null);
        assertThat(shortcuts() - shortcuts).isEqualTo(1);
        Map<String, Long> after = observed();
        // As graphql-java's execution is observed: a query that succeeded.
        assertThat(after.getOrDefault("SUCCESS query", 0L) - before.getOrDefault("SUCCESS query", 0L)).isEqualTo(1);
        assertThat(after.values().stream().mapToLong(Long::longValue).sum()
                - before.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1);
    }

    /** The GraphQL requests observed so far ({@code graphql.request}), by outcome and operation type. */
    private Map<String, Long> observed() {
        Map<String, Long> byOutcome = new LinkedHashMap<>();
        for (Timer timer : meters.find("graphql.request").timers()) {
            byOutcome.merge(timer.getId().getTag("graphql.outcome") + " " + timer.getId().getTag("graphql.operation.type"),
                    timer.count(), Long::sum);
        }
        return byOutcome;
    }
}
