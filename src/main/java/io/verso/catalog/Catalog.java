package io.verso.catalog;

import io.verso.catalog.TableRecord.ColumnRecord;
import io.verso.catalog.TableRecord.GroupRecord;
import io.verso.catalog.TableRecord.IndexRecord;
import io.verso.catalog.IndexScope;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.stereotype.Component;

/**
 * The catalog of user tables, read and written in the caller's transaction, so a request sees the
 * catalog of its own snapshot and a DDL change commits together with its physical tables.
 *
 * <p>Transactional even for callers without a transaction: Spring Data JDBC loads a table's columns,
 * groups and indexes with further queries while the table's own result set is still open, and
 * outside a transaction each of those would take a second pooled connection. Enough concurrent
 * callers each holding one and waiting for another exhaust the pool for good. The methods that only
 * consult this instance's cache ({@link #findLatest} on a hit, {@link #latestSnapshot}, {@link #snapshot})
 * are not transactional: every read request calls them, and a transaction interceptor per call cost
 * more than the lookup.
 */
@Component
public class Catalog {

    private final TableRepository tables;
    private final JdbcTemplate jdbc;
    private volatile Snapshot latest = new Snapshot(-1);
    /** Versions below this are older than a change this instance committed: never the newest seen again. */
    private volatile long floor;

    private final TransactionTemplate repeatableRead;

    Catalog(TableRepository tables, JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.tables = tables;
        this.jdbc = jdbc;
        this.repeatableRead = new TransactionTemplate(transactions);
        repeatableRead.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        repeatableRead.setReadOnly(true);
    }

    @Transactional(readOnly = true)
    public Optional<TableDef> find(String name) {
        return tables.findByName(name).map(Catalog::toDef);
    }

    /**
     * The table as the latest committed catalog defines it, through the per-version cache: one small
     * query when the definition is cached. For surfaces that check a table before they run statements
     * on it (the statements themselves are bound in the engine's own snapshot).
     */
    public Optional<TableDef> findLatest(String name) {
        // A table the newest version this instance has seen defines is taken as it is, with no query: the
        // statements are bound again in the engine's own snapshot, which refuses what a stale definition
        // would get wrong. A name not known there (perhaps made by another instance) is looked up.
        Optional<TableDef> known = latest.cached(name);
        if (known != null && known.isPresent()) {
            return known;
        }
        Optional<TableDef> cached = snapshot(currentVersion()).cached(name);
        if (cached != null) {
            return cached;
        }
        // A miss loads in one REPEATABLE READ snapshot with the version it is cached under, and in a
        // transaction, so Spring Data's child queries share its connection.
        return repeatableRead.execute(status -> snapshot(currentVersion()).find(name));
    }

    private long currentVersion() {
        return jdbc.queryForObject("SELECT version FROM verso.catalog_version", Long.class);
    }

    /**
     * Definitions as of catalog {@code version}, the value of verso.catalog_version in the caller's
     * committed snapshot. Tables are loaded once per version and shared by every reader of it. A writer
     * uses it only for the committed version it read under the commit lock, until it changes the catalog
     * itself (a change may roll back).
     */
    public Snapshot snapshot(long version) {
        Snapshot current = latest;
        if (current.version == version) {
            return current;
        }
        Snapshot fresh = new Snapshot(version);
        if (version > current.version && version >= floor) {
            latest = fresh;
        }
        return fresh;
    }

    /**
     * The newest catalog version a reader of this instance has seen, null before the first: what a
     * one-round-trip read binds against before its own snapshot confirms (or refutes) the version.
     */
    public Snapshot latestSnapshot() {
        Snapshot current = latest;
        return current.version < 0 ? null : current;
    }

    /** Forgets the newest version seen: this instance committed a catalog change (its version is unknown here). */
    public synchronized void forgetLatest() {
        floor = Math.max(floor, latest.version + 1);
        latest = new Snapshot(-1);
    }

    /** Cached definitions of one catalog version. */
    public final class Snapshot {
        private final long version;
        private final Map<String, Optional<TableDef>> byName = new ConcurrentHashMap<>();

        private Snapshot(long version) {
            this.version = version;
        }

        public long version() {
            return version;
        }

        public Optional<TableDef> find(String name) {
            if (changedInThisTransaction()) {
                // A writer that changed the catalog sees its own, uncommitted definitions, never cached here.
                return Catalog.this.find(name);
            }
            return byName.computeIfAbsent(name, Catalog.this::find);
        }

        /** The cached definition, or null when this version has not loaded the name yet. */
        public Optional<TableDef> cached(String name) {
            return byName.get(name);
        }
    }

