package io.verso.compile;

import io.verso.analyze.BoundRelation;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import java.util.List;

/**
 * Emits a relation of a read as a subquery over the physical tables that exposes exactly the
 * user's column names. The rest of the statement never sees physical names, hidden columns or
 * how current rows, winners at a commit and history are kept.
 */
public final class RelationCompiler {


    private RelationCompiler() {
    }

    public static void emit(SqlBuilder b, BoundRelation relation) {
        TableDef table = relation.table();
        if (table.mode() == TableMode.SYSTEM) {
            if (relation.kind() == io.verso.analyze.RelationKind.HISTORY) {
                SystemCompiler.history(b, table, relation.asOf());
                return;
            }
            SystemCompiler.relation(b, relation);
            return;
        }
        switch (relation.kind()) {
            case CURRENT -> current(b, table);
            case AS_OF -> asOf(b, table, relation.asOf());
            case HISTORY -> history(b, table, relation.asOf());
            case CHANGES -> changes(b, table, relation.asOf());
            case RANGE -> throw new IllegalStateException("FOR SYSTEM_TIME ranges read SYSTEM tables only");
        }
    }

    /** Live rows of a keyed table, or the current rows of an APPEND table (none an UPDATE or DELETE ended). */
    public static void current(SqlBuilder b, TableDef table) {
        b.sql("(SELECT ");
        boolean multiGroup = table.groups().size() > 1;
        columns(b, table, (builder, column) -> {
            if (multiGroup && table.isOrderingColumn(column)) {
                // A tombstoned group keeps its ordering values to order late writes; they read as NULL.
                builder.sql("CASE WHEN ").ident(deletedColumn(column.groupId())).sql(" THEN NULL ELSE ")
                        .ident(column.physical()).sql(" END");
            } else {
                builder.ident(column.physical());
            }
        });
        b.sql(" FROM ").table(table.currentTable()).sql(" WHERE ");
        if (table.mode() == TableMode.APPEND) {
            b.ident("_to").sql(" IS NULL");
        } else {
            liveFilter(b, table, null);
        }
        b.sql(")");
    }

    /** The column {@link #keysWithLastChange} names each key's last change by. */
    static final String LAST_CHANGE = "_last_change";

    /**
     * Every key of a keyed table with the latest commit that changed its current row ({@link #LAST_CHANGE}): the
     * greatest of its groups' winners' commits, a tombstone's included, so a key deleted since still counts. The key
     * columns are named as the user's, for a read's own key conditions to select from it.
     */
    static void keysWithLastChange(SqlBuilder b, TableDef table) {
        b.sql("(SELECT greatest(");
        List<GroupDef> groups = table.groups();
        for (int i = 0; i < groups.size(); i++) {
            b.sql(i > 0 ? ", " : "").ident(commitColumn(groups.get(i).id()));
        }
        b.sql(") AS ").ident(LAST_CHANGE);
        for (ColumnDef key : table.keyColumns()) {
            b.sql(", ").ident(key.physical()).sql(" AS ").ident(key.name());
        }
        b.sql(" FROM ").table(table.currentTable()).sql(")");
    }

    /** {@code "_d0" = FALSE OR "_d1" = FALSE ...}: at least one group has a live winner. */
    static void liveFilter(SqlBuilder b, TableDef table, String qualifier) {
        List<GroupDef> groups = table.groups();
        for (int i = 0; i < groups.size(); i++) {
            if (i > 0) {
                b.sql(" OR ");
            }
            String column = deletedColumn(groups.get(i).id());
            if (qualifier == null) {
                b.ident(column);
            } else {
                b.qualified(qualifier, column);
            }
            b.sql(" = FALSE");
        }
    }

