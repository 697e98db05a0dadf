package io.verso.catalog;

import java.util.List;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.MappedCollection;
import org.springframework.data.relational.core.mapping.Table;

/** The catalog's persistent form of a user table: one aggregate with its columns and groups. */
@Table(schema = "verso", name = "user_tables")
record TableRecord(@Id Long id, String name, String mode, int nextColumnId, long historyHorizon, long createdCommit,
                   Long retentionCommits, String retentionInterval, String periodStart, String periodEnd,
                   boolean periodImplicit,
                   @MappedCollection(idColumn = "table_id", keyColumn = "position") List<ColumnRecord> columns,
                   @MappedCollection(idColumn = "table_id", keyColumn = "position") List<GroupRecord> groups,
                   @MappedCollection(idColumn = "table_id", keyColumn = "position") List<IndexRecord> indexes,
                   @MappedCollection(idColumn = "table_id", keyColumn = "position") List<CheckRecord> checks) {

    TableRecord withId(Long id) {
        return new TableRecord(id, name, mode, nextColumnId, historyHorizon, createdCommit, retentionCommits,
                retentionInterval, periodStart, periodEnd, periodImplicit, columns, groups, indexes, checks);
    }

    /** A CHECK constraint: its name and its expression as written. */
    @Table(schema = "verso", name = "user_checks")
    record CheckRecord(String name, String expression) {
    }

    /** A column; {@code orderingKind} is VALID or REVISION for ordering columns, else null. */
    @Table(schema = "verso", name = "user_columns")
    record ColumnRecord(String name, String physicalName, String type, boolean notNull, String defaultValue,
                        Integer keyPosition, Integer groupId, String orderingKind, Integer orderingPosition) {
    }

    @Table(schema = "verso", name = "user_groups")
    record GroupRecord(int groupId, String name) {
    }

    /** An index; {@code columns} are physical column names, comma-separated. */
    @Table(schema = "verso", name = "user_indexes")
    record IndexRecord(String name, String physicalName, String columns, String scope, boolean uniqueIndex) {
    }
}
