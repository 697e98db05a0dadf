/**
 * Stage 4: one request, one PostgreSQL transaction. Commit sequencing (commit and table locks, the
 * sequence drawn under a short lock, commits made visible in sequence order), execution of compiled statements, the
 * commit log, table lifecycle and the retention job. Surfaces call {@link io.verso.engine.StatementEngine}, which
 * only orchestrates: each kind of statement runs in one class ({@code RowWrites}, {@code DdlStatements} and
 * {@code Lifecycle}, {@code SystemVersioning}, {@code AccessStatements}, {@code CatalogListings}), reading its
 * request through {@code RequestContext}.
 */
package io.verso.engine;
