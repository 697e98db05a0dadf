package io.verso.api.graphql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import graphql.ExecutionInput;
import graphql.execution.preparsed.PreparsedDocumentEntry;
import graphql.execution.preparsed.PreparsedDocumentProvider;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Parsed and validated documents of one schema by their text, a bounded number of them: a client
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

    private final Cache<Key, PreparsedDocumentEntry> entries = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).build();

    @Override
    public CompletableFuture<PreparsedDocumentEntry> getDocumentAsync(ExecutionInput input,
            Function<ExecutionInput, PreparsedDocumentEntry> parseAndValidate) {
        String text = input.getQuery();
        if (text == null || text.length() > MAX_TEXT_CHARS) {
            return CompletableFuture.completedFuture(parseAndValidate.apply(input));
        }
        PreparsedDocumentEntry entry = entries.get(new Key(text, input.getLocale()), key -> parseAndValidate.apply(input));
        return CompletableFuture.completedFuture(entry);
    }
}
