package io.verso.catalog;

/**
 * A CHECK constraint of a table: its name (given, or made as PostgreSQL makes one) and its expression
 * as written, over the table's column names. It holds for every current row: a write that leaves a
 * row for which it is false is refused.
 */
public record CheckDef(String name, String expression) {
}