    /** Every key's winner at commit {@code n}, per group, put together. */
    static void asOf(SqlBuilder b, TableDef table, long n) {
        if (table.mode() == TableMode.APPEND) {
            b.sql("(SELECT ");
            columns(b, table, (builder, column) -> builder.ident(column.physical()));
            // Appended by n and not yet replaced or removed at n.
            b.sql(" FROM ").table(table.currentTable()).sql(" WHERE ").ident("_commit").sql(" <= ").bind(n)
                    .sql(" AND (").ident("_to").sql(" IS NULL OR ").ident("_to").sql(" > ").bind(n).sql("))");
            return;
        }
        List<GroupDef> groups = table.groups();
        if (groups.size() == 1) {
            b.sql("(SELECT ");
            columns(b, table, (builder, column) -> builder.ident(column.physical()));
            b.sql(" FROM ").table(table.historyTable()).sql(" WHERE ");
            winnerWindow(b, groups.get(0), n);
            b.sql(" AND NOT ").ident("_deleted").sql(")");
            return;
        }
        // Several groups, while at most one of them had a winner by n (a group added or first written later,
        // db/migration/V24): every version current at n is of that group, so it is read as one group is,
        // each column from its own group's versions. PostgreSQL decides between this and the pivot below once
        // per statement (a one-time filter over the primary key of verso.group_versions).
        b.sql("(SELECT ");
        columns(b, table, (builder, column) -> {
            if (column.isKey()) {
                builder.ident(column.physical());
            } else {
                builder.sql("CASE WHEN ").ident("_g").sql(" = ").number(column.groupId()).sql(" THEN ")
                        .ident(column.physical()).sql(" END");
            }
        });
        b.sql(" FROM ").table(table.historyTable()).sql(" WHERE ");
        window(b, null, n);
        b.sql(" AND NOT ").ident("_deleted").sql(" AND ");
        groupsWithWinners(b, table, n);
        b.sql(" <= 1 UNION ALL SELECT ");
        // Otherwise one pass over the versions that were winners at n, every group at once, pivoted per key.
        // Each group has at most one such version per key; a tombstoned group's columns read as NULL, and a
        // key is present when any group has a live winner. (Joining each group's winner to the current
        // table's keys reads less when the planner knows the tables, but on a table loaded since its last
        // ANALYZE it misjudged a filtered read as one row and nested loops over it: 4.3 s instead of 20 ms.
        // The one pass has no plan to get wrong.)
        columns(b, table, (builder, column) -> {
            if (column.isKey()) {
                builder.ident(column.physical());
            } else {
                groupWinner(builder, null, column);
            }
        });
        b.sql(" FROM ").table(table.historyTable()).sql(" WHERE ");
        window(b, null, n);
        b.sql(" AND ");
        groupsWithWinners(b, table, n);
        b.sql(" > 1 GROUP BY ");
        keyList(b, table, null);
        b.sql(" HAVING bool_or(NOT ").ident("_deleted").sql("))");
    }

    /** How many of the table's groups had a winner at commit n or before (db/migration/V24). */
    private static void groupsWithWinners(SqlBuilder b, TableDef table, long n) {
        b.sql("(SELECT count(*) FROM verso.group_versions WHERE table_id = ").number(table.id())
                .sql(" AND first_commit <= ").bind(n).sql(")");
    }

    /**
     * A column's value in its group's live winner, among one key's winning versions of every group:
     * {@code verso.winner(c) FILTER (WHERE _g = g AND NOT _deleted)} (V23; NULL for a tombstone).
     */
    private static void groupWinner(SqlBuilder b, String qualifier, ColumnDef column) {
        b.sql("verso.winner(");
        column(b, qualifier, column.physical()).sql(") FILTER (WHERE ");
        column(b, qualifier, "_g").sql(" = ").number(column.groupId()).sql(" AND NOT ");
        column(b, qualifier, "_deleted").sql(")");
    }

    /** The version of {@code group} that was the winner at commit n: current from at most n, until after n. */
    private static void winnerWindow(SqlBuilder b, GroupDef group, long n) {
        b.ident("_g").sql(" = ").number(group.id()).sql(" AND ");
        window(b, null, n);
    }

    /** {@code _from IS NOT NULL AND _from <= n AND (_to IS NULL OR _to > n)}: the version was the winner at n. */
    private static void window(SqlBuilder b, String qualifier, long n) {
        wasCurrent(b, qualifier);
        b.sql(" AND ");
        column(b, qualifier, "_from").sql(" <= ").bind(n).sql(" AND (");
        column(b, qualifier, "_to").sql(" IS NULL OR ");
        column(b, qualifier, "_to").sql(" > ").bind(n).sql(")");
    }

    /**
     * {@code _from IS NOT NULL}: the version was current at some commit. Implied by any bound on
     * {@code _from}, but said in this very form because it is the partition key of a history table
     * (DdlCompiler): PostgreSQL then leaves the versions that never were current unread. On a history
     * table of the older, unpartitioned layout it is a no-op filter.
     */
    static void wasCurrent(SqlBuilder b, String qualifier) {
        column(b, qualifier, "_from").sql(" IS NOT NULL");
    }

    private static SqlBuilder column(SqlBuilder b, String qualifier, String name) {
        return qualifier == null ? b.ident(name) : b.qualified(qualifier, name);
    }

