/**
 * GraphQL surface: a schema generated from the catalog (one typed object per table, with list,
 * by-key, history and aggregate queries and batch mutations), rebuilt when the catalog changes and
 * swapped in atomically; data fetchers that turn arguments into the resource layer's filter tree,
 * sort, cursor and page rules ({@link io.verso.surface.ReadBuilder}) and build every read and write as
 * a syntax tree, never text, running all root fields of one request in one engine call (one snapshot,
 * one commit);
 * and the one place where {@link io.verso.error.VersoException} becomes a GraphQL error.
 */
package io.verso.api.graphql;
