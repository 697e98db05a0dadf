/**
 * The syntax tree: immutable records under sealed interfaces, each with its source position. Every
 * way of saying "as of" is one {@link io.verso.sql.ast.AsOf}; later stages never look at syntax.
 */
package io.verso.sql.ast;
