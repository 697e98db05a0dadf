package io.verso.feed;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.regex.Pattern;

/**
 * Where a feed resumes: after a commit, from an SSE {@code Last-Event-ID} or else {@code after}.
 * The event id wins: an EventSource reconnects to the URL it was opened with, {@code ?after=}
 * included, and adds the id of the last event it received, after which the stream must go on.
 */
public final class FeedCursor {

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,18}");

    private FeedCursor() {
    }

    public static long after(String after, String lastEventId) {
        if (lastEventId != null && !lastEventId.isEmpty()) {
            return parse(lastEventId, "Last-Event-ID");
        }
        if (after != null && !after.isEmpty()) {
            return parse(after, "after");
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
