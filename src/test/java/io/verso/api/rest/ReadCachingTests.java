package io.verso.api.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.verso.security.AccessControl;
import io.verso.security.VersoPrincipal;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import io.verso.support.TestSecurity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * HTTP caching of one-key reads (docs/rest.md, "Caching"), over real HTTP: an answer pinned to a commit is
 * immutable, kept in the cache of pinned answers, and 304 on a conditional GET; a current answer is 304 while
 * its key's row and the catalog are unchanged. Above all the cache is never stale: an ERASE or DELETE HISTORY
 * shows at once in the same AS OF read, a revoked grant is not served, and one role's answer never reaches
 * another.
 */
class ReadCachingTests extends IntegrationTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String ADMIN = TestSecurity.HEADER + ": " + TestSecurity.ADMIN_KEY;

    @Autowired
    PinnedAnswers pinned;
    @Autowired
    AccessControl access;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    MeterRegistry meters;

    @BeforeEach
    void cacheListens() throws InterruptedException {
        // The cache serves nothing until its commit listener listens (a thread that starts with the context).
        for (int i = 0; i < 500 && !pinned.serving(); i++) {
            Thread.sleep(20);
        }
        assertThat(pinned.serving()).as("the cache's commit listener listens").isTrue();
    }

    @Test
    void aPinnedReadIsImmutableKeptAndRevalidatedWithoutABody() throws Exception {
        String t = table("cache_pinned");
        sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT) VERSIONED");
        String first = commit("UPSERT INTO " + t + " VALUES (1, 'a')");
        commit("UPSERT INTO " + t + " VALUES (1, 'b')");
        String url = "/v1/tables/" + t + "/row?key=1&asOfCommit=" + first;

        HttpResponse<String> read = get(url, ADMIN, null);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.body()).contains("\"v\":\"a\"").contains("\"readCommit\":\"" + first + "\"");
        String etag = read.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).as("a strong ETag").startsWith("\"p" + first + ".");
        assertThat(read.headers().firstValue("Cache-Control")).hasValue("private, " + ConditionalReads.PINNED);
        assertThat(pinned.find(keyOf(t, first), -1)).as("kept").isNotNull();

        HttpResponse<String> again = get(url, ADMIN, null);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(read.body());
        assertThat(again.headers().firstValue("ETag")).hasValue(etag);

        HttpResponse<String> revalidated = get(url, ADMIN, etag);
        assertThat(revalidated.statusCode()).isEqualTo(304);
        assertThat(revalidated.body()).isEmpty();
        assertThat(revalidated.headers().firstValue("ETag")).hasValue(etag);
        assertThat(get(url, ADMIN, "\"other\", " + etag).statusCode()).as("one of a list").isEqualTo(304);
        assertThat(get(url, ADMIN, "\"other\"").statusCode()).isEqualTo(200);

        // A read of current rows is not pinned: it never gets immutable.
        HttpResponse<String> current = get("/v1/tables/" + t + "/row?key=1", ADMIN, null);
        assertThat(current.body()).contains("\"v\":\"b\"");
        assertThat(current.headers().firstValue("Cache-Control")).hasValue("private, " + ConditionalReads.CURRENT);
        assertThat(current.headers().firstValue("ETag").orElseThrow()).startsWith("W/\"c");
    }

    @Test
    void aPageAtAFixedCommitIsImmutableAndAPageOfCurrentRowsIsNot() throws Exception {
        String t = table("cache_pages");
        sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT) VERSIONED");
        String first = commit("UPSERT INTO " + t + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        commit("UPSERT INTO " + t + " VALUES (1, 'z')");
        String pinnedPage = "/v1/tables/" + t + "/rows?limit=2&asOfCommit=" + first;
        HttpResponse<String> page = get(pinnedPage, ADMIN, null);
        assertThat(page.body()).contains("\"v\":\"a\"");
        String etag = page.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).startsWith("\"p" + first + ".");
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("private, " + ConditionalReads.PINNED);
        HttpResponse<String> revalidated = get(pinnedPage, ADMIN, etag);
        assertThat(revalidated.statusCode()).isEqualTo(304);
        assertThat(revalidated.body()).isEmpty();
        assertThat(get("/v1/tables/" + t + "/rows?limit=1&asOfCommit=" + first, ADMIN, etag).statusCode())
                .as("another query's page").isEqualTo(200);

        // A cursor holds its first page's commit: the next page is as fixed.
        String cursor = SqlClient.JSON.readTree(page.body()).path("nextCursor").asString();
        HttpResponse<String> next = get("/v1/tables/" + t + "/rows?cursor=" + cursor, ADMIN, null);
        assertThat(next.body()).contains("\"v\":\"c\"");
        assertThat(next.headers().firstValue("ETag").orElseThrow()).startsWith("\"p" + first + ".");

        HttpResponse<String> current = get("/v1/tables/" + t + "/rows?limit=2", ADMIN, null);
        assertThat(current.body()).contains("\"v\":\"z\"");
        assertThat(current.headers().firstValue("ETag")).as("a page of current rows").isEmpty();
        assertThat(current.headers().firstValue("Cache-Control")).isEmpty();
    }

    @Test
    void anErasureShowsAtOnceInTheSameAsOfRead() throws Exception {
        String t = table("cache_erase");
        sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT) VERSIONED");
        String first = commit("UPSERT INTO " + t + " VALUES (1, 'a'), (2, 'x')");
        commit("UPSERT INTO " + t + " VALUES (1, 'b')");
        String url = "/v1/tables/" + t + "/row?key=1&asOfCommit=" + first;
        HttpResponse<String> before = get(url, ADMIN, null);
        assertThat(before.body()).contains("\"v\":\"a\"");
        assertThat(get(url, ADMIN, null).body()).as("served again, from the cache").isEqualTo(before.body());

        sql.run("ERASE FROM " + t + " WHERE id = 1");

        HttpResponse<String> after = get(url, ADMIN, null);
        assertThat(after.statusCode()).as(after.body()).isEqualTo(404);
        assertThat(after.body()).contains("UNKNOWN_KEY");
        HttpResponse<String> conditional = get(url, ADMIN, before.headers().firstValue("ETag").orElseThrow());
        assertThat(conditional.statusCode()).as("the old ETag no longer matches").isEqualTo(404);
        // The key not erased still reads as it was, with a new ETag (the catalog version moved).
        HttpResponse<String> other = get("/v1/tables/" + t + "/row?key=2&asOfCommit=" + first, ADMIN, null);
        assertThat(other.body()).contains("\"v\":\"x\"");
    }

    @Test
    void deletedHistoryIsNotServedFromTheCache() throws Exception {
        String t = table("cache_history");
        sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT) VERSIONED");
        String first = commit("UPSERT INTO " + t + " VALUES (1, 'a')");
        String second = commit("UPSERT INTO " + t + " VALUES (1, 'b')");
        String url = "/v1/tables/" + t + "/row?key=1&asOfCommit=" + first;
        assertThat(get(url, ADMIN, null).statusCode()).isEqualTo(200);
        assertThat(get(url, ADMIN, null).statusCode()).isEqualTo(200);

        sql.run("DELETE HISTORY FROM " + t + " BEFORE COMMIT " + second);

        HttpResponse<String> after = get(url, ADMIN, null);
        assertThat(after.statusCode()).as(after.body()).isEqualTo(400);
        assertThat(after.body()).doesNotContain("\"v\":\"a\"");
    }

    @Test
    void anotherInstancesCatalogChangeDropsTheCacheAndACallerAheadOfItReadsTheDatabase() throws Exception {
        String t = table("cache_remote");
        sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT) VERSIONED");
        String first = commit("UPSERT INTO " + t + " VALUES (1, 'a')");
        String url = "/v1/tables/" + t + "/row?key=1&asOfCommit=" + first;
        assertThat(get(url, ADMIN, null).statusCode()).isEqualTo(200);
        PinnedAnswers.Key key = keyOf(t, first);
        assertThat(pinned.find(key, -1)).as("kept").isNotNull();
        assertThat(pinned.find(key, Long.MAX_VALUE)).as("not for a caller that has seen a later commit").isNull();

        // What another instance's ERASE, DDL or grant leaves for this one: a new catalog version, and the
        // notification of its commit.
        jdbc.update("UPDATE verso.catalog_version SET version = version + 1");
        jdbc.queryForList("SELECT pg_notify('verso_commits', (SELECT max(seq)::text FROM verso.commits))");
        for (int i = 0; i < 500 && pinned.find(key, -1) != null; i++) {
            Thread.sleep(20);
        }
        assertThat(pinned.find(key, -1)).as("dropped once the notification is heard").isNull();
    }

    @Test
    void aRevokedGrantIsNotServedFromTheCache() throws Exception {
        String t = table("cache_revoke");
        String role = table("cache_reader");
        sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT) VERSIONED; CREATE ROLE " + role
                + "; GRANT SELECT ON TABLE " + t + " TO " + role);
        String first = commit("UPSERT INTO " + t + " VALUES (1, 'a')");
        String reader = "Authorization: Bearer " + TestSecurity.jwt("rita", role);
        String url = "/v1/tables/" + t + "/row?key=1&asOfCommit=" + first;
        HttpResponse<String> granted = get(url, reader, null);
        assertThat(granted.statusCode()).isEqualTo(200);
        assertThat(get(url, reader, null).body()).isEqualTo(granted.body());

        sql.run("REVOKE SELECT ON TABLE " + t + " FROM " + role);

        HttpResponse<String> revoked = get(url, reader, null);
        assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(404);
        assertThat(revoked.body()).contains("UNKNOWN_TABLE").doesNotContain("\"v\":\"a\"");
        assertThat(get(url, reader, granted.headers().firstValue("ETag").orElseThrow()).statusCode()).isEqualTo(404);
    }

    @Test
    void anotherRoleDoesNotGetACachedAnswer() throws Exception {
        String t = table("cache_roles");
        String readers = table("cache_readers");
        String others = table("cache_others");
        sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT) VERSIONED; CREATE ROLE " + readers
                + "; CREATE ROLE " + others + "; GRANT SELECT ON TABLE " + t + " TO " + readers);
        String first = commit("UPSERT INTO " + t + " VALUES (1, 'a')");
        String url = "/v1/tables/" + t + "/row?key=1&asOfCommit=" + first;
        String reader = "Authorization: Bearer " + TestSecurity.jwt("rita", readers);
        String other = "Authorization: Bearer " + TestSecurity.jwt("otto", others);
        HttpResponse<String> read = get(url, reader, null);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(get(url, reader, null).statusCode()).isEqualTo(200);

        HttpResponse<String> refused = get(url, other, null);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(404);
        assertThat(refused.body()).doesNotContain("\"v\":\"a\"");
        HttpResponse<String> guessed = get(url, other, read.headers().firstValue("ETag").orElseThrow());
        assertThat(guessed.statusCode()).as("another caller's ETag is no 304").isEqualTo(404);
        assertThat(get(url, null, null).statusCode()).as("no credentials").isEqualTo(401);
    }

    @Test
    void aCurrentReadIs304UntilItsRowOrTheCatalogChanges() throws Exception {
        String t = table("cache_current");
        String elsewhere = table("cache_elsewhere");
        sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT); CREATE TABLE " + elsewhere
                + " (id BIGINT PRIMARY KEY)");
        commit("UPSERT INTO " + t + " VALUES (1, 'a')");
        String url = "/v1/tables/" + t + "/row?key=1";
        get(url, ADMIN, null); // the first read after a catalog change takes the long way: no ETag (see below)
        HttpResponse<String> read = get(url, ADMIN, null);
        String etag = read.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).as("a weak ETag").startsWith("W/\"c");

        assertThat(get(url, ADMIN, etag).statusCode()).isEqualTo(304);
        commit("UPSERT INTO " + elsewhere + " VALUES (1)");
        HttpResponse<String> unchanged = get(url, ADMIN, etag);
        assertThat(unchanged.statusCode()).as("another table's write").isEqualTo(304);
        assertThat(unchanged.body()).isEmpty();

        commit("UPSERT INTO " + t + " VALUES (1, 'b')");
        HttpResponse<String> written = get(url, ADMIN, etag);
        assertThat(written.statusCode()).isEqualTo(200);
        assertThat(written.body()).contains("\"v\":\"b\"");
        String next = written.headers().firstValue("ETag").orElseThrow();
        assertThat(next).isNotEqualTo(etag);
        assertThat(get(url, ADMIN, next).statusCode()).isEqualTo(304);

        sql.run("ALTER TABLE " + t + " ADD COLUMN w TEXT DEFAULT 'new'");
        HttpResponse<String> altered = get(url, ADMIN, next);
        assertThat(altered.statusCode()).as("a DDL changes the answer").isEqualTo(200);
        assertThat(altered.body()).contains("\"w\":\"new\"");
        // The first read after a catalog change takes the long way, which knows no key's last change: no ETag.
        HttpResponse<String> tagged = get(url, ADMIN, null);
        assertThat(get(url, ADMIN, tagged.headers().firstValue("ETag").orElseThrow()).statusCode()).isEqualTo(304);
        // Another caller's ETag for the same row is its own.
        String role = table("cache_current_reader");
        sql.run("CREATE ROLE " + role + "; GRANT SELECT ON TABLE " + t + " TO " + role);
        String reader = "Authorization: Bearer " + TestSecurity.jwt("rita", role);
        HttpResponse<String> theirs = get(url, reader, tagged.headers().firstValue("ETag").orElseThrow());
        assertThat(theirs.statusCode()).isEqualTo(200);
        assertThat(theirs.headers().firstValue("ETag")).isNotEqualTo(tagged.headers().firstValue("ETag"));
    }

    /**
     * A current row's ETag follows its key, not its table: writes of other keys, and versions of this key that lose
     * to its winner, leave it 304; a winner in any of its attribute groups, or its deletion, does not.
     */
    @Test
    void aCurrentReadIs304WhileItsKeyIsUnchangedHoweverMuchElseOfItsTableIsWritten() throws Exception {
        String t = table("cache_keys");
        sql.run("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v TEXT, ix BIGINT, note TEXT, seq BIGINT,"
                + " ATTRIBUTE GROUP notes (note, seq) VALID BY (seq)) VERSIONED VALID BY (ix)");
        commit("UPSERT INTO " + t + " VALUES (1, 'a', 10, 'n', 1), (2, 'b', 10, 'm', 1)");
        String url = "/v1/tables/" + t + "/row?key=1";
        get(url, ADMIN, null); // the first read after a catalog change takes the long way: no ETag
        String etag = get(url, ADMIN, null).headers().firstValue("ETag").orElseThrow();

        commit("UPSERT INTO " + t + " VALUES (2, 'b2', 11, 'm2', 2)");
        commit("UPSERT INTO " + t + " VALUES (1, 'late', 9, 'late', 0)");
        Timer reads = meters.get("verso.reads").tag("as_of", "false").timer();
        long readsBefore = reads.count();
        HttpResponse<String> unchanged = get(url, ADMIN, etag);
        assertThat(unchanged.statusCode()).as("another key's write, and this key's losing versions").isEqualTo(304);
        assertThat(unchanged.body()).isEmpty();
        for (int i = 0; i < 10; i++) {
            assertThat(get(url, ADMIN, etag).statusCode()).isEqualTo(304);
        }
        // Answered from the key's last change, the row not read (a read counts in verso.reads; a stray one of
        // another part of the service may too).
        assertThat(reads.count() - readsBefore).as("reads for 11 conditional GETs").isLessThanOrEqualTo(2);
        assertThat(get("/v1/tables/" + t + "/row?key=2", ADMIN, etag).statusCode()).as("another key's ETag")
                .isEqualTo(200);

        commit("UPSERT INTO " + t + " (id, note, seq) VALUES (1, 'n2', 2)");
        HttpResponse<String> noted = get(url, ADMIN, etag);
        assertThat(noted.statusCode()).as("a winner in the other group").isEqualTo(200);
        assertThat(noted.body()).contains("\"note\":\"n2\"", "\"v\":\"a\"");
        String next = noted.headers().firstValue("ETag").orElseThrow();
        assertThat(get(url, ADMIN, next).statusCode()).isEqualTo(304);

        commit("DELETE FROM " + t + " WHERE id = 1 AT (ix = 20, seq = 3)");
        assertThat(get(url, ADMIN, next).statusCode()).as("deleted").isEqualTo(404);
    }

    private PinnedAnswers.Key keyOf(String table, String asOfCommit) {
        VersoPrincipal admin = new VersoPrincipal("admin-api-key", Set.of("admin"), true);
        return new PinnedAnswers.Key(table, List.of("1"), asOfCommit, null, admin.roles(), true, access.grants(admin));
    }

    private String commit(String statement) {
        return sql.run(statement).path("commit").asString();
    }

    private HttpResponse<String> get(String pathAndQuery, String header, String ifNoneMatch) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery));
        if (header != null) {
            int colon = header.indexOf(':');
            request.header(header.substring(0, colon), header.substring(colon + 2));
        }
        if (ifNoneMatch != null) {
            request.header("If-None-Match", ifNoneMatch);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
