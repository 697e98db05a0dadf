package io.verso.compile;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.analyze.AsOfResolver;
import io.verso.analyze.BoundChange;
import io.verso.analyze.DdlAnalyzer;
import io.verso.analyze.LifecycleAnalyzer;
import io.verso.analyze.SystemTables;
import io.verso.analyze.GroupBatch;
import io.verso.analyze.ReadAnalyzer;
import io.verso.analyze.WriteAnalyzer;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.plan.Plan;
import io.verso.plan.Planner;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Statement;
import io.verso.support.StatementKinds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Statement in, PostgreSQL out: one file per case under src/test/resources/golden, the statement
 * above {@code -- compiled}, the expected SQL and binds below. A change in the compiler's output is
 * a reviewed diff: run with {@code -Dgolden.update=true} to rewrite the files, then read the diff.
 * Pure: no database, a fixed catalog, latest commit 100, writes at commit 42.
 */
class GoldenCompilerTests {

    private static final Path DIR = Path.of("src/test/resources/golden");
    static final String MARK = "-- compiled";
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");

    private static final Map<String, TableDef> CATALOG = new LinkedHashMap<>();

    static {
        table(1, """
                CREATE TABLE balances (chain_id BIGINT, address TEXT, token TEXT, amount NUMERIC(38,0),
                  updated_at TIMESTAMP(3), balance_index BIGINT, balance_version BIGINT, label TEXT,
                  PRIMARY KEY (chain_id, address, token),
                  ATTRIBUTE GROUP holding (amount, updated_at, balance_index, balance_version)
                    VALID BY (balance_index) REVISION BY (balance_version)) VERSIONED""");
        table(2, "CREATE TABLE items (id BIGINT PRIMARY KEY, name TEXT NOT NULL DEFAULT 'unnamed', price NUMERIC(12,2), "
                + "ix INT) VERSIONED VALID BY (ix)");
        table(3, "CREATE TABLE events (at TIMESTAMPTZ, kind TEXT, body JSONB) APPEND");
        table(4, "CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT)");
        SystemTables.Created prices = SystemTables.createTable((Statement.CreateTable) SqlParser.parse(
                "CREATE TABLE prices (id BIGINT PRIMARY KEY, price NUMERIC(10,2)) WITH SYSTEM VERSIONING")
                .statements().get(0), 1);
        TableDef p = prices.table();
        CATALOG.put(p.name(), new TableDef(5, p.name(), p.mode(), p.columns(), p.groups(), p.horizon(), 1)
                .withPeriod(p.period()));
    }

    /** The catalog as the planner sees it, with the system relations of a caller that may see every table. */
    static final Planner.Tables PLANNED = new Planner.Tables() {
        @Override
        public TableDef table(io.verso.sql.ast.Ident name, java.util.Set<io.verso.security.Privilege> privileges) {
            return lookup(name.name());
        }

        @Override
        public java.util.Optional<io.verso.analyze.SystemRelation> system(io.verso.sql.ast.Ident schema,
                                                                         io.verso.sql.ast.Ident name) {
            return io.verso.analyze.SystemSchemas.relation(schema.name(), name.name(),
                    new io.verso.analyze.SystemSchemas.Visible() {
                        @Override
                        public String database() {
                            return "verso";
                        }

                        @Override
                        public List<TableDef> tables() {
                            return List.of(lookup("items"), lookup("settings"));
                        }

                        @Override
                        public List<io.verso.analyze.SystemSchemas.View> views() {
                            return List.of();
                        }
                    });
        }
    };

    /** The commit time golden files see: SYSTEM tables stamp versions with it. */
    private static final Instant COMMIT_TIME = Instant.parse("2026-01-02T03:04:05.678Z");

    private static void table(long id, String ddl) {
        TableDef t = DdlAnalyzer.createTable((Statement.CreateTable) SqlParser.parse(ddl).statements().get(0), 1);
        CATALOG.put(t.name(), new TableDef(id, t.name(), t.mode(), t.columns(), t.groups(), t.horizon(), 1));
    }

