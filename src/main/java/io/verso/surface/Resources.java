package io.verso.surface;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The resources as they are rendered: one record per schema of openapi/verso.yaml, named alike.
 * Commit sequences are strings (64-bit values must survive JavaScript clients); row values
 * ({@code Map<String, Object>}, column name to value) are already in their type's JSON form.
 */
public final class Resources {

    private Resources() {
    }

    public record TableSummary(String name, String mode, String createdCommit) {
    }

    public record TableList(String readCommit, List<TableSummary> tables) {
    }

    public record ColumnDescription(String name, String type, boolean nullable,
                                    @JsonProperty("default") String defaultValue,
                                    Integer keyPosition, String group, String ordering) {
    }

    public record GroupDescription(String name, List<String> columns, List<String> validBy, List<String> revisionBy) {
    }

    public record IndexDescription(String name, List<String> columns, String scope) {
    }

    public record TableDescription(String name, String mode, String createdCommit, String historyHorizon,
                                   String readCommit, List<String> key, List<ColumnDescription> columns,
                                   List<GroupDescription> groups, List<IndexDescription> indexes) {
    }

    public record TableCreated(String commit, TableDescription table) {
    }

    public record TableDropped(String commit, String table) {
    }

    /**
     * A derived table's creation over REST: its build's state ({@code QUEUED}, {@code RUNNING},
     * {@code SUCCEEDED}, {@code FAILED}), progress over the sources' earlier commits, and outcome.
     */
    public record DerivedBuild(String id, String table, String state, Long commitsTotal, long commitsApplied,
                               long rowsWritten, String commit, BuildError error, String startedAt,
                               String updatedAt, String finishedAt) {
    }

    /** Why a build failed: the problem its request would have got had it waited. */
    public record BuildError(String code, int status, String detail) {
    }

    /** {@code outcomes}: schema KeyOutcome, one per row in request order. */
    public record WriteReceipt(String commit, String table, long rows, long versions, long current, long lost,
                               KeyOutcomes outcomes) {
    }

    public record RowResult(String table, String readCommit, Map<String, Object> row) {
    }

    public record RowPage(String table, String readCommit, boolean pinned, List<Map<String, Object>> rows,
                          String nextCursor) {
    }

    /** {@code rowStart}/{@code rowEnd}: the period of a system-versioned table's version (null for other tables). */
    public record Version(String group, String commit, String currentFrom, String currentTo, boolean current,
                          boolean deleted, Map<String, Object> ordering, Map<String, Object> values,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Object rowStart,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Object rowEnd) {
    }

    public record KeyHistory(String table, String readCommit, Map<String, Object> key, List<Version> versions) {
    }

    public record RowChange(Map<String, Object> key, Map<String, Object> before, Map<String, Object> after,
                            List<String> columns) {
    }

    public record TableDiff(String table, String fromCommit, String toCommit, List<Map<String, Object>> added,
                            List<Map<String, Object>> removed, List<RowChange> changed) {
    }

    public record TableTouched(String table, long rowCount) {
    }

    public record Commit(String commit, String committedAt, long rowCount, List<TableTouched> tables) {
    }

    public record CommitPage(List<Commit> commits, String latestCommit, String next) {
    }
}
