package io.verso.security;

import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Pos;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Roles and their grants (spec: Access control), kept in {@code verso.roles} and {@code verso.grants},
 * and the one check every statement's tables go through: {@link #check}. A table the caller holds no
 * privilege on is reported as unknown (the same answer as for a table that does not exist); one it
 * may see but not use as asked is FORBIDDEN naming the missing privilege.
 */
@Component
public class AccessControl {

    /** Grants read by other instances reach this one within this time; changes made here at once. */
    private static final long CACHE_NANOS = 2_000_000_000L;

    private final JdbcTemplate jdbc;
    private final Map<Set<String>, Cached> cache = new ConcurrentHashMap<>();
    /**
     * The catalog version of the latest grant change this instance committed. Grants read from a snapshot
     * older than that (a replica that has not replayed it yet, or a read that began before it committed)
     * are used once and never cached, so the next request always sees a change made here.
     */
    private final AtomicLong committedVersion = new AtomicLong();

    AccessControl(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** What a set of roles holds: privileges per table id, and on every table. */
    public record Grants(EnumSet<Privilege> allTables, Map<Long, EnumSet<Privilege>> tables) {
        public boolean has(long tableId, Privilege privilege) {
            if (allTables.contains(privilege)) {
                return true;
            }
            EnumSet<Privilege> held = tables.get(tableId);
            return held != null && held.contains(privilege);
        }

        boolean any(long tableId) {
            return !allTables.isEmpty() || tables.containsKey(tableId);
        }
    }

    private record Cached(Grants grants, long version, long loadedAt) {
    }

    /** The catalog version of the latest grant change of the transaction bound to this thread. */
    private static final class Change {
        long version;
    }

    private static final Grants ALL = new Grants(EnumSet.allOf(Privilege.class), Map.of());

    public Grants grants(VersoPrincipal principal) {
        if (principal.admin()) {
            return ALL;
        }
        if (principal.roles().isEmpty()) {
            return new Grants(EnumSet.noneOf(Privilege.class), Map.of());
        }
        long now = System.nanoTime();
        Cached cached = cache.get(principal.roles());
        if (cached != null && cached.version >= committedVersion.get() && now - cached.loadedAt < CACHE_NANOS) {
            return cached.grants;
        }
        EnumSet<Privilege> all = EnumSet.noneOf(Privilege.class);
        Map<Long, EnumSet<Privilege>> tables = new HashMap<>();
        long[] version = new long[1];
        // The grants with the catalog version of the snapshot they come from, in one query.
        jdbc.query("SELECT v.version, g.table_id, g.privilege FROM verso.catalog_version v "
                + "LEFT JOIN verso.grants g ON g.role = ANY (?)", rs -> {
            version[0] = rs.getLong(1);
            String privilege = rs.getString(3);
            if (privilege == null) {
                return;
            }
            long tableId = rs.getLong(2);
            if (rs.wasNull()) {
                all.add(Privilege.valueOf(privilege));
            } else {
                tables.computeIfAbsent(tableId, id -> EnumSet.noneOf(Privilege.class)).add(Privilege.valueOf(privilege));
            }
        }, (Object) principal.roles().toArray(String[]::new));
        Grants grants = new Grants(all, Map.copyOf(tables));
        // Not kept: grants older than a change committed here, or read by a transaction that changes grants
        // (they may never commit).
        if (version[0] >= committedVersion.get() && !TransactionSynchronizationManager.hasResource(this)) {
            cache.put(principal.roles(), new Cached(grants, version[0], now));
        }
        return grants;
    }

    /**
     * Throws unless {@code principal} holds {@code needed} on {@code table}: UNKNOWN_TABLE when it holds
     * nothing there, in the words of a table that does not exist ({@link Refusals#unknownTable}), so the table
     * is never confirmed to exist; FORBIDDEN naming the privilege otherwise.
     */
    public void check(VersoPrincipal principal, TableDef table, Privilege needed, String asked, Pos pos) {
        if (principal.admin()) {
            return;
        }
        Grants grants = grants(principal);
        if (grants.has(table.id(), needed)) {
            return;
        }
        if (!grants.any(table.id())) {
            throw Refusals.unknownTable(asked, pos);
        }
        throw VersoException.at(ErrorCode.FORBIDDEN, "permission " + needed + " on table " + table.name()
                + " is missing" + who(principal), pos);
    }

    /** Whether the caller holds {@code privilege} on the table. */
    public boolean holds(VersoPrincipal principal, TableDef table, Privilege privilege) {
        return principal.admin() || grants(principal).has(table.id(), privilege);
    }

    /** Whether the caller may know the table exists (it holds some privilege on it). */
    public boolean visible(VersoPrincipal principal, TableDef table) {
        return principal.admin() || grants(principal).any(table.id());
    }

    /** Whether the caller may read the table. */
    public boolean readable(VersoPrincipal principal, TableDef table) {
        return principal.admin() || grants(principal).has(table.id(), Privilege.SELECT);
    }

    /** Statements that manage roles, or grant on every table: ADMIN on ALL TABLES. */
    public void requireGlobalAdmin(VersoPrincipal principal, String what, Pos pos) {
        if (!principal.admin() && !grants(principal).allTables().contains(Privilege.ADMIN)) {
            throw VersoException.at(ErrorCode.FORBIDDEN, "permission ADMIN on ALL TABLES is missing" + who(principal)
                    + ": " + what + " needs it", pos);
        }
    }

    private static String who(VersoPrincipal principal) {
        return principal.name() == null ? "" : " for " + principal.name();
    }

    // ---- roles and grants (run inside the request's transaction) ---------------------------------

    public boolean createRole(String role) {
        int created = jdbc.update("INSERT INTO verso.roles (name) VALUES (?) ON CONFLICT DO NOTHING", role);
        changed();
        return created == 1;
    }

    public boolean dropRole(String role) {
        int dropped = jdbc.update("DELETE FROM verso.roles WHERE name = ?", role);
        changed();
        return dropped == 1;
    }

    public boolean roleExists(String role) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM verso.roles WHERE name = ?)",
                Boolean.class, role));
    }

    /** Grants (or revokes) each privilege to each role on each table id (null: every table). */
    public void grant(boolean revoke, List<Privilege> privileges, List<Long> tableIds, List<String> roles) {
        for (String role : roles) {
            for (Long tableId : tableIds) {
                for (Privilege privilege : privileges) {
                    if (revoke) {
                        jdbc.update("DELETE FROM verso.grants WHERE role = ? AND table_id IS NOT DISTINCT FROM ? "
                                + "AND privilege = ?", role, tableId, privilege.name());
                    } else {
                        jdbc.update("INSERT INTO verso.grants (role, table_id, privilege) VALUES (?, ?, ?) "
                                + "ON CONFLICT DO NOTHING", role, tableId, privilege.name());
                    }
                }
            }
        }
        changed();
    }

    /** One row per grant: role, table name (NULL for ALL TABLES), privilege; roles without grants too. */
    public List<List<Object>> showGrants(String role) {
        List<List<Object>> rows = new ArrayList<>();
        jdbc.query("SELECT r.name, t.name, g.privilege, g.role IS NOT NULL AND g.table_id IS NULL "
                + "FROM verso.roles r LEFT JOIN verso.grants g ON g.role = r.name "
                + "LEFT JOIN verso.user_tables t ON t.id = g.table_id WHERE (?::text IS NULL OR r.name = ?) "
                + "ORDER BY r.name, t.name NULLS FIRST, g.privilege", rs -> {
                    List<Object> row = new ArrayList<>(3);
                    row.add(rs.getString(1));
                    row.add(rs.getBoolean(4) ? "ALL TABLES" : rs.getString(2) == null ? null : "TABLE " + rs.getString(2));
                    row.add(rs.getString(3));
                    rows.add(row);
                }, role, role);
        return rows;
    }

    /**
     * Within the request's transaction: the catalog version moves too, so schemas built per caller
     * (GraphQL) are rebuilt with the new grants. Grants cached until then are dropped now, and again
     * when the transaction ends, since a request may have read and cached the old grants meanwhile;
     * once it committed, grants read from an older snapshot are no longer cached ({@link #committedVersion}).
     */
    private void changed() {
        long version = jdbc.queryForObject("UPDATE verso.catalog_version SET version = version + 1 RETURNING version",
                Long.class);
        cache.clear();
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            committedVersion.accumulateAndGet(version, Math::max); // autocommit: committed already
            return;
        }
        Change change = (Change) TransactionSynchronizationManager.getResource(this);
        if (change == null) {
            Change registered = new Change();
            change = registered;
            TransactionSynchronizationManager.bindResource(this, registered);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    TransactionSynchronizationManager.unbindResourceIfPossible(AccessControl.this);
                    if (status == STATUS_COMMITTED) {
                        committedVersion.accumulateAndGet(registered.version, Math::max);
                    }
                    cache.clear();
                }
            });
        }
        change.version = version;
    }
}
