package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A read that must see a commit (a change feed's cursor) raises the caller's floor for itself only. */
class ClientCommitTests {

    @AfterEach
    void noRequest() {
        ClientCommit.end();
    }

    @Test
    void aReadThatMustSeeACommitRaisesTheFloorOnlyWhileItRuns() {
        ClientCommit.begin(5);
        assertThat(ClientCommit.atLeast(9, () -> {
            ClientCommit.seen(12);
            return ClientCommit.minCommit();
        })).isEqualTo(9);
        assertThat(ClientCommit.minCommit()).isEqualTo(5);
        assertThat(ClientCommit.seen()).as("what the read saw stays the request's").isEqualTo(12);
        assertThat(ClientCommit.atLeast(3, ClientCommit::minCommit)).as("never lowered").isEqualTo(5);
        assertThatThrownBy(() -> ClientCommit.atLeast(20, () -> {
            throw new IllegalStateException("failed read");
        })).hasMessage("failed read");
        assertThat(ClientCommit.minCommit()).isEqualTo(5);
    }

    @Test
    void outsideARequestTheFloorLastsForTheReadAlone() {
        assertThat(ClientCommit.atLeast(7, ClientCommit::minCommit)).isEqualTo(7);
        assertThat(ClientCommit.minCommit()).isEqualTo(-1);
    }
}