    static String compile(String text) {
        // Statements of one file see the catalog as the earlier ones left it (CREATE INDEX, then DROP INDEX).
        Map<String, TableDef> tables = new LinkedHashMap<>(CATALOG);
        SqlParser.Script script = SqlParser.parse(text);
        List<Object> params = new ArrayList<>();
        for (int i = 0; i < script.parameterCount(); i++) {
            params.add(i + 1);
        }
        AsOfResolver asOf = new AsOfResolver(params, 100);
        List<String> out = new ArrayList<>();
        for (Statement statement : script.statements()) {
            if (statement instanceof Statement.InsertRows insert && lookup(insert.table().name()).systemVersioned()) {
                TableDef table = lookup(insert.table().name());
                SystemTables.checkInsert(insert, table);
                List<io.verso.sql.ast.Ident> named = WriteAnalyzer.namedColumns(insert, table);
                out.add(SystemCompiler.insert(table, table.columns(), SystemTables.insertRows(insert, table, named,
                        WriteAnalyzer.rows(insert, table, params)), 42, COMMIT_TIME).render());
            } else if (statement instanceof Statement.Update update && lookup(update.table().name()).systemVersioned()) {
                TableDef table = lookup(update.table().name());
                Map<String, io.verso.sql.ast.Expr> assigned = SystemTables.assignments(update, table);
                ExprCompiler exprs = SelectCompiler.expressions(ReadAnalyzer.matched(update.table(),
                        List.copyOf(assigned.values()), update.where(), "UPDATE ... SET", name -> lookup(name.name()),
                        asOf, params.size()), params);
                out.add(SystemCompiler.update(table, table.name(), assigned, update.where(), exprs, 42, COMMIT_TIME)
                        .render());
            } else if (statement instanceof Statement.Delete delete && lookup(delete.table().name()).systemVersioned()) {
                TableDef table = lookup(delete.table().name());
                SystemTables.checkDelete(delete, table);
                ExprCompiler exprs = SelectCompiler.expressions(ReadAnalyzer.matched(delete.table(), List.of(),
                        delete.where(), "DELETE", name -> lookup(name.name()), asOf, params.size()), params);
                out.add(SystemCompiler.delete(table, table.name(), delete.where(), exprs, 42, COMMIT_TIME).render());
            } else if (statement instanceof Statement.Update update
                    && lookup(update.table().name()).mode() == TableMode.APPEND) {
                TableDef table = lookup(update.table().name());
                Map<String, io.verso.sql.ast.Expr> assigned = SystemTables.assignments(update, table);
                ExprCompiler exprs = SelectCompiler.expressions(ReadAnalyzer.matched(update.table(),
                        List.copyOf(assigned.values()), update.where(), "UPDATE ... SET", name -> lookup(name.name()),
                        asOf, params.size()), params);
                out.add(AppendCompiler.update(table, table.name(), assigned, update.where(), exprs, 42, 7).render());
            } else if (statement instanceof Statement.Delete delete
                    && lookup(delete.table().name()).mode() == TableMode.APPEND) {
                TableDef table = lookup(delete.table().name());
                SystemTables.checkDelete(delete, table);
                ExprCompiler exprs = SelectCompiler.expressions(ReadAnalyzer.matched(delete.table(), List.of(),
                        delete.where(), "DELETE", name -> lookup(name.name()), asOf, params.size()), params);
                out.add(AppendCompiler.delete(table, table.name(), delete.where(), exprs, 42).render());
            } else if (statement instanceof Statement.AlterSystemVersioning alter) {
                TableDef table = lookup(tables, alter.table());
                SystemTables.checkAlter(alter, table);
                SystemCompiler.convert(table, SystemTables.converted(table), 42, COMMIT_TIME)
                        .forEach(sql -> out.add(sql.render()));
            } else if (statement instanceof Statement.Select || statement instanceof Statement.Update
                    || statement instanceof Statement.Delete
                    || statement instanceof Statement.InsertRows insert && insert.query() != null) {
                // What the planner reads with, as the engine runs it (plan/Planner: SELECT, the query of INSERT ...
                // SELECT, the rows UPDATE and DELETE ... WHERE match); a DELETE naming every key writes at once.
                Plan plan = Planner.plan(statement, PLANNED, asOf, params);
                plan.queries().forEach(query -> out.add(query.render()));
                if (plan instanceof Plan.Delete delete && delete.read() == null) {
                    BoundChange.Delete bound = delete.bound();
                    out.add(WriteCompiler.write(WriteAnalyzer.batches(bound.table(), WriteAnalyzer.tombstones(bound,
                            bound.keys()), bound.table().versionedGroups(), true, 0, bound.pos()), 42).render());
                }
            } else if (statement instanceof Statement.InsertRows insert) {
                TableDef table = lookup(insert.table().name());
                var rows = WriteAnalyzer.rows(insert, table, params);
                List<GroupDef> groups = table.mode() == TableMode.APPEND ? List.of()
                        : WriteAnalyzer.touchedGroups(table, rows.get(0).values().keySet(), insert.group());
                List<GroupBatch> batches = WriteAnalyzer.batches(table, rows, groups, false, 0, insert.pos());
                if (table.mode() == TableMode.APPEND) {
                    for (GroupBatch batch : batches) {
                        out.add(WriteCompiler.append(table, batch.columns(), batch.values(), batch.positions(), 42)
                                .render());
                    }
                } else {
                    out.add(WriteCompiler.write(batches, 42).render());
                }
            } else if (statement instanceof Statement.DropTable drop) {
                out.add(DdlCompiler.dropTable(lookup(drop.name().name())).render());
            } else if (statement instanceof Statement.DeleteHistory history
                    && lookup(history.table().name()).systemVersioned()) {
                out.add(SystemCompiler.deleteHistory(lookup(history.table().name()), COMMIT_TIME).render());
            } else if (statement instanceof Statement.DeleteHistory history) {
                TableDef table = lookup(history.table().name());
                out.add(LifecycleCompiler.deleteHistory(table, asOf.resolve(history.before(), table)).render());
            } else if (statement instanceof Statement.CreateTable create && create.systemVersioning() != null) {
                SystemTables.Created created = SystemTables.createTable(create, 42);
                TableDef def = created.table();
                TableDef table = new TableDef(9, def.name(), def.mode(), def.columns(), def.groups(), 0, 42)
                        .withPeriod(def.period());
                SystemCompiler.createTable(table, created.unique()).forEach(sql -> out.add(sql.render()));
            } else if (statement instanceof Statement.AddColumn add) {
                LifecycleAnalyzer.AddedColumn added = LifecycleAnalyzer.addColumn(add, lookup(tables, add.table()));
                String value = added.column().defaultValue();
                if (value != null) {
                    out.add(LifecycleCompiler.quoteLiteral(value).render());
                }
                // What quote_literal answers for the value, as the engine would pass it on.
                String quoted = value == null ? null : "'" + value.replace("'", "''") + "'";
                LifecycleCompiler.addColumn(added.altered(), added.column(), quoted).forEach(sql -> out.add(sql.render()));
                tables.put(added.altered().name(), added.altered());
            } else if (statement instanceof Statement.DropColumn drop) {
                TableDef table = lookup(tables, drop.table());
                LifecycleAnalyzer.DroppedColumn dropped = LifecycleAnalyzer.dropColumn(drop, table);
                LifecycleCompiler.dropColumn(table, dropped.column()).forEach(sql -> out.add(sql.render()));
                tables.put(table.name(), dropped.altered());
            } else if (statement instanceof Statement.RenameColumn rename) {
                TableDef renamed = LifecycleAnalyzer.renameColumn(rename, lookup(tables, rename.table()));
                tables.put(renamed.name(), renamed);
                out.add("-- catalog only: " + renamed.name() + " (" + String.join(", ",
                        renamed.columns().stream().map(c -> c.name() + " " + c.physical()).toList()) + ")");
            } else if (statement instanceof Statement.RenameTable rename) {
                TableDef table = lookup(tables, rename.table());
                TableDef renamed = LifecycleAnalyzer.renameTable(rename, table, tables.containsKey(rename.to().name()));
                tables.remove(table.name());
                tables.put(renamed.name(), renamed);
                out.add("-- catalog only: " + table.name() + " is " + renamed.name() + ", storage "
                        + renamed.currentTable() + " unchanged");
            } else if (statement instanceof Statement.SetRetention retention) {
                TableDef table = lookup(tables, retention.table());
                LifecycleAnalyzer.setRetention(retention, table);
                out.add(retention.interval() == null ? "-- catalog only: retention " + retention.commits() + " commits"
                        : LifecycleCompiler.normaliseInterval(retention.interval()).render());
            } else if (statement instanceof Statement.CreateIndex create) {
                LifecycleAnalyzer.NewIndex created = LifecycleAnalyzer.createIndex(create, lookup(tables, create.table()));
                LifecycleCompiler.createIndex(created.altered(), created.index()).forEach(sql -> out.add(sql.render()));
                tables.put(created.altered().name(), created.altered());
            } else if (statement instanceof Statement.DropIndex drop) {
                TableDef table = tables.values().stream().filter(t -> t.indexes().stream()
                        .anyMatch(i -> i.name().equals(drop.name().name()))).findFirst().orElseThrow();
                LifecycleCompiler.dropIndex(table, table.indexes().stream()
                        .filter(i -> i.name().equals(drop.name().name())).findFirst().orElseThrow())
                        .forEach(sql -> out.add(sql.render()));
            } else if (statement instanceof Statement.Erase erase) {
                TableDef table = lookup(tables, erase.table());
                LifecycleAnalyzer.Erasure erasure = LifecycleAnalyzer.erase(erase, table, params);
                LifecycleCompiler.erase(table, erasure.values()).forEach(sql -> out.add(sql.render()));
                out.add(LifecycleCompiler.recordErasure(42, table.name(), erasure.recorded().toString(), "tester")
                        .render());
            } else if (statement instanceof Statement.CreateDerived create) {
                derived(create, asOf).forEach(sql -> out.add(sql.render()));
            } else if (statement instanceof Statement.CreateTable create) {
                TableDef def = DdlAnalyzer.createTable(create, 42);
                TableDef table = new TableDef(9, def.name(), def.mode(), def.columns(), def.groups(), 0, 42);
                DdlCompiler.createTable(table).forEach(sql -> out.add(sql.render()));
            } else {
                throw new IllegalArgumentException("no golden compilation for " + statement.getClass().getSimpleName());
            }
        }
        return String.join("\n\n", out);
    }

