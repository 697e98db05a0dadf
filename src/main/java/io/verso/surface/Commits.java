package io.verso.surface;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.regex.Pattern;

/** Commit sequences as the surface takes them: strings of decimal digits naming a 64-bit value. */
final class Commits {

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,19}");

    private Commits() {
    }

    /** The commit named by a parameter, or null when it is absent. */
    static Long parse(String text, String parameter) {
        return parse(text, parameter, ErrorCode.INVALID_PARAMETER);
    }

    /**
     * The commit an {@code asOfCommit} parameter names, or null: one that is no integer is refused
     * as AS OF COMMIT is in a statement and in GraphQL (AS_OF_NOT_INTEGER); the analyzer judges the rest.
     */
    static Long asOf(String text, String parameter) {
        return parse(text, parameter, ErrorCode.AS_OF_NOT_INTEGER);
    }

    private static Long parse(String text, String parameter, ErrorCode notDigits) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (!DIGITS.matcher(text).matches()) {
            throw VersoException.pointing(notDigits, parameter
                    + " must be a commit sequence (decimal digits), not '" + shorten(text) + "'", parameter);
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw VersoException.pointing(ErrorCode.INVALID_PARAMETER, parameter + " " + text
                    + " is beyond the range of commit sequences", parameter);
        }
    }

    static String text(Long commit) {
        return commit == null ? null : commit.toString();
    }

    static String shorten(String text) {
        return text.length() > 40 ? text.substring(0, 37) + "..." : text;
    }
}
