package io.verso.api.graphql;

import graphql.ExecutionInput;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.execution.preparsed.PreparsedDocumentProvider;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Parsed and validated documents of one schema by their text, least recently used first out: a client
 * that sends the same operation again (a batch mutation whose rows come as variables) skips parsing and
 * validation. One cache per built schema, so a document is never reused against another schema; what
 * parsing and validation give depends on the text and the schema only, errors included. Texts longer
 * than {@link #MAX_TEXT_CHARS} (values written inline) are parsed every time.
 */
final class DocumentCache implements PreparsedDocumentProvider {

    static final int MAX_TEXT_CHARS = 16 * 1024;
    static final int MAX_ENTRIES = 256;

    /** Error messages are localised: the same text in another locale is another entry. */
    private record Key(String text, Locale locale) {
    }

    private final Map<Key, PreparsedDocumentEntry> entries = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, PreparsedDocumentEntry> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    @Override
    public CompletableFuture<PreparsedDocumentEntry> getDocumentAsync(ExecutionInput input,
            Function<ExecutionInput, PreparsedDocumentEntry> parseAndValidate) {
        String text = input.getQuery();
        if (text == null || text.length() > MAX_TEXT_CHARS) {
            return CompletableFuture.completedFuture(parseAndValidate.apply(input));
        }
        Key key = new Key(text, input.getLocale());
        PreparsedDocumentEntry entry;
        synchronized (entries) {
            entry = entries.get(key);
        }
        if (entry == null) {
            entry = parseAndValidate.apply(input);
            synchronized (entries) {
                entries.put(key, entry);
            }
        }
        return CompletableFuture.completedFuture(entry);
    }
}
