package io.verso.feed;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.regex.Pattern;

/** Where a feed resumes: after a commit, from {@code after} or else an SSE {@code Last-Event-ID}. */
public final class FeedCursor {

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,18}");

    private FeedCursor() {
    }

    public static long after(String after, String lastEventId) {
        if (after != null && !after.isEmpty()) {
            return parse(after, "after");
        }
        if (lastEventId != null && !lastEventId.isEmpty()) {
            return parse(lastEventId, "Last-Event-ID");
        }
        return 0;
    }

    private static long parse(String text, String parameter) {
        if (!DIGITS.matcher(text).matches()) {
            throw VersoException.pointing(ErrorCode.INVALID_PARAMETER, parameter
                    + " must be a commit sequence (decimal digits), not '"
                    + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "'", parameter);
        }
        return Long.parseLong(text);
    }
}
