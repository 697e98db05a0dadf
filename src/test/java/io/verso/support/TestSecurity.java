package io.verso.support;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.UUID;

/**
 * The shared context runs with security on, as a deployment does: JWTs signed by the test key pair
 * in src/test/resources/security (issuer {@link #ISSUER}, audience {@link #AUDIENCE}, roles in the
 * {@code roles} claim), and an admin API key every test client sends unless a test says otherwise.
 * Set as system properties, so applications a test starts itself run the same way.
 */
public final class TestSecurity {

    public static final String HEADER = "X-API-Key";
    public static final String ADMIN_KEY = "test-admin-" + UUID.randomUUID();
    public static final String ISSUER = "https://issuer.verso.test";
    public static final String AUDIENCE = "verso-tests";
    /** The longest lifetime (exp - iat) the shared context accepts in a token. */
    public static final java.time.Duration MAX_LIFETIME = java.time.Duration.ofHours(2);
    /** The one browser origin the shared context allows (CORS). */
    public static final String ALLOWED_ORIGIN = "https://app.verso.test";

    private static boolean ready;

    private TestSecurity() {
    }

    public static synchronized void ensure() {
        if (ready) {
            return;
        }
        ready = true;
        System.setProperty("verso.security.mode", "on");
        System.setProperty("verso.security.admin-api-key", ADMIN_KEY);
        System.setProperty("verso.security.jwt.public-key-location", "classpath:security/test-jwt.pub");
        System.setProperty("verso.security.jwt.issuer-uri", ISSUER);
        System.setProperty("verso.security.jwt.audience", AUDIENCE);
        System.setProperty("verso.security.jwt.max-lifetime", MAX_LIFETIME.toString());
        System.setProperty("verso.security.graphiql", "true");
        System.setProperty("verso.security.cors.allowed-origins", ALLOWED_ORIGIN);
        // The PostgreSQL protocol offers TLS with a self-signed test certificate (sslmode=require).
        System.setProperty("verso.pgwire.ssl-bundle", "pgwire-test");
        System.setProperty("spring.ssl.bundle.pem.pgwire-test.keystore.certificate",
                "classpath:security/pgwire-test-cert.pem");
        System.setProperty("spring.ssl.bundle.pem.pgwire-test.keystore.private-key",
                "classpath:security/pgwire-test-key.pem");
        // Every RestAssured request of the suite is the admin's unless it sets another spec.
        RestAssured.requestSpecification = new RequestSpecBuilder().addHeader(HEADER, ADMIN_KEY).build();
    }

    /** A JWT signed by the test key: subject, roles, and the issuer/audience/expiry given. */
    public static String jwt(String subject, List<String> roles, String issuer, String audience, Instant expires) {
        return signed(claims(subject, roles).issuer(issuer).audience(audience)
                .issueTime(Date.from(expires.minusSeconds(3600))).expirationTime(Date.from(expires)).build());
    }

    /** The claims of a valid token for {@code subject} with {@code roles}, but for iat and exp, to adjust. */
    public static JWTClaimsSet.Builder claims(String subject, List<String> roles) {
        return new JWTClaimsSet.Builder().subject(subject).issuer(ISSUER).audience(AUDIENCE).claim("roles", roles);
    }

    /** {@code claims} signed by the test key. */
    public static String signed(JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).build(),
                    claims);
            jwt.sign(new RSASSASigner(privateKey()));
            return jwt.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A valid token for {@code subject} with {@code roles}, good for ten minutes. */
    public static String jwt(String subject, String... roles) {
        return jwt(subject, List.of(roles), ISSUER, AUDIENCE, Instant.now().plusSeconds(600));
    }

    private static RSAPrivateKey privateKey() throws Exception {
        try (InputStream in = TestSecurity.class.getResourceAsStream("/security/test-jwt-pkcs8.key")) {
            String pem = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            return (RSAPrivateKey) KeyFactory.getInstance("RSA")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
