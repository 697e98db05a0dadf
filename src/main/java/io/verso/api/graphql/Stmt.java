package io.verso.api.graphql;

import io.verso.sql.Dialect;
import java.util.ArrayList;
import java.util.List;

/**
 * One statement of the dialect with its {@code ?} parameters. Names go through
 * {@link Dialect#quote}, values only into {@code params}: nothing a client sends is ever
 * concatenated into the text.
 */
record Stmt(String text, List<Object> params) {

    static Builder builder() {
        return new Builder();
    }

    static final class Builder {
        private final StringBuilder text = new StringBuilder();
        private final List<Object> params = new ArrayList<>();

        /** Trusted text: keywords and punctuation written here, never client input. */
        Builder sql(String fragment) {
            text.append(fragment);
            return this;
        }

        Builder ident(String name) {
            text.append(Dialect.quote(name));
            return this;
        }

        Builder param(Object value) {
            text.append('?');
            params.add(value);
            return this;
        }

        Stmt build() {
            return new Stmt(text.toString(), nullable(params));
        }

        private static List<Object> nullable(List<Object> params) {
            // List.copyOf refuses nulls; a NULL value is a legitimate parameter.
            return java.util.Collections.unmodifiableList(new ArrayList<>(params));
        }
    }
}
