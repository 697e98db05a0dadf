package io.verso.security;

import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates an API key given as {@code X-API-Key: <key>} or {@code Authorization: Bearer vk_…}.
 * A key that is unknown or revoked is refused at once with 401, never treated as no credentials.
 */
final class ApiKeyFilter extends OncePerRequestFilter {

    static final String HEADER = "X-API-Key";

    private final ApiKeys keys;

    ApiKeyFilter(ApiKeys keys) {
        this.keys = keys;
    }

    /** The API key the request presents, or null. */
    static String presented(HttpServletRequest request, SecurityProperties properties) {
        String key = request.getHeader(HEADER);
        if (key != null) {
            return key.strip();
        }
        String authorization = request.getHeader("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String token = authorization.substring(7).strip();
            if (token.startsWith(ApiKeys.PREFIX) || token.equals(properties.adminApiKey())) {
                return token;
            }
        }
        return null;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String key = presented(request, keysProperties());
        if (key == null) {
            chain.doFilter(request, response);
            return;
        }
        Optional<VersoPrincipal> principal;
        try {
            principal = key.isEmpty() ? Optional.empty() : keys.authenticate(key);
        } catch (org.springframework.dao.DataAccessException e) {
            response.setHeader("Retry-After", "1");
            Problem.of(ErrorCode.DATABASE_UNAVAILABLE,
                    "the database is unavailable, so the API key cannot be checked; retry shortly")
                    .write(request, response);
            return;
        }
        if (principal.isEmpty()) {
            SecurityContextHolder.clearContext();
            response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            Problem.of(ErrorCode.UNAUTHENTICATED, "the API key is unknown or revoked").write(request, response);
            return;
        }
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(new VersoAuthentication(principal.get(), null));
        SecurityContextHolder.setContext(context);
        chain.doFilter(request, response);
    }

    private SecurityProperties keysProperties() {
        return keys.properties();
    }
}
