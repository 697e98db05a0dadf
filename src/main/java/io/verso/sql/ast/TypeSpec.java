package io.verso.sql.ast;

import io.verso.catalog.ColumnType;
import io.verso.error.Origin;

/** A column type as written: a name and up to two integer modifiers (precision, scale or length). */
public record TypeSpec(String name, Integer first, Integer second, Pos pos) implements ColumnType.Spec {

    /** A column's type spelled as a type name, at {@code pos}: what the analyzer makes a CAST to it with. */
    public static TypeSpec of(ColumnType type, Pos pos) {
        String name = switch (type.base()) {
            case DOUBLE -> "double precision";
            case CHAR -> "character";
            default -> type.base().name().toLowerCase(java.util.Locale.ROOT);
        };
        return new TypeSpec(name, type.precision(), type.scale(), pos);
    }

    @Override
    public Origin origin() {
        return pos == null ? null : pos.origin();
    }
}