    /**
     * CREATE DERIVED TABLE and its upkeep (derive/Deriver runs these): the table, its catalog row, the
     * probe for its column types, the source commits a build replays, the difference of a whole
     * recompute and of one limited to key value 1 (a keyless table: the insert of its query's rows), and
     * the rows a commit changed in each source. The column types are what PostgreSQL would answer for a
     * plain column (the source column's own) or a count (bigint).
     */
    private static List<CompiledSql> derived(Statement.CreateDerived create, AsOfResolver asOf) {
        io.verso.analyze.BoundSelect bound = ReadAnalyzer.query(create.query(), name -> lookup(name.name()), asOf, 0);
        List<String> columns = new ArrayList<>();
        for (String column : bound.columns()) {
            String type = bound.relations().stream().flatMap(r -> r.table().columns().stream())
                    .filter(c -> c.name().equals(column)).map(c -> c.type().sql()).findFirst().orElse("bigint");
            columns.add(column + " " + type);
        }
        boolean keyless = create.primaryKey().isEmpty();
        TableDef def = DdlAnalyzer.createTable((Statement.CreateTable) SqlParser.parse("CREATE TABLE "
                + create.name().name() + " (" + String.join(", ", columns) + (keyless ? "" : ", PRIMARY KEY ("
                + String.join(", ", create.primaryKey().stream().map(io.verso.sql.ast.Ident::name).toList()) + ")")
                + ") " + (keyless ? "APPEND" : "VERSIONED")).statements().get(0), 42);
        TableDef table = new TableDef(9, def.name(), def.mode(), def.columns(), def.groups(), 0, 42);
        List<TableDef> sources = bound.relations().stream().map(io.verso.analyze.BoundRelation::table).distinct()
                .toList();
        List<CompiledSql> out = new ArrayList<>(DdlCompiler.createTable(table));
        out.add(DerivedCompiler.record(table.id(), create.text(), sources.stream().map(TableDef::name).toList(), 42));
        out.add(DerivedCompiler.noRows(bound));
        out.add(DerivedCompiler.sourceCommits(sources, 42));
        if (keyless) {
            out.add(DerivedCompiler.append(table, bound, 42));
        } else {
            out.add(DerivedCompiler.difference(table, bound, null));
            out.add(DerivedCompiler.difference(table, bound, new DerivedCompiler.Among(table.keyColumns(),
                    table.keyColumns().stream().map(k -> new String[] {"1"}).toList())));
        }
        for (TableDef source : sources) {
            List<io.verso.catalog.ColumnDef> changed = source.mode() == TableMode.APPEND ? source.columns()
                    : source.keyColumns();
            out.add(DerivedCompiler.changedValues(source, changed, 42, 10_001));
        }
        return out;
    }

