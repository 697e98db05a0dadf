package io.verso.security;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.oauth2.jwt.Jwt;

/** A validated JWT to the caller it names: the principal claim, and the roles in the configured claim. */
final class JwtPrincipals implements Converter<Jwt, AbstractAuthenticationToken> {

    private final SecurityProperties properties;

    JwtPrincipals(SecurityProperties properties) {
        this.properties = properties;
    }

    @Override
    public AbstractAuthenticationToken convert(Jwt jwt) {
        Object name = jwt.getClaims().get(properties.jwt().principalClaim());
        Set<String> roles = roles(jwt.getClaims(), properties.jwt().rolesClaim());
        VersoPrincipal principal = new VersoPrincipal(name == null ? jwt.getSubject() : name.toString(), roles,
                roles.contains(properties.adminRole()));
        return new VersoAuthentication(principal, jwt);
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
