/**
 * The resource surface: tables, rows, history, diffs and commits expressed as statements of the
 * dialect and run through {@link io.verso.engine.StatementEngine}, so REST (and any other surface)
 * shares one parser, analyzer and compiler as its security boundary. Identifiers are quoted with
 * {@link io.verso.sql.Dialect#quote}; every value travels as a {@code ?} parameter. Errors the
 * engine reports at a position of the generated text are traced back to the request field that
 * produced it, so a client sees a JSON pointer or parameter name, never a line of SQL it did not write.
 */
package io.verso.surface;
