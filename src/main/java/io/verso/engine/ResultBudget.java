package io.verso.engine;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;

/**
 * The result rows and characters one request may still return, summed over all its statements (and so over
 * every field of a GraphQL document's level, which runs as one request): a request of a hundred large
 * SELECTs is refused once their results together pass {@code verso.max-result-rows} or
 * {@code verso.max-result-chars}, instead of holding a hundred results in the heap at once. Every row a
 * request returns is counted here, as {@link ResultReader} reads it. A request runs on one thread.
 */
final class ResultBudget {

    private final int maxRows;
    private final long maxChars;
    private long rows;
    private long chars;

    ResultBudget(int maxRows, long maxChars) {
        this.maxRows = maxRows;
        this.maxChars = maxChars;
    }

    /** The rows a statement may still read, one past which it is refused: a JDBC max-rows bound. */
    int rowsLeft() {
        return (int) Math.max(0, maxRows - rows);
    }

    /** Counts one more row of {@code rowChars} characters of values, refusing the request past either bound. */
    void add(long rowChars) {
        if (rows >= maxRows) {
            throw VersoException.user(ErrorCode.RESULT_TOO_LARGE, "the request's results have more than " + maxRows
                    + " rows (verso.max-result-rows, over all its statements): add a LIMIT or a narrower WHERE, "
                    + "or split the request");
        }
        rows++;
        chars += rowChars;
        if (chars > maxChars) {
            throw VersoException.user(ErrorCode.RESULT_TOO_LARGE, "the request's results are larger than " + maxChars
                    + " characters of values (verso.max-result-chars, over all its statements): select fewer or "
                    + "shorter columns, add a LIMIT or a narrower WHERE, or split the request");
        }
    }
}
