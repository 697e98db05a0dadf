package io.verso.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A user table as the catalog knows it. Physical tables are named after the id, never the user's
 * name: {@code t<id>_cur} holds current rows (or every row of an APPEND table), {@code t<id>_hist}
 * every retained version of a VERSIONED table.
 *
 * @param horizon           the deleted-history horizon: AS OF a commit before it is refused (0 when none)
 * @param retentionCommits  history the retention job keeps, in commits (null: no limit)
 * @param retentionInterval history the retention job keeps, as a PostgreSQL interval (null: no limit)
 * @param checks            the CHECK constraints, in declaration order
 */
public record TableDef(long id, String name, TableMode mode, List<ColumnDef> columns, List<GroupDef> groups,
                       long horizon, long createdCommit, List<IndexDef> indexes, Long retentionCommits,
                       String retentionInterval, SystemPeriod period, List<CheckDef> checks) {

    /**
     * The period columns of a system-versioned table: their names, whether they are the implicit
     * invisible ones, and their type (TIMESTAMP(p)). Their values are the commit times kept in the
     * hidden columns {@code _start}/{@code _end}.
     */
    public record SystemPeriod(String start, String end, boolean implicit, ColumnType type) {
        public static final String END_OF_TIME = "2038-01-19 03:14:07.999999";
        /** {@link #END_OF_TIME} in UTC: the row_end of every current version, so no time at or after it reads one. */
        public static final java.time.Instant END_OF_TIME_INSTANT = java.time.Instant.parse("2038-01-19T03:14:07.999999Z");

        public static SystemPeriod implicitColumns() {
            return new SystemPeriod("row_start", "row_end", true, new ColumnType(ColumnType.Base.TIMESTAMP, 6, null));
        }

        public boolean names(String column) {
            return start.equals(column) || end.equals(column);
        }
    }

    public TableDef(long id, String name, TableMode mode, List<ColumnDef> columns, List<GroupDef> groups,
                    long horizon, long createdCommit, List<IndexDef> indexes, Long retentionCommits,
                    String retentionInterval, SystemPeriod period) {
        this(id, name, mode, columns, groups, horizon, createdCommit, indexes, retentionCommits, retentionInterval,
                period, List.of());
    }

    public TableDef(long id, String name, TableMode mode, List<ColumnDef> columns, List<GroupDef> groups,
                    long horizon, long createdCommit, List<IndexDef> indexes, Long retentionCommits,
                    String retentionInterval) {
        this(id, name, mode, columns, groups, horizon, createdCommit, indexes, retentionCommits, retentionInterval,
                null);
    }

    public TableDef(long id, String name, TableMode mode, List<ColumnDef> columns, List<GroupDef> groups,
                    long horizon, long createdCommit) {
        this(id, name, mode, columns, groups, horizon, createdCommit, List.of(), null, null);
    }

    /** Whether reads may ask FOR SYSTEM_TIME of this table (a SYSTEM table with its period). */
    public boolean systemVersioned() {
        return mode == TableMode.SYSTEM && period != null;
    }

    public TableDef withPeriod(SystemPeriod newPeriod) {
        return new TableDef(id, name, mode, columns, groups, horizon, createdCommit, indexes, retentionCommits,
                retentionInterval, newPeriod, checks);
    }

    public TableDef withMode(TableMode newMode, List<ColumnDef> newColumns, SystemPeriod newPeriod) {
        return new TableDef(id, name, newMode, newColumns, groups, horizon, createdCommit, indexes, retentionCommits,
                retentionInterval, newPeriod, checks);
    }

    public TableDef withName(String newName) {
        return new TableDef(id, newName, mode, columns, groups, horizon, createdCommit, indexes, retentionCommits,
                retentionInterval, period, checks);
    }

    public TableDef withColumns(List<ColumnDef> newColumns, List<GroupDef> newGroups) {
        return new TableDef(id, name, mode, newColumns, newGroups, horizon, createdCommit, indexes, retentionCommits,
                retentionInterval, period, checks);
    }

    public TableDef withHorizon(long newHorizon) {
        return new TableDef(id, name, mode, columns, groups, newHorizon, createdCommit, indexes, retentionCommits,
                retentionInterval, period, checks);
    }

    public TableDef withIndexes(List<IndexDef> newIndexes) {
        return new TableDef(id, name, mode, columns, groups, horizon, createdCommit, newIndexes, retentionCommits,
                retentionInterval, period, checks);
    }

    public TableDef withRetention(Long commits, String interval) {
        return new TableDef(id, name, mode, columns, groups, horizon, createdCommit, indexes, commits, interval, period, checks);
    }

    public TableDef withChecks(List<CheckDef> newChecks) {
        return new TableDef(id, name, mode, columns, groups, horizon, createdCommit, indexes, retentionCommits,
                retentionInterval, period, newChecks);
    }

    public Optional<ColumnDef> columnByPhysical(String physical) {
        return columns.stream().filter(c -> c.physical().equals(physical)).findFirst();
    }

    public static final String DATA_SCHEMA = "verso_data";

    public String currentTable() {
        return "t" + id + "_cur";
    }

    public String historyTable() {
        return "t" + id + "_hist";
    }

    // The lookups below run per row and per value on the write and read paths (a 1,000-row batch asks
    // column() for every value): plain loops over these short lists, not a stream pipeline per call.

    public Optional<ColumnDef> column(String name) {
        for (ColumnDef c : columns) {
            if (c.name().equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    public List<ColumnDef> keyColumns() {
        ColumnDef[] keys = new ColumnDef[columns.size()];
        int n = 0;
        for (ColumnDef c : columns) {
            if (c.isKey()) {
                keys[n++] = c;
            }
        }
        keys = Arrays.copyOf(keys, n);
        Arrays.sort(keys, Comparator.comparingInt(ColumnDef::keyPosition));
        return Collections.unmodifiableList(Arrays.asList(keys));
    }

    public List<ColumnDef> columnsOf(GroupDef group) {
        List<ColumnDef> of = new ArrayList<>();
        for (ColumnDef c : columns) {
            if (c.groupId() == group.id()) {
                of.add(c);
            }
        }
        return Collections.unmodifiableList(of);
    }

    public Optional<GroupDef> group(String name) {
        for (GroupDef g : groups) {
            if (g.name().equals(name)) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }

    public GroupDef group(int id) {
        for (GroupDef g : groups) {
            if (g.id() == id) {
                return g;
            }
        }
        throw new java.util.NoSuchElementException("No value present");
    }

    public GroupDef defaultGroup() {
        return group(0);
    }

    /**
     * The groups that hold versions: every named group, and the default group unless the table has
     * named groups and every non-key column is in one of them (then nothing writes default-group
     * versions or tombstones). A table of key columns only keeps its default group.
     */
    public List<GroupDef> versionedGroups() {
        boolean defaultHasColumns = columns.stream().anyMatch(c -> !c.isKey() && c.groupId() == 0);
        if (groups.size() == 1 || defaultHasColumns) {
            return groups;
        }
        return groups.stream().filter(g -> g.id() != 0).toList();
    }

    /** The group of that name among {@link #versionedGroups()}: the ones a write or a history read may name. */
    public Optional<GroupDef> versionedGroup(String name) {
        return versionedGroups().stream().filter(g -> g.name().equals(name)).findFirst();
    }

    public boolean isOrderingColumn(ColumnDef column) {
        return !column.isKey() && mode.keyed() && group(column.groupId()).orderingColumns().contains(column.name());
    }
}
