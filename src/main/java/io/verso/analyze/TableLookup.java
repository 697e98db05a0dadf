package io.verso.analyze;

import io.verso.catalog.TableDef;
import io.verso.catalog.ViewDef;
import io.verso.sql.ast.Ident;
import java.util.Optional;

/**
 * The catalog as the analyzer sees it: a name resolves to a table or fails with UNKNOWN_TABLE;
 * {@link #view} finds a view of that name (asked only when no table has it); {@link #system} a relation of a
 * system schema.
 */
@FunctionalInterface
public interface TableLookup {
    TableDef table(Ident name);

    default Optional<ViewDef> view(String name) {
        return Optional.empty();
    }

    /**
     * The relation {@code schema.name} of a system schema ({@link SystemSchemas}), its rows made from what the
     * caller may see; empty when there is no such relation (the analyzer refuses it as an unknown table).
     */
    default Optional<SystemRelation> system(Ident schema, Ident name) {
        return Optional.empty();
    }
}
