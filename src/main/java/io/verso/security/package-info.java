/**
 * Who may call and what they may touch: authentication (bearer JWTs from a configured issuer, API
 * keys kept hashed in PostgreSQL), the caller's {@link io.verso.security.VersoPrincipal}, roles and
 * per-table grants ({@link io.verso.security.AccessControl}, checked by the engine for every table a
 * statement touches), CORS, and Idempotency-Key replay of writes. The HTTP side lives here; the
 * engine asks {@link io.verso.security.Caller#current()} who is calling.
 */
package io.verso.security;
