/**
 * The web console's server side, which is small on purpose: the console, Swagger UI and GraphiQL
 * are static pages bundled from console/ into the jar (static/, and graphiql/index.html in place
 * of Spring GraphQL's CDN-loading page) and talk only to the public surfaces (/v1, /graphql).
 * This package serves what they need beyond that: the REST contract itself.
 */
package io.verso.api.console;
