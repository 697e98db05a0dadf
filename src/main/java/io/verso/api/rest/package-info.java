/**
 * HTTP surface: thin controllers that turn requests into engine calls and results into JSON, and
 * the one place where errors become RFC 9457 problem details.
 */
package io.verso.api.rest;
