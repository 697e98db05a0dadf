package io.verso.engine;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.verso.analyze.BoundSelect;
import io.verso.compile.CompiledSql;
import io.verso.compile.ParamSlots;
import io.verso.security.AccessControl;
import io.verso.security.VersoPrincipal;
import io.verso.sql.ast.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * One-statement reads planned once and run again: the REST row, GraphQL's by-key read and a {@code /v1/sql}
 * SELECT by key with its key as a parameter send the same statement at every request, with other parameters.
 * Planning it (analysis, the privilege checks, compilation) cost a seventh of such a read's CPU in the service.
 *
 * <p>A plan is kept only when nothing in it depends on more than its key here: the statement (its syntax tree),
 * its parameters' classes, the catalog version it was planned under, the caller, and the caller's grants. The
 * statement was compiled with {@link ParamSlots}, so none of its parameters' values shaped it (each is a slot that
 * {@link ParamSlots#fill} fills), except those whose values planning looked at (an AS OF commit given as a
 * parameter, checked against the table's history horizon and bound as the commit it names): the plan is kept for
 * those values, which are part of its key. It reads current rows or rows AS OF a commit (no view, no system
 * relation, no history). The read it runs checks in the same statement that the catalog version is still the
 * one it was planned under, as every one-statement read does; grants changed on this instance change that
 * version, and the grants are compared again at every use, so a grant revoked elsewhere stops a kept plan as soon
 * as this instance sees it, as it would stop a new one.
 */
final class KeptReads {

    /**
     * What a plan is kept under. The statement by identity: hashing and comparing syntax trees cost a read half
     * of what planning it did, and the surfaces that send one statement again and again send the same instance
     * (/v1/sql's parsed scripts are cached by text, REST and GraphQL keep one per table: surface.ReadShapes).
     */
    private static final class Key {
        private final Statement.Select select;
        private final List<Class<?>> classes;
        private final long catalogVersion;
        private final VersoPrincipal principal;
        private final int hash;

        Key(Statement.Select select, List<Class<?>> classes, long catalogVersion, VersoPrincipal principal) {
            this.select = select;
            this.classes = classes;
            this.catalogVersion = catalogVersion;
            this.principal = principal;
            this.hash = (System.identityHashCode(select) * 31 + classes.hashCode()) * 31 + Long.hashCode(catalogVersion);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.select == select && k.catalogVersion == catalogVersion
                    && k.classes.equals(classes) && k.principal.equals(principal);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * A planned one-statement read: {@code statement}, with parameter slots, is what runs, its slots filled
     * ({@link ParamSlots#fill}); {@code alone}: a one-key read run with its state, not the batch of BEGIN, state,
     * query and COMMIT; {@code current}, for a one-key read of current rows only, the same statement without the
     * lookup of the latest commit (0 in its place), else null; {@code state}, for a one-key read of current rows
     * that names its keys, the state {@code current} returns without the query (its catalog version and its keys'
     * last change: what a conditional GET compares), else null.
     */
    record Read(BoundSelect bound, CompiledSql statement, boolean alone, CompiledSql current, CompiledSql state) {
    }

    /** A kept read with the caller's grants it was planned with. */
    private record Kept(Read read, AccessControl.Grants grants) {
    }

    /** The longest string value a plan is kept for (a plan that looked at a longer one is not kept). */
    private static final int MAX_KEYED_TEXT = 64;

    /** A plan's shape with the values its planning looked at, each after its parameter's index. */
    private record Valued(Key shape, List<Object> values) {
    }

    /** Per shape, the parameters whose values its latest plan looked at (none for most one-key reads). */
    private final Cache<Key, int[]> looked = Caffeine.newBuilder().maximumSize(1_024).build();
    private final Cache<Valued, Kept> plans = Caffeine.newBuilder().maximumSize(4_096).build();
    private final AccessControl access;

    KeptReads(AccessControl access) {
        this.access = access;
    }

    /** The kept plan of {@code select} with {@code params}, or null: none, or one the caller's grants no longer match. */
    Read find(Statement.Select select, List<Object> params, long catalogVersion, VersoPrincipal principal) {
        Key shape = new Key(select, classes(params), catalogVersion, principal);
        int[] at = looked.getIfPresent(shape);
        List<Object> values = at == null ? null : values(params, at);
        Kept kept = values == null ? null : plans.getIfPresent(new Valued(shape, values));
        return kept != null && kept.grants().equals(access.grants(principal)) ? kept.read() : null;
    }

    /** The caller's grants as a plan about to be made sees them: {@link #keep} takes them back. */
    AccessControl.Grants grantsBefore(VersoPrincipal principal) {
        return access.grants(principal);
    }

    /**
     * Keeps {@code read}, planned under {@code catalogVersion} for {@code principal}, whose grants were
     * {@code before} when planning began: kept only if they are still those, so the plan's checks saw them. Its
     * planning looked at the values of the parameters {@code at} ({@link ParamSlots#looked}): it is kept for those
     * values, when each is small (a number, a flag, a short string).
     */
    void keep(Statement.Select select, List<Object> params, long catalogVersion, VersoPrincipal principal,
              AccessControl.Grants before, Read read, int[] at) {
        List<Object> values = values(params, at);
        if (values != null && before.equals(access.grants(principal))) {
            Key shape = new Key(select, classes(params), catalogVersion, principal);
            looked.put(shape, at);
            plans.put(new Valued(shape, values), new Kept(read, before));
        }
    }

    /** Each of {@code at} with its parameter's value, or null when one is not a small value to key a plan by. */
    private static List<Object> values(List<Object> params, int[] at) {
        List<Object> values = new ArrayList<>(2 * at.length);
        for (int i : at) {
            Object value = params.get(i);
            if (!(value == null || value instanceof Number || value instanceof Boolean
                    || value instanceof String text && text.length() <= MAX_KEYED_TEXT)) {
                return null;
            }
            values.add(i);
            values.add(value);
        }
        return values;
    }

    private static List<Class<?>> classes(List<Object> params) {
        List<Class<?>> classes = new ArrayList<>(params.size());
        for (Object param : params) {
            classes.add(param == null ? null : param.getClass());
        }
        return classes;
    }
}