    /** Marks a catalog change in the caller's transaction. */
    private void changed() {
        jdbc.update("UPDATE verso.catalog_version SET version = version + 1");
        if (TransactionSynchronizationManager.isSynchronizationActive()
                && !TransactionSynchronizationManager.hasResource(CHANGED)) {
            TransactionSynchronizationManager.bindResource(CHANGED, Boolean.TRUE);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    TransactionSynchronizationManager.unbindResourceIfPossible(CHANGED);
                }
            });
        }
    }

    /** The transaction-bound mark of a catalog change not yet committed. */
    private static final Object CHANGED = new Object();

    private static boolean changedInThisTransaction() {
        return TransactionSynchronizationManager.hasResource(CHANGED);
    }

    /**
     * Marks, in the caller's transaction, a change to what past commits read that leaves the
     * definitions alone (an erasure): readers of replicas wait for the catalog version it makes.
     */
    @Transactional
    public void historyRewritten() {
        changed();
    }

    /**
     * Marks, in the caller's transaction, a view made or dropped: views are kept beside the tables
     * ({@link Views}), and what reads by catalog version (a replica's freshness, information_schema's
     * listing, a read AS OF a commit through a view) must see the change as a new version.
     */
    @Transactional
    public void viewsChanged() {
        changed();
    }

    /**
     * Every table, by name, in five queries whatever their number (the tables, then all their columns, groups,
     * indexes and checks), in one snapshot: Spring Data JDBC's findAll loads each table's children with queries of
     * their own, four per table: about 0.3-0.5 s more at 450 tables, in each GraphQL schema rebuild and each
     * listing of information_schema.
     */
    @Transactional(readOnly = true, isolation = org.springframework.transaction.annotation.Isolation.REPEATABLE_READ)
    public List<TableDef> all() {
        Map<Long, List<ColumnRecord>> columns = children("SELECT table_id, name, physical_name, type, not_null, "
                + "default_value, key_position, group_id, ordering_kind, ordering_position FROM verso.user_columns "
                + "ORDER BY table_id, position", rs -> new ColumnRecord(rs.getString(2), rs.getString(3),
                rs.getString(4), rs.getBoolean(5), rs.getString(6), rs.getObject(7, Integer.class),
                rs.getObject(8, Integer.class), rs.getString(9), rs.getObject(10, Integer.class)));
        Map<Long, List<GroupRecord>> groups = children("SELECT table_id, group_id, name FROM verso.user_groups "
                + "ORDER BY table_id, position", rs -> new GroupRecord(rs.getInt(2), rs.getString(3)));
        Map<Long, List<IndexRecord>> indexes = children("SELECT table_id, name, physical_name, columns, scope, "
                + "unique_index FROM verso.user_indexes ORDER BY table_id, position", rs -> new IndexRecord(
                rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getBoolean(6)));
        Map<Long, List<TableRecord.CheckRecord>> checks = children("SELECT table_id, name, expression FROM "
                + "verso.user_checks ORDER BY table_id, position", rs -> new TableRecord.CheckRecord(rs.getString(2),
                rs.getString(3)));
        return jdbc.query("SELECT id, name, mode, next_column_id, history_horizon, created_commit, retention_commits, "
                + "retention_interval, period_start, period_end, period_implicit FROM verso.user_tables ORDER BY name",
                (rs, n) -> {
                    long id = rs.getLong(1);
                    return toDef(new TableRecord(id, rs.getString(2), rs.getString(3), rs.getInt(4), rs.getLong(5),
                            rs.getLong(6), rs.getObject(7, Long.class), rs.getString(8), rs.getString(9),
                            rs.getString(10), rs.getBoolean(11), columns.getOrDefault(id, List.of()),
                            groups.getOrDefault(id, List.of()), indexes.getOrDefault(id, List.of()),
                            checks.getOrDefault(id, List.of())));
                });
    }

    /** The rows of one child table of user_tables by table id, in each table's order (the query's). */
    private <T> Map<Long, List<T>> children(String query, ChildMapper<T> mapper) {
        Map<Long, List<T>> byTable = new java.util.HashMap<>();
        jdbc.query(query, rs -> {
            byTable.computeIfAbsent(rs.getLong(1), id -> new ArrayList<>()).add(mapper.map(rs));
        });
        return byTable;
    }

    @FunctionalInterface
    private interface ChildMapper<T> {
        T map(java.sql.ResultSet rs) throws java.sql.SQLException;
    }

    /** Stores a new table and returns it with its id. Physical names are derived from the id. */
    @Transactional
    public TableDef create(TableDef table) {
        TableRecord saved = tables.save(toRecord(table, null));
        changed();
        return toDef(saved);
    }

    /** Replaces the stored definition of an existing table (same id). */
    @Transactional
    public TableDef update(TableDef table) {
        TableDef saved = toDef(tables.save(toRecord(table, table.id())));
        changed();
        return saved;
    }

    @Transactional
    public void delete(TableDef table) {
        tables.deleteById(table.id());
        changed();
    }

    /** The table that has the index of this name, if any: index names are unique across the catalog. */
    @Transactional(readOnly = true)
    public Optional<TableDef> findByIndex(String indexName) {
        return tables.findTableIdByIndexName(indexName).flatMap(tables::findById).map(Catalog::toDef);
    }

    /** Tables with a history retention setting, for the retention job. */
    @Transactional(readOnly = true, isolation = org.springframework.transaction.annotation.Isolation.REPEATABLE_READ)
    public List<TableDef> withRetention() {
        return all().stream().filter(t -> t.retentionCommits() != null || t.retentionInterval() != null).toList();
    }

    private static TableRecord toRecord(TableDef table, Long id) {
        List<ColumnRecord> columns = new ArrayList<>();
        int maxPhysical = 0;
        for (ColumnDef c : table.columns()) {
            String kind = null;
            Integer position = null;
            if (!c.isKey() && table.mode().keyed()) {
                GroupDef group = table.group(c.groupId());
                int valid = group.validBy().indexOf(c.name());
                int revision = group.revisionBy().indexOf(c.name());
                if (valid >= 0) {
                    kind = "VALID";
                    position = valid;
                } else if (revision >= 0) {
                    kind = "REVISION";
                    position = revision;
                }
            }
            columns.add(new ColumnRecord(c.name(), c.physical(), c.type().sql(), c.notNull(), c.defaultValue(),
                    c.isKey() ? c.keyPosition() : null, c.isKey() ? null : c.groupId(), kind, position));
            maxPhysical = Math.max(maxPhysical, Integer.parseInt(c.physical().substring(1)));
        }
        List<GroupRecord> groups = table.groups().stream().map(g -> new GroupRecord(g.id(), g.name())).toList();
        List<IndexRecord> indexes = table.indexes().stream()
                .map(i -> new IndexRecord(i.name(), i.physical(), String.join(",", i.columns()), i.scope().name(),
                        i.unique()))
                .toList();
        return new TableRecord(id, table.name(), table.mode().name(), maxPhysical + 1, table.horizon(),
                table.createdCommit(), table.retentionCommits(), table.retentionInterval(),
                table.period() == null ? null : table.period().start(), table.period() == null ? null : table.period().end(),
                table.period() != null && table.period().implicit(), columns, groups, indexes,
                table.checks().stream().map(c -> new TableRecord.CheckRecord(c.name(), c.expression())).toList());
    }

    private static TableDef toDef(TableRecord record) {
        List<ColumnDef> columns = record.columns().stream()
                .map(c -> new ColumnDef(c.name(), c.physicalName(), ColumnType.parseStored(c.type()), c.notNull(),
                        c.defaultValue(), c.keyPosition() == null ? -1 : c.keyPosition(),
                        c.groupId() == null ? -1 : c.groupId()))
                .toList();
        List<GroupDef> groups = record.groups().stream()
                .map(g -> new GroupDef(g.groupId(), g.name(),
                        ordering(record.columns(), g.groupId(), "VALID"),
                        ordering(record.columns(), g.groupId(), "REVISION")))
                .toList();
        List<IndexDef> indexes = record.indexes().stream()
                .map(i -> new IndexDef(i.name(), i.physicalName(), List.of(i.columns().split(",")),
                        IndexScope.valueOf(i.scope()), i.uniqueIndex()))
                .toList();
        return new TableDef(record.id(), record.name(), TableMode.valueOf(record.mode()), columns, groups,
                record.historyHorizon(), record.createdCommit(), indexes, record.retentionCommits(),
                record.retentionInterval(), record.periodStart() == null ? null
                        : new TableDef.SystemPeriod(record.periodStart(), record.periodEnd(), record.periodImplicit(),
                                new ColumnType(ColumnType.Base.TIMESTAMP, 6, null)),
                record.checks() == null ? List.of()
                        : record.checks().stream().map(c -> new CheckDef(c.name(), c.expression())).toList());
    }

    private static List<String> ordering(List<ColumnRecord> columns, int groupId, String kind) {
        return columns.stream()
                .filter(c -> kind.equals(c.orderingKind()) && c.groupId() != null && c.groupId() == groupId)
                .sorted(Comparator.comparingInt(ColumnRecord::orderingPosition))
                .map(ColumnRecord::name)
                .toList();
    }
}
