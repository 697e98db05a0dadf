package io.verso.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.verso.error.ErrorCode;
import io.verso.error.Origin;
import io.verso.error.VersoException;
import java.time.Duration;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * A text too heavy to parse is refused on its characters, before the lexer: with the code and the
 * position the parser or analyzer would give, at once, and only when the analyzer would refuse it too.
 */
class TextWeightTests {

    private static String inList(int n) {
        return "SELECT k FROM t WHERE k IN (" + String.join(", ", Collections.nCopies(n, "7")) + ")";
    }

    private static VersoException refused(String text) {
        try {
            SqlParser.parse(text);
        } catch (VersoException e) {
            return e;
        }
        throw new AssertionError("not refused");
    }

    @Test
    void aReadWithAMillionLiteralsIsRefusedBeforeParsing() {
        String text = "-- a list\n" + inList(1_000_000);
        long started = System.nanoTime();
        VersoException e = refused(text);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
        assertThat(e.code()).isEqualTo(ErrorCode.STATEMENT_TOO_LARGE);
        assertThat(e.getMessage()).contains("at most " + TextWeight.MAX_READ_TERMS + " expression terms");
        // The literal that crossed the bound, on the second line.
        int column = "SELECT k FROM t WHERE k IN (".length() + 3 * TextWeight.MAX_READ_LITERALS + 1;
        assertThat(((VersoException.UserError) e).origin()).isEqualTo(new Origin.Text(2, column));
    }

    @Test
    void aReadUpToTheBoundReachesTheParserAndTheAnalyzerCounts() {
        assertThatCode(() -> SqlParser.parse(inList(1_000))).doesNotThrowAnyException();
        assertThatCode(() -> TextWeight.check(inList(TextWeight.MAX_READ_LITERALS))).doesNotThrowAnyException();
        assertThatThrownBy(() -> TextWeight.check(inList(TextWeight.MAX_READ_LITERALS + 1)))
                .isInstanceOfSatisfying(VersoException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.STATEMENT_TOO_LARGE));
    }

    @Test
    void onlyLiteralsOfReadsCountAndNothingInsideStringsOrComments() {
        String many = String.join(", ", Collections.nCopies(TextWeight.MAX_READ_LITERALS + 10, "(1)"));
        // A write's rows are not a read's terms (a batch of many rows is what writes are for).
        assertThatCode(() -> TextWeight.check("INSERT INTO t VALUES " + many)).doesNotThrowAnyException();
        String hidden = "1, ".repeat(TextWeight.MAX_READ_LITERALS + 10);
        assertThatCode(() -> TextWeight.check("SELECT '" + hidden + "', \"" + hidden + "\" /* " + hidden + " */ -- "
                + hidden + "\n FROM t")).doesNotThrowAnyException();
        // Each statement is weighed alone.
        String half = String.join(", ", Collections.nCopies(TextWeight.MAX_READ_LITERALS / 2 + 1, "1"));
        assertThatCode(() -> TextWeight.check("SELECT " + half + "; SELECT " + half)).doesNotThrowAnyException();
        assertThatThrownBy(() -> TextWeight.check("WITH x AS (SELECT 1) SELECT " + half + ", " + half))
                .isInstanceOf(VersoException.class);
        assertThatThrownBy(() -> TextWeight.check("(SELECT " + half + ") UNION (SELECT ?, " + half + ")"))
                .isInstanceOf(VersoException.class);
    }

    @Test
    void deepNestingIsRefusedWithTheParenthesisPosition() {
        VersoException e = refused("SELECT\n  " + "(".repeat(TextWeight.MAX_PARENTHESES + 1) + "1");
        assertThat(e.code()).isEqualTo(ErrorCode.NESTING_TOO_DEEP);
        assertThat(((VersoException.UserError) e).origin())
                .isEqualTo(new Origin.Text(2, 3 + TextWeight.MAX_PARENTHESES));
        assertThatCode(() -> TextWeight.check("SELECT '" + "(".repeat(1000) + "'")).doesNotThrowAnyException();
    }
}
