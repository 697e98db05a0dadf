/**
 * The resource layer under REST and GraphQL: tables, rows, history, diffs and commits as syntax
 * trees of the dialect ({@link io.verso.surface.ReadBuilder} for every read, the write services
 * for writes), run through {@link io.verso.engine.StatementEngine}, so every surface shares one
 * analyzer and compiler as its security boundary. One filter tree ({@link io.verso.surface.Filter}),
 * one sort and tie-break, one cursor format ({@link io.verso.surface.Cursor}), one rule for page
 * sizes, one value check per column type. No statement text is made here: every value is a
 * {@code ?} parameter and every node carries the origin of the input it came from (a JSON pointer,
 * a parameter name, a GraphQL argument), so an error names that input directly.
 */
package io.verso.surface;
