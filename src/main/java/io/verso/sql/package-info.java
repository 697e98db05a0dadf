/**
 * Stage 1 of a statement: text to syntax tree. The ANTLR grammar ({@code VersoSql.g4}) and the AST
 * builder that folds case, unescapes literals, numbers {@code ?} placeholders over the whole request
 * and refuses malformed AS OF operands. Syntax errors carry line and column over the request text.
 */
package io.verso.sql;
