package io.verso.security;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * A validated JWT to the caller it names: {@code jwt:} and the principal claim, the roles in the configured
 * claim, and its expiry. The prefix keeps tokens out of the API keys' names ({@code key:<name>}) and the admin
 * key's ({@code admin-api-key}): a token whose subject is {@code key:ana} is {@code jwt:key:ana}, never ana's key.
 * The claims this needs are checked first, with the signature ({@link #validator}).
 */
final class JwtPrincipals implements Converter<Jwt, AbstractAuthenticationToken> {

    static final String PREFIX = "jwt:";

    private final SecurityProperties properties;

    JwtPrincipals(SecurityProperties properties) {
        this.properties = properties;
    }

    @Override
    public AbstractAuthenticationToken convert(Jwt jwt) {
        Set<String> roles = roles(jwt.getClaims(), properties.jwt().rolesClaim());
        VersoPrincipal principal = new VersoPrincipal(PREFIX + name(jwt, properties.jwt().principalClaim()), roles,
                roles.contains(properties.adminRole()), jwt.getExpiresAt());
        return new VersoAuthentication(principal, jwt);
    }

    private static String name(Jwt jwt, String claim) {
        Object name = jwt.getClaims().get(claim);
        return name == null ? null : name.toString();
    }

    /**
     * Refuses, as an invalid token, one without the principal claim (its commits would name nobody), one
     * without {@code exp} unless {@code require-expiry} is off, and one living longer than {@code max-lifetime}.
     */
    static OAuth2TokenValidator<Jwt> validator(SecurityProperties.Jwt settings) {
        return jwt -> {
            String name = name(jwt, settings.principalClaim());
            if (name == null || name.isBlank()) {
                return invalid("the token has no '" + settings.principalClaim() + "' claim to name its caller "
                        + "(verso.security.jwt.principal-claim)");
            }
            Instant expires = jwt.getExpiresAt();
            if (expires == null) {
                return settings.requireExpiry() ? invalid("the token has no 'exp' claim: a token that never expires "
                        + "is refused (verso.security.jwt.require-expiry)") : OAuth2TokenValidatorResult.success();
            }
            Duration max = settings.maxLifetime();
            if (max != null) {
                // Spring fills a missing iat in as exp minus a second, so an iat after now counts from now.
                Instant now = Instant.now();
                Instant from = jwt.getIssuedAt() != null && jwt.getIssuedAt().isBefore(now) ? jwt.getIssuedAt() : now;
                if (Duration.between(from, expires).compareTo(max) > 0) {
                    return invalid("the token lives " + Duration.between(from, expires).toSeconds() + " s, longer than "
                            + "verso.security.jwt.max-lifetime (" + max.toSeconds() + " s)");
                }
            }
            return OAuth2TokenValidatorResult.success();
        };
    }

    private static OAuth2TokenValidatorResult invalid(String description) {
        return OAuth2TokenValidatorResult.failure(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN, description, null));
    }

    /** The roles at a dotted claim path: a JSON array of strings, or one space- or comma-separated string. */
    static Set<String> roles(Map<String, Object> claims, String path) {
        Object value = claims;
        for (String part : path.split("\\.")) {
            value = value instanceof Map<?, ?> map ? map.get(part) : null;
        }
        Set<String> roles = new LinkedHashSet<>();
        if (value instanceof Collection<?> list) {
            list.forEach(r -> {
                if (r != null) {
                    roles.add(r.toString());
                }
            });
        } else if (value instanceof String text) {
            Arrays.stream(text.split("[\\s,]+")).filter(r -> !r.isEmpty()).forEach(roles::add);
        }
        return roles;
    }
}
