package io.verso.compile;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Physical tables for a catalog table. Keyed tables get {@code t<id>_cur}: the key, every column,
 * and per group its winner's commit, position and tombstone flag ({@code _c<g>}, {@code _p<g>},
 * {@code _d<g>}; {@code _d<g>} is NULL while the group was never written for the key). VERSIONED
 * tables add {@code t<id>_hist}: one row per version and group, with the commits between which it
 * was the winner; for tables created since it was introduced, partitioned into the versions that
 * were current at some commit and those that never were (older tables keep one plain table, and
 * every statement reads both layouts alike). APPEND tables keep their rows in {@code t<id>_cur}
 * with the commit that wrote them and, once an UPDATE or DELETE has replaced or removed a row, the
 * commit that did ({@code _to}, NULL while the row is current): a changed row stays, so AS OF still
 * reads it.
 */
public final class DdlCompiler {


    private DdlCompiler() {
    }

    public static List<CompiledSql> createTable(TableDef table) {
        List<CompiledSql> statements = new ArrayList<>();
        SqlBuilder cur = new SqlBuilder();
        cur.sql("CREATE TABLE ").table(table.currentTable()).sql(" (");
        columnDefinitions(cur, table);
        if (table.mode() == TableMode.APPEND) {
            cur.sql(table.columns().isEmpty() ? "" : ", ").ident("_commit").sql(" bigint NOT NULL, ").ident("_pos")
                    .sql(" integer NOT NULL, ").ident("_to").sql(" bigint)");
            statements.add(cur.build());
            statements.add(new SqlBuilder().sql("CREATE INDEX ON ").table(table.currentTable())
                    .sql(" (").ident("_commit").sql(")").build());
            return statements;
        }
        for (GroupDef group : table.groups()) {
            cur.sql(", ").ident(RelationCompiler.commitColumn(group.id())).sql(" bigint, ")
                    .ident(RelationCompiler.positionColumn(group.id())).sql(" integer, ")
                    .ident(RelationCompiler.deletedColumn(group.id())).sql(" boolean");
        }
        cur.sql(", PRIMARY KEY (");
        RelationCompiler.keyList(cur, table, null);
        cur.sql("))");
        statements.add(cur.build());
        if (table.mode() == TableMode.VERSIONED) {
            SqlBuilder hist = new SqlBuilder();
            hist.sql("CREATE TABLE ").table(table.historyTable()).sql(" (");
            columnDefinitions(hist, table);
            hist.sql(", ").ident("_g").sql(" smallint NOT NULL, ").ident("_commit").sql(" bigint NOT NULL, ")
                    .ident("_pos").sql(" integer NOT NULL, ").ident("_deleted").sql(" boolean NOT NULL, ")
                    .ident("_from").sql(" bigint, ").ident("_to").sql(" bigint) PARTITION BY LIST ((")
                    .ident("_from").sql(" IS NOT NULL))");
            statements.add(hist.build());
            // Most versions of a busy table lose on arrival and are never current: kept apart, they cost
            // an AS OF (which only ever wants versions that were current) nothing. Every read of winners
            // says "_from IS NOT NULL" (RelationCompiler), which PostgreSQL prunes this partition with;
            // a version superseded within its own commit moves over when the write sets its _from NULL.
            statements.add(new SqlBuilder().sql("CREATE TABLE ").table(wasCurrentPartition(table))
                    .sql(" PARTITION OF ").table(table.historyTable()).sql(" FOR VALUES IN (TRUE)").build());
            statements.add(new SqlBuilder().sql("CREATE TABLE ").table(neverCurrentPartition(table))
                    .sql(" PARTITION OF ").table(table.historyTable()).sql(" FOR VALUES IN (FALSE)").build());
            // A key's versions by group and the commit they became current: AS OF of one key and the
            // closing of its winner cost what that key's versions cost, whatever the table's size.
            SqlBuilder index = new SqlBuilder();
            index.sql("CREATE INDEX ON ").table(table.historyTable()).sql(" (");
            RelationCompiler.keyList(index, table, null);
            index.sql(", ").ident("_g").sql(", ").ident("_from").sql(")");
            statements.add(index.build());
            // The change feed reads the versions that became current after a commit. Versions are stored
            // roughly in commit order, so a block-range index finds them at almost no ingest cost. With the
            // group first, an AS OF of several groups skips the blocks without a group's versions (a group
            // written rarely costs next to nothing); conditions on _from alone still use it.
            statements.add(new SqlBuilder().sql("CREATE INDEX ON ").table(table.historyTable())
                    .sql(" USING brin (").ident("_g").sql(", ").ident("_from").sql(")").build());
        }
        return statements;
    }

    /** The partition of a new VERSIONED table's history holding the versions that were current at some commit. */
    private static String wasCurrentPartition(TableDef table) {
        return table.historyTable() + "_was_current";
    }

    /** The partition holding the versions that never were current ({@code _from} NULL). */
    private static String neverCurrentPartition(TableDef table) {
        return table.historyTable() + "_never_current";
    }

    public static CompiledSql dropTable(TableDef table) {
        SqlBuilder b = new SqlBuilder().sql("DROP TABLE IF EXISTS ").table(table.currentTable());
        if (table.mode() == TableMode.VERSIONED) {
            b.sql(", ").table(table.historyTable());
        }
        return b.build();
    }

    private static void columnDefinitions(SqlBuilder b, TableDef table) {
        List<ColumnDef> columns = table.columns();
        for (int i = 0; i < columns.size(); i++) {
            ColumnDef column = columns.get(i);
            b.sql(i > 0 ? ", " : "").ident(column.physical()).sql(" ").sql(column.type().sql());
            // Only keys are NOT NULL physically: other columns are NULL in other groups' and tombstone
            // versions; their NOT NULL is enforced on write, per group.
            if (column.isKey() || (table.mode() == TableMode.APPEND && column.notNull())) {
                b.sql(" NOT NULL");
            }
        }
    }
}
