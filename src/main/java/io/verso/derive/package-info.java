/**
 * Derived tables: tables defined by a query over other tables and kept by the engine, exact at
 * every commit. Each is stored as an ordinary VERSIONED table keyed by its PRIMARY KEY; the engine
 * applies each source commit inside that commit's own transaction (after the source writes, before
 * the commit record), writing the derived table's changed rows as versions at the same commit. So
 * {@code d AS OF COMMIT n} is Verso's ordinary AS OF read, and no read sees a commit half applied.
 */
package io.verso.derive;
