package io.verso.sql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.concurrent.atomic.LongAdder;

/**
 * Parsed requests by their text, within a budget of text length. A client that sends the same
 * parameterised text again (a batch {@code UPSERT ... VALUES (?, ...), ...}, a read by key) skips
 * lexing and parsing, which for a 1,000-row VALUES list costs more than analysing and compiling it.
 * Safe to share: parsing is a pure function of the text and the syntax tree is never changed after
 * it is built. Only successful parses are kept; a text that fails parses (and fails) again.
 */
public final class ScriptCache {

    /** Texts longer than this are parsed every time: their trees would crowd out the rest. */
    static final int MAX_TEXT_CHARS = 64 * 1024;

    private final Cache<String, SqlParser.Script> scripts;
    private final LongAdder parses = new LongAdder();

    /** @param maxChars the total length of the texts kept; a tree takes roughly 20 times its text. */
    public ScriptCache(long maxChars) {
        this.scripts = Caffeine.newBuilder().maximumWeight(maxChars)
                .<String, SqlParser.Script>weigher((text, script) -> text.length()).executor(Runnable::run).build();
    }

    public SqlParser.Script parse(String text) {
        if (text == null || text.length() > MAX_TEXT_CHARS) {
            parses.increment();
            return SqlParser.parse(text);
        }
        return scripts.get(text, t -> {
            parses.increment();
            return SqlParser.parse(t);
        });
    }

    /** The texts parsed since this cache was made (each kept text once): how a test sees that uses do not parse. */
    public long parses() {
        return parses.sum();
    }

    /** The texts kept, once pending evictions are done. */
    long size() {
        scripts.cleanUp();
        return scripts.estimatedSize();
    }
}