    private static TableDef lookup(Map<String, TableDef> tables, io.verso.sql.ast.Ident name) {
        TableDef table = tables.get(name.name());
        if (table == null) {
            throw VersoException.user(ErrorCode.UNKNOWN_TABLE, "unknown table " + name);
        }
        return table;
    }

    private static TableDef lookup(String name) {
        TableDef table = CATALOG.get(name);
        if (table == null) {
            throw VersoException.user(ErrorCode.UNKNOWN_TABLE, "unknown table " + name);
        }
        return table;
    }

    /**
     * The kinds of statement for which the compiler makes no SQL of its own, and why. Every other kind
     * has a golden file; a new kind fails {@link #everyKindOfStatementHasAGoldenFile} until it gets one
     * or a line here.
     */
    private static final Map<Class<?>, String> NO_SQL_OF_ITS_OWN = Map.ofEntries(
            Map.entry(Statement.ShowTables.class, "a catalog listing"),
            Map.entry(Statement.Describe.class, "a catalog listing"),
            Map.entry(Statement.ShowCreateTable.class, "a catalog listing"),
            Map.entry(Statement.ShowDerived.class, "a catalog listing"),
            Map.entry(Statement.Explain.class, "prints its statement's plan: golden-plans/ (plan/GoldenPlanTests)"),
            Map.entry(Statement.ShowGrants.class, "a catalog listing"),
            Map.entry(Statement.CreateRole.class, "access control: catalog rows only (engine/AccessStatements)"),
            Map.entry(Statement.DropRole.class, "access control: catalog rows only (engine/AccessStatements)"),
            Map.entry(Statement.Grant.class, "access control: catalog rows only (engine/AccessStatements)"),
            Map.entry(Statement.TransactionControl.class, "the request is the transaction"),
            Map.entry(Statement.ChangeOrdering.class, "always refused (INVALID_ALTER)"),
            Map.entry(Statement.CreateView.class, "catalog only: the query is analysed, stored, and read at each use"),
            Map.entry(Statement.DropView.class, "catalog only"),
            Map.entry(Statement.DeleteKeys.class, "no statement text (REST and GraphQL build it); compiled as "
                    + "DELETE by named keys is, delete_named_keys.sql"));

