package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.verso.config.EmbeddedPostgresEnvironment;
import io.verso.config.StartupException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** When the service runs without authentication, and when it refuses to start instead. */
class SecurityModeTests {

    private static SecurityProperties properties(String mode, String issuer, String adminKey) {
        return new SecurityProperties(mode, "admin", adminKey, Duration.ofSeconds(5),
                new SecurityProperties.Jwt(issuer, null, null, null, "roles", "sub", true, null),
                new SecurityProperties.Cors(List.of(), List.of(), List.of(), List.of(), false, Duration.ZERO),
                new SecurityProperties.Idempotency(Duration.ofHours(1), Duration.ofMinutes(1)));
    }

    private static StandardEnvironment environment(boolean embedded, String address) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource(embedded ? EmbeddedPostgresEnvironment.SOURCE
                : "test", address == null ? Map.of("spring.datasource.url", "jdbc:postgresql://db/verso")
                : Map.of("spring.datasource.url", "jdbc:postgresql://db/verso", "server.address", address)));
        return environment;
    }

    @Test
    void theZeroSetUpRunOnLoopbackNeedsNoAuthentication() {
        assertThat(SecurityConfiguration.resolveOn(properties(null, null, null), environment(true, "127.0.0.1")))
                .isFalse();
    }

    @Test
    void aDatabaseUrlWithoutSecurityConfigurationRefusesToStart() {
        assertThatThrownBy(() -> SecurityConfiguration.resolveOn(properties(null, null, null), environment(false, null)))
                .isInstanceOf(StartupException.class).hasMessageContaining("No security is configured")
                .satisfies(e -> assertThat(((StartupException) e).action()).contains("VERSO_SECURITY_MODE=none"));
        assertThatThrownBy(() -> SecurityConfiguration.resolveOn(properties(null, null, null), environment(true, "0.0.0.0")))
                .isInstanceOf(StartupException.class);
    }

    @Test
    void explicitModesAndCredentials() {
        StandardEnvironment remote = environment(false, null);
        assertThat(SecurityConfiguration.resolveOn(properties("none", null, null), remote)).isFalse();
        assertThat(SecurityConfiguration.resolveOn(properties(null, "https://issuer.test", null), remote)).isTrue();
        assertThat(SecurityConfiguration.resolveOn(properties(null, null, "k".repeat(32)), remote)).isTrue();
        assertThatThrownBy(() -> SecurityConfiguration.resolveOn(properties("on", null, null), remote))
                .isInstanceOf(StartupException.class).hasMessageContaining("nobody could sign in");
        assertThatThrownBy(() -> SecurityConfiguration.resolveOn(properties("maybe", null, null), remote))
                .isInstanceOf(StartupException.class).hasMessageContaining("'maybe'");
    }
}
