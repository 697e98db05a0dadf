package io.verso.security;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code verso.security.*}: how callers authenticate.
 *
 * @param mode         {@code on} or {@code none}; unset means none only for the zero-set-up run (embedded
 *                     PostgreSQL bound to loopback), and a refusal to start otherwise
 * @param adminRole    the role that may do everything (every privilege on every table, roles, keys, logs)
 * @param adminApiKey  an API key with the admin role taken from the configuration (VERSO_SECURITY_ADMIN_API_KEY):
 *                     how the first administrator gets in to create roles and keys
 * @param apiKeyCache  how long a looked-up API key is trusted before it is looked up again (revocation
 *                     reaches other instances within this time; this one at once)
 * @param jwt          bearer tokens
 * @param cors         browser apps from other origins
 * @param idempotency  Idempotency-Key replay
 */
@ConfigurationProperties("verso.security")
public record SecurityProperties(String mode,
                                 @DefaultValue("admin") String adminRole,
                                 String adminApiKey,
                                 @DefaultValue("5s") Duration apiKeyCache,
                                 @DefaultValue Jwt jwt,
                                 @DefaultValue Cors cors,
                                 @DefaultValue Idempotency idempotency) {

    /**
     * @param issuerUri         the issuer: tokens must carry it as {@code iss}; its JWK set is discovered from it
     *                          unless {@code jwkSetUri} or {@code publicKeyLocation} is given
     * @param jwkSetUri         where the signing keys are published
     * @param publicKeyLocation a PEM RSA public key (file: or classpath:) instead of a JWK set
     * @param audience          when set, tokens must name it in {@code aud}
     * @param rolesClaim        the claim holding the caller's roles: a list or a space-separated string; a dotted
     *                          path reaches into objects ({@code realm_access.roles})
     * @param principalClaim    the claim naming the caller (recorded with every commit as {@code jwt:<value>}); a
     *                          token without it is refused (name a claim such tokens carry to admit them)
     * @param requireExpiry     a token without {@code exp} is refused (it would never expire, and neither would the
     *                          streams opened with it); false admits such tokens
     * @param maxLifetime       when set, a token whose {@code exp} lies further than this after its {@code iat} (or,
     *                          without {@code iat}, after now) is refused
     */
    public record Jwt(String issuerUri, String jwkSetUri, String publicKeyLocation, String audience,
                      @DefaultValue("roles") String rolesClaim, @DefaultValue("sub") String principalClaim,
                      @DefaultValue("true") boolean requireExpiry, Duration maxLifetime) {

        public boolean configured() {
            return present(issuerUri) || present(jwkSetUri) || present(publicKeyLocation);
        }
    }

    /** Off while {@code allowedOrigins} is empty. */
    public record Cors(@DefaultValue List<String> allowedOrigins,
                       @DefaultValue({"GET", "POST", "DELETE", "OPTIONS"}) List<String> allowedMethods,
                       @DefaultValue({"Authorization", "Content-Type", "Idempotency-Key", "X-API-Key",
                               "X-Request-Id"}) List<String> allowedHeaders,
                       @DefaultValue({"X-Request-Id", "Retry-After"}) List<String> exposedHeaders,
                       @DefaultValue("false") boolean allowCredentials,
                       @DefaultValue("30m") Duration maxAge) {
    }

    /**
     * @param retention how long a key's first response is kept for replay
     * @param inFlight  how long a first request whose database session PostgreSQL still counts as alive may stay
     *                  unanswered before a retry may take its key over (a claim whose session is gone, because
     *                  its service or PostgreSQL died, is taken over at once)
     */
    public record Idempotency(@DefaultValue("24h") Duration retention, @DefaultValue("2m") Duration inFlight) {
    }

    public boolean on() {
        return "on".equalsIgnoreCase(mode);
    }

    static boolean present(String text) {
        return text != null && !text.isBlank();
    }
}
