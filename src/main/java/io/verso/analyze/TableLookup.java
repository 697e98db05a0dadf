package io.verso.analyze;

import io.verso.catalog.TableDef;
import io.verso.catalog.ViewDef;
import io.verso.sql.ast.Ident;
import java.util.Optional;

/**
 * The catalog as the analyzer sees it: a name resolves to a table or fails with UNKNOWN_TABLE;
 * {@link #view} finds a view of that name (asked only when no table has it).
 */
@FunctionalInterface
public interface TableLookup {
    TableDef table(Ident name);

    default Optional<ViewDef> view(String name) {
        return Optional.empty();
    }
}
