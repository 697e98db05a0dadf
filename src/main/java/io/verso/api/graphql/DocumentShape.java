package io.verso.api.graphql;

import java.util.ArrayList;
import java.util.List;

/**
 * A GraphQL document with its int, float and string literals taken out: the text with a mark in place of each
 * ({@link #text}), and the literals in document order. Two documents of one shape differ in those values only, so
 * what is decided about a document's structure holds for every document of its shape: a client that writes each
 * key into its document sends one shape whatever the key.
 *
 * <p>The lexing follows the GraphQL grammar's tokens (names, numbers, strings, punctuators, ignored tokens) just
 * far enough to find the literals; a document it is not sure of (a block string, an escape in a string, a control
 * character, a malformed number, a character no token starts with) is its own shape, with no literal taken out.
 */
record DocumentShape(String text, boolean masked, List<Literal> literals) {

    /** The mark of a literal in {@link #text}, followed by its kind: no document of a shape holds it elsewhere. */
    private static final char MARK = '\u0001';

    /** An int, float or string literal: {@code kind} is {@code I}, {@code F} or {@code S}, {@code value} its text (a string's content). */
    record Literal(char kind, String value) {
    }

    static DocumentShape of(String document) {
        StringBuilder text = new StringBuilder(document.length());
        List<Literal> literals = new ArrayList<>(2);
        int n = document.length();
        int i = 0;
        while (i < n) {
            char c = document.charAt(i);
            if (c == '#') {
                int end = i;
                while (end < n && document.charAt(end) != '\n' && document.charAt(end) != '\r') {
                    end++;
                }
                text.append(document, i, end);
                i = end;
            } else if (c == '"') {
                int end = i + 1;
                while (end < n && document.charAt(end) != '"') {
                    char s = document.charAt(end);
                    if (s == '\\' || s < 0x20) {
                        return unmasked(document);
                    }
                    end++;
                }
                if (end >= n || end == i + 1 && end + 1 < n && document.charAt(end + 1) == '"') {
                    return unmasked(document); // unterminated, or a block string
                }
                literals.add(new Literal('S', document.substring(i + 1, end)));
                text.append(MARK).append('S');
                i = end + 1;
            } else if (c == '-' || c >= '0' && c <= '9') {
                int end = number(document, i);
                if (end < 0) {
                    return unmasked(document);
                }
                String token = document.substring(i, end);
                boolean isFloat = token.indexOf('.') >= 0 || token.indexOf('e') >= 0 || token.indexOf('E') >= 0;
                literals.add(new Literal(isFloat ? 'F' : 'I', token));
                text.append(MARK).append(isFloat ? 'F' : 'I');
                i = end;
            } else if (nameStart(c)) {
                int end = i + 1;
                while (end < n && (nameStart(document.charAt(end)) || digit(document.charAt(end)))) {
                    end++;
                }
                text.append(document, i, end);
                i = end;
            } else if (" \t\n\r,\uFEFF!$&()[]{}:=@|.".indexOf(c) >= 0) {
                text.append(c);
                i++;
            } else {
                return unmasked(document);
            }
        }
        return new DocumentShape(text.toString(), true, List.copyOf(literals));
    }

    private static DocumentShape unmasked(String document) {
        return new DocumentShape(document, false, List.of());
    }

    /**
     * The end of the number starting at {@code start} ({@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}),
     * or -1 when it is malformed or runs into a name or a dot, as GraphQL forbids.
     */
    private static int number(String document, int start) {
        int n = document.length();
        int i = start;
        if (document.charAt(i) == '-') {
            i++;
        }
        if (i >= n || !digit(document.charAt(i))) {
            return -1;
        }
        if (document.charAt(i) == '0') {
            i++;
        } else {
            while (i < n && digit(document.charAt(i))) {
                i++;
            }
        }
        if (i < n && document.charAt(i) == '.') {
            i = digits(document, i + 1);
            if (i < 0) {
                return -1;
            }
        }
        if (i < n && (document.charAt(i) == 'e' || document.charAt(i) == 'E')) {
            i++;
            if (i < n && (document.charAt(i) == '+' || document.charAt(i) == '-')) {
                i++;
            }
            i = digits(document, i);
            if (i < 0) {
                return -1;
            }
        }
        if (i < n && (nameStart(document.charAt(i)) || digit(document.charAt(i)) || document.charAt(i) == '.')) {
            return -1;
        }
        return i;
    }

    /** The end of one or more digits from {@code start}, or -1 when there is none. */
    private static int digits(String document, int start) {
        int i = start;
        while (i < document.length() && digit(document.charAt(i))) {
            i++;
        }
        return i > start ? i : -1;
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean nameStart(char c) {
        return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
    }
}
