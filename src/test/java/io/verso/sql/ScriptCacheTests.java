package io.verso.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import org.junit.jupiter.api.Test;

/** Repeated texts are parsed once; failures, long texts and texts past the budget are not kept. */
class ScriptCacheTests {

    @Test
    void aRepeatedTextGetsTheSameTree() {
        ScriptCache cache = new ScriptCache(10_000);
        SqlParser.Script first = cache.parse("UPSERT INTO t (k, v) VALUES (?, ?), (?, ?)");
        SqlParser.Script again = cache.parse("UPSERT INTO t (k, v) VALUES (?, ?), (?, ?)");
        assertThat(again).isSameAs(first);
        assertThat(again).isEqualTo(SqlParser.parse("UPSERT INTO t (k, v) VALUES (?, ?), (?, ?)"));
        assertThat(again.parameterCount()).isEqualTo(4);
    }

    @Test
    void aSyntaxErrorIsReportedEveryTimeAndNotKept() {
        ScriptCache cache = new ScriptCache(10_000);
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> cache.parse("SELEC 1"))
                    .isInstanceOfSatisfying(VersoException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SYNTAX_ERROR));
        }
        assertThat(cache.size()).isZero();
    }

    @Test
    void theTextsKeptStayWithinTheBudget() {
        ScriptCache cache = new ScriptCache(40);
        for (int i = 0; i < 10; i++) {
            cache.parse("SELECT " + i + " FROM t"); // 15 chars each: two fit
        }
        assertThat(cache.size()).isLessThanOrEqualTo(2);
        SqlParser.Script kept = cache.parse("SELECT 9 FROM t");
        assertThat(kept).isEqualTo(SqlParser.parse("SELECT 9 FROM t"));
    }

    @Test
    void aVeryLongTextIsParsedEachTime() {
        String text = "SELECT 1 FROM t WHERE a IN (" + "1, ".repeat(ScriptCache.MAX_TEXT_CHARS / 3) + "1)";
        ScriptCache cache = new ScriptCache(Long.MAX_VALUE);
        assertThat(cache.parse(text)).isNotSameAs(cache.parse(text));
        assertThat(cache.size()).isZero();
    }
}
