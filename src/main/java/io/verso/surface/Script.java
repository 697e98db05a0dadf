package io.verso.surface;

import io.verso.error.VersoException;
import io.verso.sql.Dialect;
import java.util.ArrayList;
import java.util.List;

/**
 * Statement text built for a request, with its parameters and a map from positions in the text
 * back to the request input each fragment came from. Values only ever enter as {@code ?}.
 */
final class Script {

    private record Mark(int line, int column, String pointer) {
    }

    private final StringBuilder text = new StringBuilder();
    private final List<Object> params = new ArrayList<>();
    private final List<Mark> marks = new ArrayList<>();
    private int line = 1;
    private int lineStart;

    /** Text the service itself wrote: keywords and punctuation, never request input. */
    Script sql(String fragment) {
        for (int i = 0; i < fragment.length(); i++) {
            if (fragment.charAt(i) == '\n') {
                line++;
                lineStart = text.length() + i + 1;
            }
        }
        text.append(fragment);
        return this;
    }

    Script ident(String name) {
        return sql(Dialect.quote(name));
    }

    /** A {@code ?} bound to {@code value}. */
    Script param(Object value) {
        params.add(value);
        return sql("?");
    }

    /** Errors the engine reports from here on (until the next mark) are about {@code pointer}. */
    Script mark(String pointer) {
        marks.add(new Mark(line, text.length() - lineStart + 1, pointer));
        return this;
    }

    Script newline() {
        return sql("\n");
    }

    boolean isEmpty() {
        return text.isEmpty();
    }

    String text() {
        return text.toString();
    }

    List<Object> params() {
        return params;
    }

    /** The request input behind an error the engine located in this text, or {@code fallback}. */
    String pointerAt(VersoException.UserError error, String fallback) {
        if (error.line() <= 0) {
            return fallback;
        }
        String found = fallback;
        for (Mark mark : marks) {
            if (mark.line() < error.line() || (mark.line() == error.line() && mark.column() <= error.column())) {
                found = mark.pointer();
            }
        }
        return found;
    }
}
