/**
 * Change feeds: the changes of a table's current rows (the relation {@code changes(t)}) served in
 * pages that end on commit boundaries, and followed live. New commits are discovered through
 * PostgreSQL (LISTEN/NOTIFY on {@link io.verso.feed.CommitSignal#CHANNEL}, with the commit log
 * polled as a fallback), never an in-memory bus, so a stream on one instance sees commits made on
 * any other.
 */
package io.verso.feed;
