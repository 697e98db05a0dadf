/**
 * Stage 4: one request, one PostgreSQL transaction. Commit sequencing (commit and table locks, the
 * sequence drawn under a short lock, commits made visible in sequence order), execution of compiled statements, the
 * commit log, table lifecycle and the retention job. Surfaces call {@link io.verso.engine.StatementEngine}.
 */
package io.verso.engine;
