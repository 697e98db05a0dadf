package io.verso.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * What the front door ({@code api.FrontDoor}) asks of trust before it answers a hot read ahead of the filter chain.
 * Each answer is the one the chain's filters would give, for the requests every one of them lets through: the same
 * API keys and their cache ({@link ApiKeyFilter}), the same admission ({@link AdmissionFilter}), the headers Spring
 * Security writes on every answer. A bearer JWT the chain finds valid is trusted as {@link Credentials#token} says.
 * Whatever the chain would refuse, or decides by machinery of its own, the front door passes on to it, to be refused
 * in the chain's own words: no credentials or ones it refuses, a cross-origin request while CORS is configured, and
 * text the firewall ({@link FirewallRules}) or the {@link InputGuard} would refuse.
 */
@Component
public class Doorkeeper {

    /** What Spring Security's bearer token resolver takes: anything else it refuses in its own words. */
    private static final Pattern BEARER = Pattern.compile("^Bearer (?<token>[a-zA-Z0-9-._~+/]+=*)$",
            Pattern.CASE_INSENSITIVE);

    private final ApiKeys keys;
    private final Credentials credentials;
    private final SecurityProperties properties;
    private final AdmissionFilter admission;
    private final boolean cors;

    Doorkeeper(ApiKeys keys, Credentials credentials, SecurityProperties properties, AdmissionFilter admission) {
        this.keys = keys;
        this.credentials = credentials;
        this.properties = properties;
        this.admission = admission;
        this.cors = !properties.cors().allowedOrigins().isEmpty();
    }

    /** The caller of a request the chain would let through, or null when the chain must decide. */
    public VersoPrincipal caller(HttpServletRequest request) {
        if (!plain(request)) {
            return null;
        }
        // This service's own setting, not Caller's per-JVM flag, which a second context (tests start some) sets.
        if (!credentials.required()) {
            return VersoPrincipal.SYSTEM;
        }
        String key = ApiKeyFilter.presented(request, properties);
        if (key == null) {
            return bearer(request.getHeader("Authorization"));
        }
        if (key.isEmpty()) {
            return null;
        }
        try {
            return keys.authenticate(key).orElse(null);
        } catch (DataAccessException e) {
            return null;
        }
    }

    /** The caller of a bearer JWT the chain would take, or null (no JWT issuer configured, or not a valid token). */
    private VersoPrincipal bearer(String authorization) {
        if (authorization == null || !properties.jwt().configured()) {
            return null;
        }
        Matcher bearer = BEARER.matcher(authorization);
        return bearer.matches() ? credentials.token(bearer.group("token")) : null;
    }

    /**
     * The headers the chain writes on every answer: Spring Security's (HSTS only over TLS, as it does), and while
     * CORS is configured the Vary of its CORS processing, also on a request without Origin.
     */
    public void headers(HttpServletRequest request, HttpServletResponse response) {
        if (cors) {
            response.addHeader("Vary", "Origin");
            response.addHeader("Vary", "Access-Control-Request-Method");
            response.addHeader("Vary", "Access-Control-Request-Headers");
        }
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-XSS-Protection", "0");
        response.setHeader("X-Frame-Options", "DENY");
        if (request.isSecure()) {
            response.setHeader("Strict-Transport-Security", "max-age=31536000 ; includeSubDomains");
        }
    }

    /** Whether the {@link InputGuard} lets a JSON body through: UTF-8, no string in it with a NUL or lone surrogate. */
    public boolean plainBody(byte[] body) {
        return InputGuard.refusal(body) == null;
    }

    /**
     * Admits the request under its caller (acting already) as {@link AdmissionFilter} would: what gives its place
     * back, or null when it is refused, the refusal (503 or 429) written.
     */
    public Runnable admit(HttpServletRequest request, HttpServletResponse response) throws IOException {
        return admission.admit(request, response);
    }

    /**
     * Nothing the firewall or the input guard would look twice at: a path of printable ASCII with no encoded
     * character, matrix parameter, backslash or dot segment, headers and parameters of assigned, non-control
     * characters (a tab allowed in a header value), no NUL or lone surrogate; and no Origin while CORS is configured.
     */
    private boolean plain(HttpServletRequest request) {
        if (cors && request.getHeader("Origin") != null || !plainPath(request.getRequestURI())) {
            return false;
        }
        for (Enumeration<String> names = request.getHeaderNames(); names.hasMoreElements(); ) {
            String name = names.nextElement();
            if (!FirewallRules.allowed(name, false)) {
                return false;
            }
            for (Enumeration<String> values = request.getHeaders(name); values.hasMoreElements(); ) {
                if (!FirewallRules.allowed(values.nextElement(), true)) {
                    return false;
                }
            }
        }
        for (Map.Entry<String, String[]> parameter : request.getParameterMap().entrySet()) {
            if (!plainText(parameter.getKey())) {
                return false;
            }
            for (String value : parameter.getValue()) {
                if (!plainText(value)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean plainText(String text) {
        return FirewallRules.allowed(text, false) && !InputGuard.badText(text);
    }

    static boolean plainPath(String path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '\\' || c == '%' || c == ';') {
                return false;
            }
        }
        return path.startsWith("/") && !path.contains("//") && !path.contains("/./") && !path.contains("/../")
                && !path.endsWith("/.") && !path.endsWith("/..");
    }
}
