package io.verso.derive;

import io.verso.analyze.AsOfResolver;
import io.verso.analyze.TableLookup;
import io.verso.compile.CompiledSql;
import java.util.List;

/** What maintaining derived tables needs of the request it runs in (the engine's request implements it). */
public interface DeriveContext extends TableLookup {

    /** The request's commit sequence. */
    long commit();

    AsOfResolver asOf();

    void catalogChanged();

    void touch(String table, long rows);

    /** Runs a statement in the request's transaction; every row as text. */
    List<String[]> texts(CompiledSql sql);

    int update(CompiledSql sql);

    /** The result columns' PostgreSQL types of a query: {type name, precision, scale} each. */
    List<String[]> columnTypes(CompiledSql sql);
}
