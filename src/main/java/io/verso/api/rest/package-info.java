/**
 * HTTP surface: thin controllers that turn requests into engine calls and results into JSON, and
 * the one place where errors become RFC 9457 problem details. HTTP caching of reads is here too:
 * ETags, Cache-Control and 304 ({@code ConditionalReads}), and the in-process cache of answers pinned
 * to a commit ({@code PinnedAnswers}).
 */
package io.verso.api.rest;
