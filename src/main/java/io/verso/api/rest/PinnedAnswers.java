package io.verso.api.rest;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.verso.engine.CommitListener;
import io.verso.feed.CommitSignal;
import io.verso.security.AccessControl;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Answers pinned to a commit (a row AS OF a commit, or a time before the latest commit), kept as the
 * bytes sent, so that a repeated AS OF read costs no database work. Such an answer never changes, except
 * through what changes the past or the shape of a table (ERASE, DELETE HISTORY, retention, DDL) or who may
 * see it (grants); each of these moves the catalog version, and every one of them drops the whole cache
 * (they are rare, and a rename or a grant reaches beyond the table it names).
 * <p>
 * Never stale, by these rules: an entry's key holds the caller's roles and the grants they hold, so one
 * caller's answer never serves another whose grants differ, and a revoked grant is a different key. A
 * commit of this instance that changed the catalog drops the cache before its response is sent
 * ({@link CommitListener}). A commit of another instance reaches this one through the commit notification
 * ({@link CommitSignal}): the listener then reads the catalog version and drops the cache when it moved.
 * Until the listener listens, and whenever it stops, nothing is served from here. A caller that has seen a
 * commit the cache has not yet accounted for (Verso-Min-Commit, atLeastCommit) reads from the database. An
 * answer read while the cache was dropped is not kept ({@link #epoch}), nor one read under an older
 * catalog version than the cache has seen. Answers are kept under the shared side of a lock, so readers that
 * keep what they read (every miss of an AS OF read) do not queue behind each other and Caffeine's upkeep;
 * everything else that changes what is kept (a drop, a newer catalog version) holds its exclusive side.
 */
@Component
class PinnedAnswers implements CommitListener, CommitSignal.Subscriber {

    /** What an entry costs besides its body: its key and the entry itself, roughly. */
    private static final int ENTRY_BYTES = 256;

    /** A pinned read as asked, by whom: everything its answer depends on. */
    record Key(String table, List<String> key, String asOfCommit, String asOfTime, Set<String> roles,
               boolean admin, AccessControl.Grants grants) {
    }

    /**
     * An answer as sent: its body, ETag, the commit it shows, the catalog version it was read under and the
     * commit its read reported to its caller (Verso-Commit; 0 for none).
     */
    record Answer(byte[] body, String etag, long commit, long catalogVersion, long seen) {
    }

    private final Cache<Key, Answer> answers;
    private final JdbcTemplate jdbc;
    private final boolean enabled;
    /** Moves before every drop of the whole cache: an answer read across a drop is not kept. */
    private final AtomicLong epoch = new AtomicLong();
    /** The newest catalog version this cache has seen; answers of older versions are not kept. */
    private volatile long catalogVersion = -1;
    /** Every commit up to this one is accounted for: none of them changed the catalog unseen. */
    private final AtomicLong accounted = new AtomicLong();
    private volatile boolean listening;
    /** Shared by {@link #keep}s, held alone by what drops answers or moves the catalog version. */
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    @Autowired
    PinnedAnswers(ReadCacheProperties properties, CommitSignal signal, JdbcTemplate jdbc) {
        this(properties.maxBytes().toBytes(), jdbc);
        if (enabled) {
            signal.subscribe(this);
        }
    }

    /** A cache told of commits by no listener but its caller (PinnedAnswersTests). */
    PinnedAnswers(long maxBytes, JdbcTemplate jdbc) {
        this.enabled = maxBytes > 0;
        this.answers = Caffeine.newBuilder().maximumWeight(Math.max(0, maxBytes))
                .<Key, Answer>weigher((k, a) -> a.body().length + ENTRY_BYTES).executor(Runnable::run).build();
        this.jdbc = jdbc;
    }

    /** The epoch to hand to {@link #keep} for an answer about to be read. */
    long epoch() {
        return epoch.get();
    }

    /** The answer kept for {@code key}, or null; null too for a caller that has seen a commit not accounted for. */
    Answer find(Key key, long callerSeen) {
        if (!listening || callerSeen > accounted.get()) {
            return null;
        }
        return answers.getIfPresent(key);
    }

    /**
     * Keeps {@code answer}, read since {@code epoch} was taken, unless the cache was dropped meanwhile or
     * has seen a newer catalog version; {@code accountedTo} is a commit its snapshot held.
     */
    void keep(Key key, Answer answer, long epoch, long accountedTo) {
        if (!enabled) {
            return;
        }
        if (answer.catalogVersion() > catalogVersion) {
            // A change this cache has not heard of yet (a grant here, another instance's DDL not yet
            // signalled): every answer kept so far is of an older version. Dropped by this read, which is
            // then kept after its own drop; across any other drop, it is not.
            lock.writeLock().lock();
            try {
                if (listening && this.epoch.get() == epoch && answer.catalogVersion() > catalogVersion) {
                    catalogVersion = answer.catalogVersion();
                    dropAll();
                    epoch = this.epoch.get();
                }
            } finally {
                lock.writeLock().unlock();
            }
        }
        lock.readLock().lock();
        try {
            if (!listening || this.epoch.get() != epoch || answer.catalogVersion() != catalogVersion) {
                return;
            }
            // The snapshot held every commit up to this one under the version this cache knows: none of them
            // changed the catalog.
            accounted.accumulateAndGet(accountedTo, Math::max);
            answers.put(key, answer);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void committed(long commit, boolean catalogChanged) {
        if (catalogChanged) {
            exclusively(this::dropAll);
        }
    }

    @Override
    public void listening() {
        exclusively(() -> {
            dropAll(); // commits may have gone unheard before
            catalogVersion = -1;
            accounted.set(0);
            listening = true;
        });
    }

    @Override
    public void signalled(long commit) {
        Long version = jdbc.queryForObject("SELECT version FROM verso.catalog_version", Long.class);
        exclusively(() -> {
            if (version == null || version != catalogVersion) {
                catalogVersion = version == null ? -1 : version;
                dropAll();
            }
            // The version was read after the notification, so after every commit up to the one signalled.
            accounted.accumulateAndGet(commit, Math::max);
        });
    }

    @Override
    public void deaf() {
        exclusively(() -> {
            listening = false;
            dropAll();
        });
    }

    /** Runs {@code change} holding the lock alone: no answer is being kept meanwhile. */
    private void exclusively(Runnable change) {
        lock.writeLock().lock();
        try {
            change.run();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Drops every answer kept; the caller holds the lock alone. */
    private void dropAll() {
        epoch.incrementAndGet();
        answers.invalidateAll();
    }

    /** Whether answers are served: the commit listener listens. */
    boolean serving() {
        return listening;
    }

    /** The answers kept, once pending evictions are done (tests). */
    long size() {
        answers.cleanUp();
        return answers.estimatedSize();
    }
}
