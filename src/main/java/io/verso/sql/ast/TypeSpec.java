package io.verso.sql.ast;

import io.verso.catalog.ColumnType;
import io.verso.error.Origin;

/** A column type as written: a name and up to two integer modifiers (precision, scale or length). */
public record TypeSpec(String name, Integer first, Integer second, Pos pos) implements ColumnType.Spec {
    @Override
    public Origin origin() {
        return pos == null ? null : pos.origin();
    }
}