    /**
     * An APPEND table's changes: an {@code insert} at the commit that appended a row, and a {@code delete}
     * (the row as {@code _before}) at the commit whose UPDATE or DELETE ended it; an UPDATE is both, as a
     * keyless row has no identity to carry. A row appended and ended by one commit never was current: no
     * change.
     */
    private static void appendChanges(SqlBuilder b, TableDef table, Long asOf) {
        b.sql("(SELECT ");
        columns(b, table, (builder, column) -> builder.ident(column.physical()));
        b.sql(", ").ident("_commit").sql(" AS ").ident("_commit").sql(", CAST(").bind("insert")
                .sql(" AS text) AS ").ident("_op").sql(", CAST(NULL AS jsonb) AS ").ident("_before")
                .sql(" FROM ").table(table.currentTable()).sql(" WHERE (").ident("_to").sql(" IS NULL OR ")
                .ident("_to").sql(" > ").ident("_commit").sql(")");
        if (asOf != null) {
            b.sql(" AND ").ident("_commit").sql(" <= ").bind(asOf);
        }
        b.sql(" UNION ALL SELECT ");
        columns(b, table, (builder, column) -> builder.sql("CAST(NULL AS ").sql(column.type().sql()).sql(")"));
        b.sql(", ").ident("_to").sql(" AS ").ident("_commit").sql(", CAST(").bind("delete").sql(" AS text) AS ")
                .ident("_op").sql(", to_jsonb(").ident("_b").sql(") - ").bind("_to").sql(" AS ").ident("_before")
                .sql(" FROM (SELECT ");
        columns(b, table, (builder, column) -> builder.ident(column.physical()));
        b.sql(", ").ident("_to").sql(" FROM ").table(table.currentTable()).sql(" WHERE ").ident("_to")
                .sql(" > ").ident("_commit");
        if (asOf != null) {
            b.sql(" AND ").ident("_to").sql(" <= ").bind(asOf);
        }
        b.sql(") AS ").ident("_b").sql(")");
    }

    /** Every retained version, one row per version and group, with the history pseudo-columns. */
    static void history(SqlBuilder b, TableDef table, Long asOf) {
        b.sql("(SELECT ");
        boolean multiGroup = table.groups().size() > 1;
        columns(b, table, (builder, column) -> {
            if (table.mode() == TableMode.APPEND || column.isKey() || table.isOrderingColumn(column)) {
                builder.ident(column.physical());
                return;
            }
            // A version carries only its own group's columns, and a tombstone none but its ordering values
            // (a column added later with a DEFAULT was filled into every stored version).
            builder.sql("CASE WHEN NOT ").ident("_deleted");
            if (multiGroup) {
                builder.sql(" AND ").ident("_g").sql(" = ").number(column.groupId());
            }
            builder.sql(" THEN ").ident(column.physical()).sql(" END");
        });
        if (table.mode() == TableMode.APPEND) {
            // A row is current from the commit that appended it until the UPDATE or DELETE that ended it; one
            // ended by its own commit never was (both NULL, as a version superseded within its commit).
            b.sql(", CAST(").bind(GroupDef.DEFAULT_NAME).sql(" AS text) AS ").ident("_group")
                    .sql(", ").ident("_commit").sql(" AS ").ident("_commit")
                    .sql(", CASE WHEN ").ident("_to").sql(" = ").ident("_commit").sql(" THEN NULL ELSE ")
                    .ident("_commit").sql(" END AS ").ident("_current_from").sql(", CASE WHEN ").ident("_to")
                    .sql(" > ").ident("_commit");
            if (asOf != null) {
                b.sql(" AND ").ident("_to").sql(" <= ").bind(asOf);
            }
            b.sql(" THEN ").ident("_to").sql(" END AS ").ident("_current_to")
                    .sql(", FALSE AS ").ident("_deleted")
                    .sql(" FROM ").table(table.currentTable());
        } else {
            b.sql(", CASE ").ident("_g");
            for (GroupDef group : table.groups()) {
                b.sql(" WHEN ").number(group.id()).sql(" THEN ").bind(group.name());
            }
            b.sql(" END AS ").ident("_group").sql(", ").ident("_commit").sql(" AS ").ident("_commit").sql(", ");
            b.ident("_from").sql(" AS ").ident("_current_from").sql(", ");
            if (asOf == null) {
                b.ident("_to");
            } else {
                // Seen from commit n, a version superseded after n was still current.
                b.sql("CASE WHEN ").ident("_to").sql(" <= ").bind(asOf).sql(" THEN ").ident("_to").sql(" END");
            }
            b.sql(" AS ").ident("_current_to").sql(", ").ident("_deleted").sql(" AS ").ident("_deleted")
                    .sql(" FROM ").table(table.historyTable());
        }
        if (asOf != null) {
            b.sql(" WHERE ").ident("_commit").sql(" <= ").bind(asOf);
        }
        b.sql(")");
    }

