package io.verso.engine;

/**
 * Told, on the writer's thread, of every commit this instance made, once it is visible: what keeps
 * state derived from past commits (a cache of answers AS OF them) from outliving a commit that changed
 * the past or the catalog. Implementations must be cheap and must not throw.
 */
public interface CommitListener {

    /**
     * Commit {@code commit} is visible; {@code catalogChanged} when it changed a definition or what
     * earlier commits read (DDL, ERASE, DELETE HISTORY, retention).
     */
    void committed(long commit, boolean catalogChanged);
}
