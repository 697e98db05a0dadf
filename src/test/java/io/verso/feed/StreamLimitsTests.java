package io.verso.feed;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.VersoPrincipal;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The bounds on open change streams: per caller (429) and per instance (503), places given back when streams end. */
class StreamLimitsTests {

    private static VersoPrincipal caller(String name) {
        return new VersoPrincipal(name, Set.of(), false);
    }

    @Test
    void eachCallerAndTheInstanceHaveTheirLimit() {
        StreamLimits limits = new StreamLimits(3, 2);
        limits.take(caller("key:a"));
        limits.take(caller("key:a"));
        assertThatThrownBy(() -> limits.take(caller("key:a")))
                .isInstanceOfSatisfying(VersoException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.RATE_LIMITED))
                .hasMessageContaining("max-streams-per-caller");
        limits.take(caller("jwt:b"));
        assertThatThrownBy(() -> limits.take(caller("jwt:c")))
                .isInstanceOfSatisfying(VersoException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OVERLOADED))
                .hasMessageContaining("verso.feed.max-streams");
        assertThat(limits.open()).isEqualTo(3);
        limits.release(caller("key:a"));
        limits.take(caller("jwt:c"));
        limits.release(caller("jwt:c"));
        limits.take(caller("key:a"));
        assertThat(limits.open()).isEqualTo(3);
    }

    @Test
    void withSecurityOffOnlyTheTotalCounts() {
        StreamLimits limits = new StreamLimits(3, 1);
        for (int i = 0; i < 3; i++) {
            limits.take(VersoPrincipal.SYSTEM);
        }
        assertThatThrownBy(() -> limits.take(VersoPrincipal.SYSTEM)).isInstanceOf(VersoException.class)
                .hasMessageContaining("max-streams");
    }
}
