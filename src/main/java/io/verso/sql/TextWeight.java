package io.verso.sql;

import io.verso.error.ErrorCode;
import io.verso.error.Origin;
import io.verso.error.VersoException;

/**
 * The weight of a request's text, judged on its characters in one pass before the lexer and the parser
 * run: those hold an object per token and may look far ahead, so a text refused for its size must not
 * reach them (an IN list of a million literals once took 19 s and 220 MB before its refusal). Refused
 * here, with the position of the character that crossed the bound:
 * <ul>
 *   <li>parentheses nested more than {@link #MAX_PARENTHESES} deep (NESTING_TOO_DEEP);</li>
 *   <li>a read (a statement that begins with SELECT, WITH, VALUES or a parenthesis) holding more literals
 *       and placeholders than a read of {@link #MAX_READ_TERMS} expression terms can hold
 *       (STATEMENT_TOO_LARGE): the analyzer counts the terms exactly, this bound is only ever crossed
 *       by a read the analyzer would refuse.</li>
 * </ul>
 * The scan knows the lexer's forms (strings, quoted identifiers, comments), so what is inside them is
 * not counted.
 */
public final class TextWeight {

    /**
     * Parentheses nest at most this deep. A parenthesis may open a query or an expression, and telling them
     * apart costs a look ahead over the nested parentheses at each level: without a bound, deep nesting
     * would cost time quadratic in its depth before any error.
     */
    static final int MAX_PARENTHESES = 200;

    /** Expression terms of one read (analyze.ReadAnalyzer counts them). */
    public static final int MAX_READ_TERMS = 20_000;

    /**
     * Literals that are not terms of their own are type parameters ({@code NUMERIC(38, 2)}: two per CAST,
     * which is a term with an operand) and AS OF commits (one per relation, at most 128): beyond this many
     * literals a read holds more than {@link #MAX_READ_TERMS} terms.
     */
    static final int MAX_READ_LITERALS = 2 * MAX_READ_TERMS + 2 * 128;

    private TextWeight() {
    }

    static void check(String text) {
        int n = text.length();
        int depth = 0;
        int literals = 0;
        boolean start = true;
        boolean read = false;
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            int from = i;
            if (c == '\'' || c == '"') {
                i = quoted(text, i, c);
                if (c == '\'' && read && ++literals > MAX_READ_LITERALS) {
                    throw tooManyTerms(text, from);
                }
                start = false;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                while (i < n && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (isDigit(c) || c == '.' && i + 1 < n && isDigit(text.charAt(i + 1)) || c == '?') {
                i = c == '?' ? i + 1 : number(text, i);
                if (read && ++literals > MAX_READ_LITERALS) {
                    throw tooManyTerms(text, from);
                }
                start = false;
            } else if (isWordChar(c)) {
                while (i < n && (isWordChar(text.charAt(i)) || isDigit(text.charAt(i)))) {
                    i++;
                }
                if (start) {
                    String word = text.substring(from, i);
                    read = word.equalsIgnoreCase("SELECT") || word.equalsIgnoreCase("WITH")
                            || word.equalsIgnoreCase("VALUES");
                    start = false;
                }
            } else {
                if (c == '(') {
                    if (++depth > MAX_PARENTHESES) {
                        Origin.Text at = position(text, i);
                        throw new VersoException.UserError(ErrorCode.NESTING_TOO_DEEP, "parentheses nest more than "
                                + MAX_PARENTHESES + " deep at line " + at.line() + ", column " + at.column(), at);
                    }
                    if (start) {
                        read = true;
                        start = false;
                    }
                } else if (c == ')') {
                    depth = Math.max(0, depth - 1);
                } else if (c == ';') {
                    start = true;
                    read = false;
                    literals = 0;
                } else if (!Character.isWhitespace(c)) {
                    start = false;
                }
                i++;
            }
        }
    }

    /** After the closing quote of a string or quoted identifier (a doubled quote stays inside), or the end. */
    private static int quoted(String text, int i, char quote) {
        int n = text.length();
        i++;
        while (i < n) {
            if (text.charAt(i) == quote) {
                if (i + 1 < n && text.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return n;
    }

    /** After a number: digits, a point and digits, an exponent. */
    private static int number(String text, int i) {
        int n = text.length();
        while (i < n && isDigit(text.charAt(i))) {
            i++;
        }
        if (i < n && text.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(text.charAt(i))) {
                i++;
            }
        }
        if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < n && (text.charAt(j) == '+' || text.charAt(j) == '-')) {
                j++;
            }
            if (j < n && isDigit(text.charAt(j))) {
                i = j;
                while (i < n && isDigit(text.charAt(i))) {
                    i++;
                }
            }
        }
        return i;
    }

    private static VersoException tooManyTerms(String text, int at) {
        Origin.Text position = position(text, at);
        return new VersoException.UserError(ErrorCode.STATEMENT_TOO_LARGE, "a read holds at most " + MAX_READ_TERMS
                + " expression terms; this one has more than " + MAX_READ_LITERALS + " literals and parameters by line "
                + position.line() + ", column " + position.column() + " (for long lists of values, write them to a "
                + "table and join it)", position);
    }

    /** Line and column of a character, as the lexer counts them (lines end at \n). */
    private static Origin.Text position(String text, int at) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < at; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new Origin.Text(line, at - lineStart + 1);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isWordChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }
}
