package io.verso.analyze;

import io.verso.sql.ast.Query;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A read with every name in FROM bound: catalog tables to how and at which commit they are read,
 * views to their expanded bodies (analysed in place), CTE names to their definitions.
 * {@code outputs} holds the number of output columns of every block and query, for ORDER BY and
 * GROUP BY ordinals; {@code columns} the result's column names; {@code recursiveSteps} the blocks that read
 * their own WITH RECURSIVE CTE (the compiler bounds the rows they make).
 */
public record BoundSelect(Query query, IdentityHashMap<Query.TableRef, Binding> bindings,
                          IdentityHashMap<Object, Integer> outputs, List<BoundRelation> relations,
                          List<String> columns, IdentityHashMap<Query.SelectItem, List<ResolvedRef>> stars,
                          Set<Query.Block> recursiveSteps) {

    public BoundSelect(Query query, IdentityHashMap<Query.TableRef, Binding> bindings,
                       IdentityHashMap<Object, Integer> outputs, List<BoundRelation> relations, List<String> columns) {
        this(query, bindings, outputs, relations, columns, new IdentityHashMap<>(), Set.of());
    }

    /**
     * Whether it reads a relation of a system schema (in a view's body too): those rows are the catalog as it
     * is now, at no commit, so such a read is never one pinned to fixed commits.
     */
    public boolean readsSystem() {
        return bindings.values().stream().anyMatch(SystemRead.class::isInstance);
    }

    /** What a name in FROM stands for. */
    public sealed interface Binding {
    }

    public record TableRead(BoundRelation relation) implements Binding {
    }

    public record CteRead(String name) implements Binding {
    }

    /**
     * A relation of a system schema, its rows as the caller may see them; {@code columns} are the names it is read
     * under (its own, or the column aliases given it).
     */
    public record SystemRead(SystemRelation relation, List<String> columns) implements Binding {
    }

    /** A view expanded at this use: its body (with its own bindings) and its column names. */
    public record ViewRead(Query body, List<String> columns) implements Binding {
    }
}
