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
 * {@link ParamSlots#fill} fills); it reads current rows of tables only (no AS OF, whose commit the table's history
 * horizon is checked against, no view, no system relation). The read it runs checks in the same statement that
 * the catalog version is still the one it was planned under, as every one-statement read does; grants changed
 * on this instance change that version, and the grants are compared again at every use, so a grant revoked
 * elsewhere stops a kept plan as soon as this instance sees it, as it would stop a new one.
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
     * lookup of the latest commit (0 in its place), else null.
     */
    record Read(BoundSelect bound, CompiledSql statement, boolean alone, CompiledSql current) {
    }

    /** A kept read with the caller's grants it was planned with. */
    private record Kept(Read read, AccessControl.Grants grants) {
    }

    private final Cache<Key, Kept> plans = Caffeine.newBuilder().maximumSize(1_024).build();
    private final AccessControl access;

    KeptReads(AccessControl access) {
        this.access = access;
    }

    /** The kept plan of {@code select} with {@code params}, or null: none, or one the caller's grants no longer match. */
    Read find(Statement.Select select, List<Object> params, long catalogVersion, VersoPrincipal principal) {
        Kept kept = plans.getIfPresent(new Key(select, classes(params), catalogVersion, principal));
        return kept != null && kept.grants().equals(access.grants(principal)) ? kept.read() : null;
    }

    /** The caller's grants as a plan about to be made sees them: {@link #keep} takes them back. */
    AccessControl.Grants grantsBefore(VersoPrincipal principal) {
        return access.grants(principal);
    }

    /**
     * Keeps {@code read}, planned under {@code catalogVersion} for {@code principal}, whose grants were
     * {@code before} when planning began: kept only if they are still those, so the plan's checks saw them.
     */
    void keep(Statement.Select select, List<Object> params, long catalogVersion, VersoPrincipal principal,
              AccessControl.Grants before, Read read) {
        if (before.equals(access.grants(principal))) {
            plans.put(new Key(select, classes(params), catalogVersion, principal), new Kept(read, before));
        }
    }

    private static List<Class<?>> classes(List<Object> params) {
        List<Class<?>> classes = new ArrayList<>(params.size());
        for (Object param : params) {
            classes.add(param == null ? null : param.getClass());
        }
        return classes;
    }
}
