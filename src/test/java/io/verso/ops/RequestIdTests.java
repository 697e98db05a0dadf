package io.verso.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Fresh request ids are random version 4 UUIDs, as UUID.randomUUID() gives, and do not repeat. */
class RequestIdTests {

    @Test
    void freshIdsAreDistinctVersion4Uuids() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = RequestIdFilter.freshId();
            UUID uuid = UUID.fromString(id);
            assertThat(uuid.version()).isEqualTo(4);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
            assertThat(seen.add(id)).isTrue();
        }
    }
}
