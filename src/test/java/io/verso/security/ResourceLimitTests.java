package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Values a statement computes are bounded: PostgreSQL keeps every intermediate result of a row's
 * expression until the row is done and checks no timeout inside one, so {@code s || s || …} over 1 MiB
 * values once grew a backend past 20 GB. A {@code ||} chain over verso.max-concat-bytes (128 MB, counting
 * intermediate results) is refused with VALUE_TOO_LARGE before any of it is built, and the guarded values of
 * one statement share that bound; ordinary chains keep PostgreSQL's types and NULL handling.
 */
class ResourceLimitTests extends IntegrationTest {

    /** Refused on its characters, before the parser: 19 s of parsing and 220 MB once preceded this refusal. */
    @Test
    void aReadOfAMillionLiteralsIsRefusedAtOnce() {
        String t = table("wide_in");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY)");
        String text = "SELECT k FROM " + t + " WHERE k IN (" + String.join(",", Collections.nCopies(1_000_000, "7")) + ")";
        long started = System.nanoTime();
        JsonNode problem = sql.fails(400, "STATEMENT_TOO_LARGE", text);
        long ms = (System.nanoTime() - started) / 1_000_000;
        System.out.println("an IN list of 1,000,000 literals (" + text.length() + " characters) refused in " + ms + " ms");
        assertThat(ms).isLessThan(5_000);
        assertThat(problem.path("line").asInt()).isEqualTo(1);
        assertThat(problem.path("detail").asString()).contains("expression terms");
    }

    @Test
    void aValueBlowingConcatenationIsRefusedAtOnceAndWritesNothing() {
        String blobs = blobs("blobs", "x".repeat(1 << 20));
        // The 1,100 terms nest deeper than the statement may (a 400 either way); 300 would build 45 GB.
        long started = System.nanoTime();
        var deep = sql.post("SELECT length(upper(" + String.join(" || ", Collections.nCopies(1100, "s")) + ")) FROM "
                + blobs + " WHERE k = 1");
        assertThat(deep.statusCode()).as(deep.asString()).isEqualTo(400);
        assertThat(deep.asString()).containsAnyOf("VALUE_TOO_LARGE", "STATEMENT_TOO_LARGE");
        JsonNode problem = sql.fails(400, "VALUE_TOO_LARGE", "SELECT length(upper("
                + String.join(" || ", Collections.nCopies(300, "s")) + ")) FROM " + blobs + " WHERE k = 1");
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(10_000);
        assertThat(problem.path("detail").asString()).contains("verso.max-concat-bytes");
        long before = sql.latestCommit();
        sql.fails(400, "VALUE_TOO_LARGE", "UPDATE " + blobs + " SET s = "
                + String.join(" || ", Collections.nCopies(200, "s")) + " WHERE k = 1");
        assertThat(sql.latestCommit()).isEqualTo(before);
        // A chain within the limit runs: 100 × 1 MiB built as 1+2+…+100 MiB is over; 8 terms is not.
        assertThat(sql.rows("SELECT length(" + String.join(" || ", Collections.nCopies(8, "s")) + ") FROM " + blobs))
                .isEqualTo(List.of(List.of(Integer.toString(8 << 20))));
    }

    @Test
    void theGuardedValuesOfAStatementShareOneBound() {
        String blobs = blobs("sblobs", "x".repeat(1 << 20));
        // 8 terms of 1 MiB build 35 MiB with their intermediate results: alone well under 128 MB.
        String chain = "length(" + String.join(" || ", Collections.nCopies(8, "s")) + ")";
        assertThat(sql.rows("SELECT " + chain + " FROM " + blobs))
                .isEqualTo(List.of(List.of(Integer.toString(8 << 20))));
        // Sixteen of them side by side would hold 560 MiB in one row: each gets a sixteenth of the bound.
        long started = System.nanoTime();
        JsonNode problem = sql.fails(400, "VALUE_TOO_LARGE", "SELECT "
                + String.join(", ", Collections.nCopies(16, chain)) + " FROM " + blobs + " WHERE k = 1");
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(5_000);
        assertThat(problem.path("detail").asString()).contains("shared by the statement's 16 guarded values",
                "verso.max-concat-bytes");
        // Padding and replace() take their shares too, in a write as in a read; nothing is written.
        long before = sql.latestCommit();
        sql.fails(400, "VALUE_TOO_LARGE", "UPDATE " + blobs + " SET s = lpad(s, 20000000) || replace(s, 'x', 'yy') || "
                + String.join(" || ", Collections.nCopies(6, "rpad(s, 20000000)")) + " WHERE k = 1");
        assertThat(sql.latestCommit()).isEqualTo(before);
    }

    @Test
    void chainsNestedInEachOthersTermsCannotBlowUpTheCompiledText() {
        // The guard writes a chain's terms twice: 30 levels would compile to 2^30 copies and end the JVM.
        String nested = "'x'";
        for (int i = 0; i < 30; i++) {
            nested = "upper(" + nested + " || 'a')";
        }
        long started = System.nanoTime();
        sql.fails(400, "STATEMENT_TOO_LARGE", "SELECT length(" + nested + ")");
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(10_000);
        // A few levels compile and run as PostgreSQL would.
        assertThat(sql.rows("SELECT upper(lower(upper('x' || 'a') || 'b') || 'c')"))
                .isEqualTo(List.of(List.of("XABC")));
    }

    @Test
    void concatCallsAreBoundedLikeChains() {
        String blobs = blobs("cblobs", "x".repeat(1 << 20));
        // concat of 100 arguments, each a concat of 100 MiB: 10 GB held at once were it built.
        String inner = "concat(" + String.join(", ", Collections.nCopies(100, "s")) + ")";
        long before = System.nanoTime();
        sql.fails(400, "VALUE_TOO_LARGE", "SELECT length(concat(" + String.join(", ", Collections.nCopies(100, inner))
                + ")) FROM " + blobs + " WHERE k = 1");
        sql.fails(400, "VALUE_TOO_LARGE", "SELECT length(" + inner + " || " + inner + ") FROM " + blobs);
        assertThat((System.nanoTime() - before) / 1_000_000).isLessThan(10_000);
        // Within the limit, concat keeps its own NULL handling and types.
        assertThat(sql.rows("SELECT concat('a', NULL, 1, 'b' || 'c'), concat(NULL), length(concat(s, s)) FROM " + blobs))
                .isEqualTo(List.of(java.util.Arrays.asList("a1bc", "", Integer.toString(2 << 20))));
    }

    @Test
    void paddingIsBoundedLikeConcatenation() {
        sql.fails(400, "VALUE_TOO_LARGE", "SELECT length(lpad('x', 1000000000, 'y'))");
        sql.fails(400, "VALUE_TOO_LARGE", "SELECT length(rpad('x', ?))", 1_000_000_000);
        assertThat(sql.rows("SELECT lpad('7', 3, '0'), rpad('ab', 4), lpad('x', NULL)"))
                .isEqualTo(List.of(java.util.Arrays.asList("007", "ab  ", null)));
    }

    @Test
    void replaceIsBoundedByWhatItCouldBuild() {
        String blobs = blobs("rblobs", "a".repeat(1 << 20));
        // Each of a million 'a's becoming 1,000 bytes: a gigabyte for one row, refused before it is built.
        sql.fails(400, "VALUE_TOO_LARGE", "SELECT length(replace(s, 'a', ?)) FROM " + blobs + " WHERE k = 1",
                "b".repeat(1000));
        sql.fails(400, "VALUE_TOO_LARGE", "SELECT length(replace(replace(s, 'a', 'bbbbbbbbbb'), 'b', 'cccccccccccccccc'))"
                + " FROM " + blobs);
        // Within the limit replace is PostgreSQL's own: NULLs, an empty pattern, shrinking and growing.
        assertThat(sql.rows("SELECT replace('abcabc', 'b', 'XY'), replace('abc', '', 'z'), replace(NULL, 'a', 'b'),"
                + " replace('aaa', 'aa', ''), length(replace(s, 'a', 'bb')) FROM " + blobs))
                .isEqualTo(List.of(java.util.Arrays.asList("aXYcaXYc", "abc", null, "a", Integer.toString(2 << 20))));
    }

    @Test
    void ordinaryConcatenationsKeepPostgresTypesAndNulls() {
        assertThat(sql.rows("SELECT 1 || 'a' || 2, 'a' || NULL || 'b', 'x' || ('y' || 'z'), "
                + "CAST('{\"a\": 1}' AS JSONB) || CAST('{\"b\": 2}' AS JSONB) || CAST('{\"c\": 3}' AS JSONB)"))
                .isEqualTo(List.of(java.util.Arrays.asList("1a2", null, "xyz", "{\"a\":1,\"b\":2,\"c\":3}")));
        String t = table("names");
        sql.write("CREATE TABLE " + t + " (id INT PRIMARY KEY, first TEXT, last TEXT) VERSIONED; UPSERT INTO " + t
                + " VALUES (1, 'Ada', 'Lovelace'), (2, 'Alan', NULL)");
        assertThat(sql.rows("SELECT id || ': ' || first || ' ' || last FROM " + t + " WHERE first || ' ' || last "
                + "LIKE 'Ada%' ORDER BY id")).isEqualTo(List.of(List.of("1: Ada Lovelace")));
    }

    /** A new table of key k and text s holding one row (1, value). */
    private String blobs(String prefix, String value) {
        String blobs = table(prefix);
        sql.write("CREATE TABLE " + blobs + " (k INT PRIMARY KEY, s TEXT) VERSIONED; UPSERT INTO " + blobs
                + " VALUES (1, ?)", value);
        return blobs;
    }
}
