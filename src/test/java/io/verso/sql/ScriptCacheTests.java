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
    void theLeastRecentlyUsedTextsLeaveWhenTheBudgetIsSpent() {
        ScriptCache cache = new ScriptCache(40);
        SqlParser.Script a = cache.parse("SELECT 1 FROM t"); // 15 chars
        cache.parse("SELECT 2 FROM t");
        cache.parse("SELECT 1 FROM t"); // a is now the most recently used
        cache.parse("SELECT 3 FROM t"); // 45 chars: the eldest, SELECT 2, leaves
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.parse("SELECT 1 FROM t")).isSameAs(a);
    }

    @Test
    void aVeryLongTextIsParsedEachTime() {
        String text = "SELECT 1 FROM t WHERE a IN (" + "1, ".repeat(ScriptCache.MAX_TEXT_CHARS / 3) + "1)";
        ScriptCache cache = new ScriptCache(Long.MAX_VALUE);
        assertThat(cache.parse(text)).isNotSameAs(cache.parse(text));
        assertThat(cache.size()).isZero();
    }
}
