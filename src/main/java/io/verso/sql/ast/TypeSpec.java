package io.verso.sql.ast;

/** A column type as written: a name and up to two integer modifiers (precision, scale or length). */
public record TypeSpec(String name, Integer first, Integer second, Pos pos) {
}
