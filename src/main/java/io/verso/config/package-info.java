/**
 * Service settings ({@code verso.*}) and the zero-set-up embedded PostgreSQL used when no database
 * URL is configured.
 */
package io.verso.config;