    @Test
    void everyKindOfStatementHasAGoldenFile() throws IOException {
        Set<Class<?>> golden = new HashSet<>();
        for (Path file : files()) {
            String content = Files.readString(file, StandardCharsets.UTF_8);
            int mark = content.indexOf(MARK);
            SqlParser.parse(mark < 0 ? content : content.substring(0, mark)).statements()
                    .forEach(statement -> golden.add(statement.getClass()));
        }
        Set<Class<?>> missing = new HashSet<>(StatementKinds.all());
        missing.removeAll(golden);
        missing.removeAll(NO_SQL_OF_ITS_OWN.keySet());
        assertThat(missing).as("kinds of statement without a golden file").isEmpty();
        assertThat(golden).as("kinds listed as making no SQL yet given a golden file")
                .doesNotContainAnyElementsOf(NO_SQL_OF_ITS_OWN.keySet());
    }

    static List<Path> files() throws IOException {
        try (Stream<Path> list = Files.list(DIR)) {
            return list.filter(p -> p.toString().endsWith(".sql")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> goldenFiles() throws IOException {
        List<Path> files = files();
        assertThat(files).as("golden files").hasSizeGreaterThan(5);
        return files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
            String content = Files.readString(file, StandardCharsets.UTF_8);
            int mark = content.indexOf(MARK);
            String statement = (mark < 0 ? content : content.substring(0, mark)).strip();
            String expected = mark < 0 ? "" : content.substring(mark + MARK.length()).strip();
            String actual = format(compile(statement));
            if (UPDATE) {
                Files.writeString(file, statement + "\n\n" + MARK + "\n" + actual + "\n", StandardCharsets.UTF_8);
            } else {
                assertThat(actual).as(file.toString()).isEqualTo(expected);
            }
        }));
    }

    /** One clause per line, so a diff shows what changed. */
    static String format(String sql) {
        return sql.replace(" FROM ", "\n  FROM ").replace(" WHERE ", "\n  WHERE ").replace(" JOIN ", "\n  JOIN ")
                .replace(" ORDER BY ", "\n  ORDER BY ").replace(" GROUP BY ", "\n  GROUP BY ")
                .replace("), ", "),\n  ").replace(" ON CONFLICT", "\n  ON CONFLICT")
                .replace(" RETURNING", "\n  RETURNING").replace(" LIMIT ", "\n  LIMIT ").strip();
    }
}
