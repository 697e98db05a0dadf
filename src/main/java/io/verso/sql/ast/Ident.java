package io.verso.sql.ast;

/** A name as the user wrote it, already case-folded unless it was double-quoted. */
public record Ident(String name, Pos pos) {
    @Override
    public String toString() {
        return name;
    }
}
