package io.verso.surface;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.verso.sql.ast.Statement;

/**
 * One statement instance per shape of a surface's hot read, so that the engine, which keeps the plans of reads it
 * is sent again by the statement's identity (engine.KeptReads), finds this one's. A shape's key is the object that
 * alone determines the statement a surface builds for it (a table's definition, for a read of one current row by
 * key): every value of the request (the key) is a parameter beside it, never part of the tree. The first statement
 * built for a shape stands for every later one, which is built all the same (validating the request's values and
 * numbering its parameters) and then set aside. Keys are held weakly: a definition replaced by a catalog change
 * lets its statement go.
 */
public final class ReadShapes<K> {

    private final Cache<K, Statement> statements = Caffeine.newBuilder().weakKeys().maximumSize(4_096).build();

    /** The statement kept for {@code shape}: {@code built}, if it is the first. */
    public Statement of(K shape, Statement built) {
        return statements.get(shape, s -> built);
    }
}
