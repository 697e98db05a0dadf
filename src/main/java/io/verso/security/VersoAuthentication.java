package io.verso.security;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** An authenticated caller, however it proved who it is (JWT or API key). */
final class VersoAuthentication extends AbstractAuthenticationToken {

    static final String ADMIN_AUTHORITY = "VERSO_ADMIN";

    private final VersoPrincipal principal;
    private final transient Object credentials;

    VersoAuthentication(VersoPrincipal principal, Object credentials) {
        // Both spellings: Actuator's health roles are matched as servlet roles (ROLE_ prefix) or authorities.
        super(principal.admin() ? List.of(new SimpleGrantedAuthority(ADMIN_AUTHORITY),
                new SimpleGrantedAuthority("ROLE_" + ADMIN_AUTHORITY)) : List.of());
        this.principal = principal;
        this.credentials = credentials;
        setAuthenticated(true);
    }

    @Override
    public Object getCredentials() {
        return credentials;
    }

    @Override
    public VersoPrincipal getPrincipal() {
        return principal;
    }

    @Override
    public String getName() {
        return principal.name();
    }
}
