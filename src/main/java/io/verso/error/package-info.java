/**
 * The one error hierarchy: the caller's fault ({@code UserError}, a 4xx) or the server's
 * ({@code ServerError}), each with a stable {@link io.verso.error.ErrorCode} that every surface renders.
 */
package io.verso.error;
