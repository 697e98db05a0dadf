package io.verso.sql;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parsed requests by their text, least recently used first out. A client that sends the same
 * parameterised text again (a batch {@code UPSERT ... VALUES (?, ...), ...}, a read by key) skips
 * lexing and parsing, which for a 1,000-row VALUES list costs more than analysing and compiling it.
 * Safe to share: parsing is a pure function of the text and the syntax tree is never changed after
 * it is built. Only successful parses are kept; a text that fails parses (and fails) again.
 */
public final class ScriptCache {

    /** Texts longer than this are parsed every time: their trees would crowd out the rest. */
    static final int MAX_TEXT_CHARS = 64 * 1024;

    private final long maxChars;
    private long chars;
    private final LinkedHashMap<String, SqlParser.Script> scripts = new LinkedHashMap<>(64, 0.75f, true);

    /** @param maxChars the total length of the texts kept; a tree takes roughly 20 times its text. */
    public ScriptCache(long maxChars) {
        this.maxChars = maxChars;
    }

    public SqlParser.Script parse(String text) {
        if (text == null || text.length() > MAX_TEXT_CHARS) {
            return SqlParser.parse(text);
        }
        synchronized (this) {
            SqlParser.Script cached = scripts.get(text);
            if (cached != null) {
                return cached;
            }
        }
        SqlParser.Script parsed = SqlParser.parse(text);
        synchronized (this) {
            if (scripts.put(text, parsed) == null) {
                chars += text.length();
            }
            var eldest = scripts.entrySet().iterator();
            while (chars > maxChars && eldest.hasNext()) {
                Map.Entry<String, SqlParser.Script> e = eldest.next();
                chars -= e.getKey().length();
                eldest.remove();
            }
        }
        return parsed;
    }

    synchronized int size() {
        return scripts.size();
    }
}
