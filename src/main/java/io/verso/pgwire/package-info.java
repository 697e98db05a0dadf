/**
 * The PostgreSQL wire protocol (v3) surface: bytes to messages, messages to the same statement requests
 * {@code /v1/sql} makes, and results back to messages (docs/pgwire.md). One Query message, or the
 * Parse/Bind/Execute messages up to one Sync, are one request: one transaction, at most one commit, run by
 * {@code engine.StatementEngine} for the connection's principal under the same admission as HTTP. This
 * package owns framing, authentication handshakes, type OIDs and value encodings, SQLSTATEs and the few
 * session statements clients send on connect; it owns no statement semantics.
 */
package io.verso.pgwire;
