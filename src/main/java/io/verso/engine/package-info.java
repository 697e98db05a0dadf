/**
 * Stage 4: one request, one PostgreSQL transaction. Commit sequencing (advisory lock, then the
 * sequence, released only once the commit is visible), execution of compiled statements, the
 * commit log, table lifecycle and the retention job. Surfaces call {@link io.verso.engine.StatementEngine}.
 */
package io.verso.engine;
