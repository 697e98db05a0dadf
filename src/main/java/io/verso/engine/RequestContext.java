package io.verso.engine;

import io.verso.analyze.AsOfResolver;
import io.verso.catalog.TableDef;
import io.verso.security.VersoPrincipal;
import io.verso.sql.ast.Ident;
import java.util.List;

/**
 * What a statement's execution sees of its request: commit, parameters, tables (and views, as the
 * analyzer looks them up), bookkeeping.
 */
interface RequestContext extends io.verso.analyze.TableLookup {

    /** This request's commit sequence (writes only). */
    long commit();

    List<Object> params();

    AsOfResolver asOf();

    /** The table of this name in the request's catalog snapshot, or UNKNOWN_TABLE. */
    @Override
    TableDef table(Ident name);

    /**
     * Throws unless the caller holds the privilege the running statement needs on {@code table}, found
     * by another name than its own ({@code asked}: an index name).
     */
    void authorize(TableDef table, Ident asked);

    /** The catalog as a statement's reads see it: every table found through it needs SELECT. */
    io.verso.analyze.TableLookup reads();

    /** Whether the caller may know {@code table} exists (holds some privilege on it). */
    boolean visible(TableDef table);

    /** Forget cached definitions after a catalog change. */
    void catalogChanged();

    /** Record that the commit touched {@code table} with {@code rows} rows. */
    void touch(String table, long rows);

    /** Evaluates FOR SYSTEM_TIME bounds and finds commits by time. */
    AsOfResolver.Instants instants();

    /** Who asked (the authenticated principal), for erasure records; null when unknown. */
    String actor();

    /** The caller, whose privileges every statement of the request is checked against. */
    VersoPrincipal principal();
}
