package io.verso.sql.ast;

/** A 1-based line and column in the whole request text. */
public record Pos(int line, int column) {
    @Override
    public String toString() {
        return line + ":" + column;
    }
}
