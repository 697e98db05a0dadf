/**
 * Stage 2: the syntax tree bound to the catalog. Resolves tables and column references with one binder,
 * the read analyzer (SELECT, the rows UPDATE and DELETE match, CHECK constraints), judges the common type
 * errors before PostgreSQL sees the statement ({@code TypeRules}), turns AS OF clauses into commit
 * sequences (with each mistake's own error), checks written values against their column types and splits
 * writes into one batch per attribute group.
 */
package io.verso.analyze;
