package io.verso.sql;

/**
 * Helpers for surfaces (REST, GraphQL) that express requests as statements of the dialect, so
 * every surface goes through the same parser, analyzer and compiler. Values never go into the
 * text: they travel as {@code ?} parameters.
 */
public final class Dialect {

    private Dialect() {
    }

    /** A name as a quoted identifier of the dialect: {@code "my ""odd"" name"}. Case is kept. */
    public static String quote(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("empty identifier");
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
