package io.verso.sql.ast;

import io.verso.error.Located;
import io.verso.error.Origin;

/**
 * Where a syntax-tree node came from: a line and column of statement text when parsed, or the
 * JSON pointer or GraphQL argument a surface built it from.
 */
public record Pos(Origin origin) implements Located {

    public Pos(int line, int column) {
        this(new Origin.Text(line, column));
    }

    public static Pos of(Origin origin) {
        return new Pos(origin);
    }

    /** A node built from a JSON body field or request parameter. */
    public static Pos pointer(String pointer) {
        return new Pos(new Origin.Pointer(pointer));
    }

    /** 1-based line in the request text, or 0 for a node not parsed from text. */
    public int line() {
        return origin instanceof Origin.Text t ? t.line() : 0;
    }

    public int column() {
        return origin instanceof Origin.Text t ? t.column() : 0;
    }

    @Override
    public String toString() {
        return origin.toString();
    }
}
