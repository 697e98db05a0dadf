package io.verso.engine;

import io.verso.analyze.AsOfResolver;
import io.verso.catalog.TableDef;
import io.verso.sql.ast.Ident;
import java.util.List;

/** What a statement's execution sees of its request: commit, parameters, tables, bookkeeping. */
interface RequestContext {

    /** This request's commit sequence (writes only). */
    long commit();

    List<Object> params();

    AsOfResolver asOf();

    /** The table of this name in the request's catalog snapshot, or UNKNOWN_TABLE. */
    TableDef table(Ident name);

    /**
     * Throws unless the caller holds the privilege the running statement needs on {@code table}, found
     * by another name than its own ({@code asked}: an index name).
     */
    void authorize(TableDef table, Ident asked);

    /** Forget cached definitions after a catalog change. */
    void catalogChanged();

    /** Record that the commit touched {@code table} with {@code rows} rows. */
    void touch(String table, long rows);

    /** Evaluates FOR SYSTEM_TIME bounds and finds commits by time. */
    AsOfResolver.Instants instants();

    /** Who asked (the authenticated principal), for erasure records; null when unknown. */
    String actor();
}