    /**
     * Every change of the table's current rows: one row per key and commit at which some group's
     * winner changed, with the row after the change, {@code _commit}, {@code _op} and the row before
     * as JSONB. Each group's winners at c and at c - 1 come from the {@code _from}/{@code _to} ranges,
     * so a version that lost on arrival (never current) makes no change, nor does a new winner that
     * leaves the row as it was, nor a tombstone over an absent key. Commits at or before the table's
     * history horizon are left out: the state before them may be gone.
     */
    static void changes(SqlBuilder b, TableDef table, Long asOf) {
        if (table.mode() == TableMode.APPEND) {
            appendChanges(b, table, asOf);
            return;
        }
        b.sql("(SELECT ");
        columns(b, table, (builder, column) -> builder.qualified(column.isKey() ? "_ch" : "_a",
                column.isKey() ? column.physical() : column.name()));
        b.sql(", ").qualified("_ch", "_c").sql(" AS ").ident("_commit").sql(", CASE WHEN ")
                .qualified("_b", "_present").sql(" IS NOT TRUE THEN ").bind("insert").sql(" WHEN ")
                .qualified("_a", "_present").sql(" IS NOT TRUE THEN ").bind("delete").sql(" ELSE ").bind("update")
                .sql(" END AS ").ident("_op").sql(", CASE WHEN ").qualified("_b", "_present")
                .sql(" THEN to_jsonb(").ident("_b").sql(") - ").bind("_present").sql(" END AS ").ident("_before");
        b.sql(" FROM (SELECT DISTINCT ");
        keyList(b, table, null);
        b.sql(", ").ident("_from").sql(" AS ").ident("_c").sql(" FROM ").table(table.historyTable())
                .sql(" WHERE ");
        wasCurrent(b, null);
        b.sql(" AND ").ident("_from").sql(" > ").bind(table.horizon());
        if (asOf != null) {
            b.sql(" AND ").ident("_from").sql(" <= ").bind(asOf);
        }
        b.sql(") AS ").ident("_ch");
        winnersAt(b, table, "_a", false);
        winnersAt(b, table, "_b", true);
        b.sql(" WHERE (").qualified("_a", "_present").sql(" OR ").qualified("_b", "_present").sql(") AND NOT (")
                .qualified("_a", "_present").sql(" AND ").qualified("_b", "_present").sql(" AND to_jsonb(")
                .ident("_a").sql(") = to_jsonb(").ident("_b").sql(")))");
    }

    /** A lateral row of one key's winners at {@code _ch._c} (or the commit before), named as the user's columns. */
    private static void winnersAt(SqlBuilder b, TableDef table, String alias, boolean before) {
        b.sql(" CROSS JOIN LATERAL (SELECT ");
        columns(b, table, (builder, column) -> {
            if (column.isKey()) {
                builder.qualified("_ch", column.physical());
            } else {
                groupWinner(builder, "_h", column);
            }
        });
        b.sql(", bool_or(NOT ").qualified("_h", "_deleted").sql(") AS ").ident("_present").sql(" FROM ")
                .table(table.historyTable()).sql(" AS ").ident("_h").sql(" WHERE ");
        List<ColumnDef> keys = table.keyColumns();
        for (ColumnDef key : keys) {
            b.qualified("_h", key.physical()).sql(" = ").qualified("_ch", key.physical()).sql(" AND ");
        }
        String at = before ? " - 1" : "";
        wasCurrent(b, "_h");
        b.sql(" AND ").qualified("_h", "_from").sql(" <= ").qualified("_ch", "_c").sql(at).sql(" AND (")
                .qualified("_h", "_to").sql(" IS NULL OR ").qualified("_h", "_to").sql(" > ").qualified("_ch", "_c").sql(at).sql(")) AS ")
                .ident(alias);
    }

    interface ColumnSource {
        void emit(SqlBuilder b, ColumnDef column);
    }

    private static void columns(SqlBuilder b, TableDef table, ColumnSource source) {
        List<ColumnDef> columns = table.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                b.sql(", ");
            }
            source.emit(b, columns.get(i));
            b.sql(" AS ").ident(columns.get(i).name());
        }
    }

    static void keyList(SqlBuilder b, TableDef table, String qualifier) {
        List<ColumnDef> keys = table.keyColumns();
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                b.sql(", ");
            }
            if (qualifier == null) {
                b.ident(keys.get(i).physical());
            } else {
                b.qualified(qualifier, keys.get(i).physical());
            }
        }
    }

    static String deletedColumn(int groupId) {
        return "_d" + groupId;
    }

    static String commitColumn(int groupId) {
        return "_c" + groupId;
    }

    static String positionColumn(int groupId) {
        return "_p" + groupId;
    }
}
