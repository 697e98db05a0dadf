package io.verso.surface;

import io.verso.commits.CommitRepository;
import io.verso.engine.StatementEngine;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * Read-your-writes across clients: a read that names {@code atLeastCommit} runs only once that
 * commit is visible. Writers publish commits in sequence order, so once the latest visible commit
 * reaches c every later snapshot holds c.
 */
@Component
class ReadGate {

    static final Duration WAIT = Duration.ofSeconds(2);
    private static final long POLL_MILLIS = 20;

    private final CommitRepository commits;
    private final StatementEngine engine;

    ReadGate(CommitRepository commits, StatementEngine engine) {
        this.commits = commits;
        this.engine = engine;
    }

    /** Returns once {@code atLeast} is visible: at once, with no round trip, when this instance has seen it. */
    void awaitCommit(Long atLeast) {
        if (atLeast == null || engine.knownVisible(atLeast)) {
            return;
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        long latest = commits.latest();
        while (latest < atLeast) {
            if (System.nanoTime() > deadline) {
                throw VersoException.pointing(ErrorCode.COMMIT_NOT_REACHED, "commit " + atLeast
                        + " is not visible after waiting " + WAIT.toMillis() + " ms (latest commit is " + latest
                        + "); retry later", "atLeastCommit");
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new VersoException.ServerError(ErrorCode.INTERNAL_ERROR, "interrupted while waiting", e);
            }
            latest = commits.latest();
        }
        engine.visibleOnPrimary(latest); // so a read of current rows reports at least atLeast
    }

    long latest() {
        return commits.latest();
    }
}
