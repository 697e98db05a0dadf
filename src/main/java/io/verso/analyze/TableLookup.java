package io.verso.analyze;

import io.verso.catalog.TableDef;
import io.verso.sql.ast.Ident;

/** The catalog as the analyzer sees it: a name resolves to a table or fails with UNKNOWN_TABLE. */
@FunctionalInterface
public interface TableLookup {
    TableDef table(Ident name);
}
