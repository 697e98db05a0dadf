/**
 * The one error hierarchy: the caller's fault ({@code UserError}, a 4xx) or the server's
 * ({@code ServerError}), each with a stable {@link io.verso.error.ErrorCode} that every surface renders,
 * the one {@link io.verso.error.Problem} every HTTP surface answers a refusal with, and in
 * {@link io.verso.error.Refusals} the words of every mistake more than one place refuses.
 */
package io.verso.error;
