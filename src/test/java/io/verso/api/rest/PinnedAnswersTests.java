package io.verso.api.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.security.AccessControl;
import io.verso.security.Privilege;
import io.verso.support.IntegrationTest;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The rules that keep {@link PinnedAnswers} from ever serving a stale answer, each on its own: a cache told
 * of commits only by the test (no commit listener), so nothing else drops it meanwhile. ReadCachingTests
 * shows the same over HTTP, where the commit notification drops the cache as well.
 */
class PinnedAnswersTests extends IntegrationTest {

    private static final AccessControl.Grants READER = new AccessControl.Grants(EnumSet.noneOf(Privilege.class),
            Map.of(7L, EnumSet.of(Privilege.SELECT)));

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aCommitThatChangedTheCatalogDropsEveryAnswerAtOnce() {
        PinnedAnswers cache = listening(1 << 20);
        PinnedAnswers.Key key = key("t", "1", Set.of("reader"), READER);
        cache.keep(key, answer(10, 5), cache.epoch(), 10);
        assertThat(cache.find(key, -1)).isNotNull();
        cache.committed(11, false);
        assertThat(cache.find(key, -1)).as("a write that changed no past").isNotNull();
        cache.committed(12, true);
        assertThat(cache.find(key, -1)).as("ERASE, DELETE HISTORY, retention, DDL").isNull();
    }

    @Test
    void anAnswerReadAcrossADropOrUnderAnOlderCatalogIsNotKept() {
        PinnedAnswers cache = listening(1 << 20);
        PinnedAnswers.Key key = key("t", "1", Set.of("reader"), READER);
        long epoch = cache.epoch();
        cache.committed(11, true); // while the answer was being read
        cache.keep(key, answer(10, 5), epoch, 10);
        assertThat(cache.find(key, -1)).as("read across a drop").isNull();

        cache.keep(key, answer(10, 6), cache.epoch(), 10);
        assertThat(cache.find(key, -1)).isNotNull();
        PinnedAnswers.Key other = key("t", "2", Set.of("reader"), READER);
        cache.keep(other, answer(10, 5), cache.epoch(), 10);
        assertThat(cache.find(other, -1)).as("read under an older catalog version").isNull();
        cache.keep(other, answer(10, 7), cache.epoch(), 10);
        assertThat(cache.find(key, -1)).as("a newer catalog version drops the older answers").isNull();
        assertThat(cache.find(other, -1)).isNotNull();
    }

    @Test
    void callersRolesAndGrantsArePartOfTheKey() {
        PinnedAnswers cache = listening(1 << 20);
        cache.keep(key("t", "1", Set.of("reader"), READER), answer(10, 5), cache.epoch(), 10);
        assertThat(cache.find(key("t", "1", Set.of("other"), READER), -1)).as("another role set").isNull();
        AccessControl.Grants revoked = new AccessControl.Grants(EnumSet.noneOf(Privilege.class), Map.of());
        assertThat(cache.find(key("t", "1", Set.of("reader"), revoked), -1)).as("the grant revoked").isNull();
        assertThat(cache.find(key("t", "1", Set.of("reader"), READER), -1)).isNotNull();
    }

    @Test
    void nothingIsServedWhileDeafNorToACallerAheadOfWhatTheCacheAccountedFor() {
        PinnedAnswers cache = listening(1 << 20);
        PinnedAnswers.Key key = key("t", "1", Set.of("reader"), READER);
        cache.keep(key, answer(10, 5), cache.epoch(), 10);
        assertThat(cache.find(key, 10)).isNotNull();
        assertThat(cache.find(key, 11)).as("the caller has seen commit 11").isNull();
        cache.deaf();
        assertThat(cache.find(key, -1)).isNull();
        cache.keep(key, answer(10, 5), cache.epoch(), 10);
        assertThat(cache.find(key, -1)).as("not kept while deaf either").isNull();
    }

    @Test
    void theCacheIsBoundedInBytes() {
        PinnedAnswers cache = listening(64 * 1024);
        for (int k = 0; k < 200; k++) {
            cache.keep(key("t", Integer.toString(k), Set.of("reader"), READER), answer(10, 5), cache.epoch(), 10);
        }
        // 1 KiB bodies plus the allowance per entry: at most about 50 of 200 fit in 64 KiB.
        assertThat(cache.size()).isBetween(1L, 64L * 1024 / (1024 + 256));
    }

    private PinnedAnswers listening(long maxBytes) {
        PinnedAnswers cache = new PinnedAnswers(maxBytes, jdbc);
        cache.listening();
        return cache;
    }

    private static PinnedAnswers.Key key(String table, String key, Set<String> roles, AccessControl.Grants grants) {
        return new PinnedAnswers.Key(table, List.of(key), "10", null, roles, false, grants);
    }

    private static PinnedAnswers.Answer answer(long commit, long catalogVersion) {
        return new PinnedAnswers.Answer(new byte[1024], "\"p" + commit + "." + catalogVersion + ".x\"", commit,
                catalogVersion, commit);
    }
}
