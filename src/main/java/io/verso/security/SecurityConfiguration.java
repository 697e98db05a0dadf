package io.verso.security;

import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import io.verso.config.StartupException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.converter.RsaKeyConverters;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The HTTP side of trust: one filter chain for every surface. With {@code verso.security.mode=on} every
 * request but health probes needs a bearer JWT or an API key; the commit log, API keys and actuator
 * details need the admin role. With {@code none} every caller acts with every privilege, which is allowed
 * only when set explicitly or for the zero-set-up run (embedded PostgreSQL on a loopback address): a
 * service with a database URL and no security configuration refuses to start.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({SecurityProperties.class, AdmissionProperties.class})
class SecurityConfiguration {

    /** spring.graphql.websocket.path (application.yml). */
    static final String GRAPHQL_WEBSOCKET_PATH = "/graphql-ws";

    static final String EMBEDDED_SOURCE = io.verso.config.EmbeddedPostgresEnvironment.SOURCE;

    @Bean
    SecurityFilterChain versoSecurity(HttpSecurity http, SecurityProperties properties, ApiKeys keys,
                                      ConfigurableEnvironment environment, ResourceLoader resources) throws Exception {
        boolean on = resolveOn(properties, environment);
        Caller.securityOn(on);
        http.csrf(c -> c.disable())
                .httpBasic(b -> b.disable())
                .formLogin(f -> f.disable())
                .logout(l -> l.disable())
                .requestCache(r -> r.disable())
                .anonymous(a -> a.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .headers(h -> h.cacheControl(c -> c.disable()))
                .exceptionHandling(e -> e.authenticationEntryPoint(entryPoint()).accessDeniedHandler(denied()));
        UrlBasedCorsConfigurationSource cors = cors(properties.cors());
        if (cors != null) {
            http.cors(c -> c.configurationSource(cors));
        } else {
            http.cors(c -> c.disable());
        }
        if (!on) {
            // Every caller acts as the system: no roles to check, and the actor header names them.
            http.addFilterBefore(new OncePerRequestFilter() {
                @Override
                protected void doFilterInternal(jakarta.servlet.http.HttpServletRequest request,
                                                HttpServletResponse response, jakarta.servlet.FilterChain chain)
                        throws jakarta.servlet.ServletException, IOException {
                    var context = SecurityContextHolder.createEmptyContext();
                    context.setAuthentication(new VersoAuthentication(VersoPrincipal.SYSTEM, null));
                    SecurityContextHolder.setContext(context);
                    chain.doFilter(request, response);
                }
            }, BearerTokenAuthenticationFilter.class);
            http.authorizeHttpRequests(a -> a.anyRequest().permitAll());
            return http.build();
        }
        boolean graphiql = environment.getProperty("verso.security.graphiql", Boolean.class, false);
        http.authorizeHttpRequests(a -> {
            a.requestMatchers(HttpMethod.OPTIONS, "/**").permitAll();
            // The async dispatch that ends a stream (SSE) belongs to a request already authorized; it carries
            // no security context of its own, and refusing it only logs an error on a committed response.
            a.dispatcherTypeMatchers(jakarta.servlet.DispatcherType.ASYNC).permitAll();
            // The data surfaces, which most requests are for: no rule below names these paths, so deciding them
            // here changes nothing but the dozen patterns each one-key read was tried against first.
            a.requestMatchers("/v1/tables/**", "/v1/sql", "/graphql").authenticated();
            a.requestMatchers("/error", "/actuator/health", "/actuator/health/liveness",
                    "/actuator/health/readiness").permitAll();
            // The console's pages and bundled assets hold no data: they load, then sign in (docs/console.md).
            a.requestMatchers(HttpMethod.GET, "/", "/index.html", "/assets/**", "/swagger-ui.html",
                    "/v1/openapi.yaml", "/favicon.ico").permitAll();
            if (!graphiql) {
                a.requestMatchers("/graphiql", "/graphiql/**").denyAll();
            } else {
                a.requestMatchers(HttpMethod.GET, "/graphiql", "/graphiql/**").permitAll();
            }
            // The GraphQL WebSocket handshake: a browser cannot send credentials on it, so they may come in the
            // connection_init message instead; the session is closed unless one of the two authenticates it
            // (io.verso.api.graphql.WebSocketAuthentication). Credentials on the handshake are checked as usual.
            a.requestMatchers(HttpMethod.GET, GRAPHQL_WEBSOCKET_PATH).permitAll();
            a.requestMatchers("/actuator/**", "/v1/commits", "/v1/commits/**", "/v1/admin/**")
                    .hasAuthority(VersoAuthentication.ADMIN_AUTHORITY);
            a.anyRequest().authenticated();
        });
        http.addFilterBefore(new ApiKeyFilter(keys), BearerTokenAuthenticationFilter.class);
        if (properties.jwt().configured()) {
            DefaultBearerTokenResolver bearer = new DefaultBearerTokenResolver();
            http.oauth2ResourceServer(o -> o
                    .bearerTokenResolver(request -> ApiKeyFilter.presented(request, properties) != null ? null
                            : bearer.resolve(request))
                    .authenticationEntryPoint(entryPoint())
                    .accessDeniedHandler(denied())
                    .jwt(j -> j.decoder(jwtDecoder(properties, resources))
                            .jwtAuthenticationConverter(new JwtPrincipals(properties))));
        }
        return http.build();
    }

    /** Whether security is on, or why the service cannot start as configured. */
    static boolean resolveOn(SecurityProperties properties, ConfigurableEnvironment environment) {
        String mode = properties.mode();
        boolean credentials = properties.jwt().configured() || SecurityProperties.present(properties.adminApiKey());
        if (mode != null && !mode.isBlank()) {
            if (mode.equalsIgnoreCase("none")) {
                return false;
            }
            if (!mode.equalsIgnoreCase("on")) {
                throw new StartupException("verso.security.mode is '" + mode + "'; it is 'on' or 'none'.",
                        "Set VERSO_SECURITY_MODE to on (with a JWT issuer or an admin API key) or none.", null);
            }
            if (!credentials) {
                throw new StartupException("verso.security.mode is on, but nobody could sign in: neither a JWT issuer "
                        + "(verso.security.jwt.issuer-uri, jwk-set-uri or public-key-location) nor an admin API key "
                        + "(verso.security.admin-api-key) is configured.",
                        "Set VERSO_SECURITY_JWT_ISSUER_URI (and VERSO_SECURITY_JWT_AUDIENCE), or "
                                + "VERSO_SECURITY_ADMIN_API_KEY to a long random secret.", null);
            }
            return true;
        }
        if (credentials) {
            return true;
        }
        boolean embedded = environment.getPropertySources().contains(EMBEDDED_SOURCE);
        if (embedded && loopback(environment.getProperty("server.address"))) {
            return false;
        }
        throw new StartupException("No security is configured, and this service " + (embedded
                ? "listens on " + environment.getProperty("server.address", "every address")
                : "uses the database " + environment.getProperty("spring.datasource.url"))
                + ": anyone who reaches its port could read, write and drop every table.",
                "Configure who may call it: VERSO_SECURITY_JWT_ISSUER_URI (bearer JWTs from your issuer; roles from "
                        + "the claim VERSO_SECURITY_JWT_ROLES_CLAIM) and/or VERSO_SECURITY_ADMIN_API_KEY (then create "
                        + "API keys with POST /v1/admin/api-keys). To run without authentication on purpose, set "
                        + "VERSO_SECURITY_MODE=none.", null);
    }

    private static boolean loopback(String address) {
        if (address == null || address.isBlank()) {
            return false;
        }
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    static JwtDecoder jwtDecoder(SecurityProperties properties, ResourceLoader resources) {
        SecurityProperties.Jwt jwt = properties.jwt();
        NimbusJwtDecoder decoder;
        if (SecurityProperties.present(jwt.publicKeyLocation())) {
            try (InputStream in = resources.getResource(jwt.publicKeyLocation()).getInputStream()) {
                RSAPublicKey key = RsaKeyConverters.x509().convert(new java.io.ByteArrayInputStream(
                        new String(in.readAllBytes(), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8)));
                decoder = NimbusJwtDecoder.withPublicKey(key).build();
            } catch (IOException e) {
                throw new StartupException("Cannot read the JWT public key at " + jwt.publicKeyLocation() + ": "
                        + e.getMessage(), "Check verso.security.jwt.public-key-location (a PEM RSA public key).", e);
            }
        } else if (SecurityProperties.present(jwt.jwkSetUri())) {
            decoder = NimbusJwtDecoder.withJwkSetUri(jwt.jwkSetUri()).build();
        } else {
            // Discovered from the issuer on first use, so the service starts while the issuer is down.
            decoder = NimbusJwtDecoder.withIssuerLocation(jwt.issuerUri()).build();
        }
        List<OAuth2TokenValidator<Jwt>> validators = new ArrayList<>();
        validators.add(SecurityProperties.present(jwt.issuerUri())
                ? JwtValidators.createDefaultWithIssuer(jwt.issuerUri()) : JwtValidators.createDefault());
        validators.add(JwtPrincipals.validator(jwt));
        if (SecurityProperties.present(jwt.audience())) {
            validators.add(new JwtClaimValidator<List<String>>(JwtClaimNames.AUD,
                    aud -> aud != null && aud.contains(jwt.audience())));
        }
        decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(validators));
        return decoder;
    }

    private static UrlBasedCorsConfigurationSource cors(SecurityProperties.Cors settings) {
        if (settings.allowedOrigins().isEmpty()) {
            return null;
        }
        CorsConfiguration cors = new CorsConfiguration();
        settings.allowedOrigins().forEach(cors::addAllowedOriginPattern);
        cors.setAllowedMethods(settings.allowedMethods());
        cors.setAllowedHeaders(settings.allowedHeaders());
        cors.setExposedHeaders(settings.exposedHeaders());
        cors.setAllowCredentials(settings.allowCredentials());
        cors.setMaxAge(settings.maxAge());
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        source.registerCorsConfiguration("/**", cors);
        return source;
    }

    private static AuthenticationEntryPoint entryPoint() {
        return (request, response, failure) -> {
            response.setHeader("WWW-Authenticate", "Bearer");
            Problem.of(ErrorCode.UNAUTHENTICATED, describe(failure)).write(request, response);
        };
    }

    private static String describe(AuthenticationException failure) {
        if (failure instanceof OAuth2AuthenticationException oauth && oauth.getError().getDescription() != null) {
            return "the bearer token is not valid: " + oauth.getError().getDescription();
        }
        return "credentials are required: a bearer token (Authorization: Bearer <JWT>) or an API key (X-API-Key)";
    }

    private static AccessDeniedHandler denied() {
        return (request, response, failure) -> Problem.of(ErrorCode.FORBIDDEN,
                request.getRequestURI().startsWith("/graphiql") ? "GraphiQL is off while security is on "
                        + "(verso.security.graphiql=true turns it on)"
                        : "permission ADMIN on ALL TABLES (the admin role) is missing: " + request.getRequestURI()
                        + " is for administrators").write(request, response);
    }
}
