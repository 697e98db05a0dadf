package io.verso.security;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.stereotype.Component;

/**
 * Credentials presented outside an HTTP header, as a WebSocket client's {@code connection_init}
 * payload carries them (browsers cannot set headers on a WebSocket handshake): an API key, or a
 * bearer token (a JWT, or an API key given as bearer). The same checks as the HTTP filters.
 */
@Component
public class Credentials {

    private final ApiKeys keys;
    private final SecurityProperties properties;
    private final ResourceLoader resources;
    private final boolean on;
    private volatile JwtDecoder decoder;
    private final Map<String, Trusted> tokens = new ConcurrentHashMap<>();

    Credentials(ApiKeys keys, SecurityProperties properties, ResourceLoader resources,
                ConfigurableEnvironment environment) {
        this.keys = keys;
        this.properties = properties;
        this.resources = resources;
        this.on = SecurityConfiguration.resolveOn(properties, environment);
    }

    /** Whether callers must authenticate (security mode on). */
    public boolean required() {
        return on;
    }

    /**
     * The caller an API key or an {@code Authorization} value ({@code Bearer <token>}) names; empty
     * when neither is given or they are not valid (unknown or revoked key, bad or expired token).
     */
    public Optional<VersoPrincipal> authenticate(String apiKey, String authorization) {
        if (!on) {
            return Optional.of(VersoPrincipal.SYSTEM);
        }
        if (apiKey != null && !apiKey.isBlank()) {
            return keys.authenticate(apiKey.strip());
        }
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = authorization.substring(7).strip();
        if (token.startsWith(ApiKeys.PREFIX) || token.equals(properties.adminApiKey())) {
            return keys.authenticate(token);
        }
        if (!properties.jwt().configured() || token.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(token(token));
    }

    /**
     * The caller a bearer JWT names, as the filter chain's check finds it, or null when the token is not valid: for
     * the front door's hot reads and WebSocket sessions. A token found valid is trusted again without its signature
     * checked for {@code verso.security.api-key-cache} (as an API key is), never past its {@code exp}; a token
     * refused is checked again each time.
     */
    VersoPrincipal token(String token) {
        long now = System.nanoTime();
        Trusted trusted = tokens.get(token);
        if (trusted != null && now - trusted.until() < 0) {
            return trusted.principal();
        }
        VersoPrincipal principal;
        try {
            principal = ((VersoAuthentication) new JwtPrincipals(properties).convert(decoder().decode(token)))
                    .getPrincipal();
        } catch (JwtException e) {
            return null;
        }
        long trust = properties.apiKeyCache().toNanos();
        if (principal.expires() != null) {
            trust = Math.min(trust, java.time.Duration.between(java.time.Instant.now(), principal.expires()).toNanos());
        }
        if (trust > 0) {
            if (tokens.size() > 10_000) {
                tokens.clear(); // a flood of distinct tokens: start afresh rather than grow
            }
            tokens.put(token, new Trusted(principal, now + trust));
        }
        return principal;
    }

    private record Trusted(VersoPrincipal principal, long until) {
    }

    /**
     * Whether the credential {@code principal} authenticated with still holds: a token before its {@code exp},
     * an API key not revoked. Asked by what stays open after authentication (change streams, WebSocket
     * sessions), which end when it no longer does. Grants are not its business: every read checks them.
     */
    public boolean valid(VersoPrincipal principal) {
        if (!on || principal == VersoPrincipal.SYSTEM) {
            return true;
        }
        if (principal.expired(java.time.Instant.now())) {
            return false;
        }
        String name = principal.name();
        return name == null || !name.startsWith(ApiKeys.PRINCIPAL_PREFIX)
                || keys.active(name.substring(ApiKeys.PRINCIPAL_PREFIX.length()));
    }

    /** Why {@link #valid} said no, for the message that ends a stream or a socket. */
    public static String invalidReason(VersoPrincipal principal) {
        return principal.expired(java.time.Instant.now()) ? "the bearer token of " + principal.name() + " expired"
                : "the API key of " + principal.name() + " was revoked";
    }

    /** A security context for {@code principal}, for work that runs outside the HTTP filters (WebSocket messages). */
    public static org.springframework.security.core.context.SecurityContext context(VersoPrincipal principal) {
        var context = org.springframework.security.core.context.SecurityContextHolder.createEmptyContext();
        context.setAuthentication(new VersoAuthentication(principal, null));
        return context;
    }

    /** The principal of an authentication the HTTP filters made, or null. */
    public static VersoPrincipal of(Object authentication) {
        return authentication instanceof org.springframework.security.core.Authentication a
                && a.getPrincipal() instanceof VersoPrincipal p ? p : null;
    }

    private JwtDecoder decoder() {
        JwtDecoder d = decoder;
        if (d == null) {
            d = SecurityConfiguration.jwtDecoder(properties, resources);
            decoder = d;
        }
        return d;
    }
}
