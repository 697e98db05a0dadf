/**
 * Running Verso in production: Micrometer metrics of the engine's requests, the migrations health
 * indicator, request ids in logs and problem responses, and the startup checks that refuse an
 * unreachable database or a schema migrated by a newer Verso with one clear message.
 */
package io.verso.ops;
