/**
 * Read scale-out: read-only requests served by PostgreSQL hot standbys ({@code verso.read-replicas}).
 * {@link io.verso.replica.ReplicaRouter} picks, per read request, a replica whose snapshot holds
 * what the request must see (the commit it reads AS OF, the caller's {@code Verso-Min-Commit},
 * every commit this instance knows of, the latest catalog version) or else the primary;
 * {@link io.verso.replica.RoutingDataSource} hands that replica's connection to the engine's
 * transaction. Writes never come here. docs/replicas.md says what each guarantee rests on.
 */
package io.verso.replica;
