package io.verso.engine;

import io.verso.analyze.BoundChange;
import io.verso.analyze.GroupBatch;
import io.verso.analyze.KeyPredicate;
import io.verso.analyze.WriteAnalyzer;
import io.verso.analyze.WriteAnalyzer.RowInput;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.GroupDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.compile.CheckCompiler;
import io.verso.compile.WriteCompiler;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.plan.Plan;
import io.verso.plan.Planner;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Consumer;

/**
 * The row writes of one request ({@link Statement.RowWrite}: INSERT, UPSERT, UPDATE, DELETE by key or by
 * WHERE) into every table mode: each statement's rows turned into one batch per attribute group it writes
 * and written at the request's commit, its CHECK constraints then verified on what it touched. Rows are
 * numbered across the request ({@link #position}), so a receipt's outcomes name each row by its place.
 * System-versioned tables, and UPDATE/DELETE of APPEND tables, are set-based and run their own statement.
 */
final class RowWrites {

    /** What a row write sees of its request beyond {@link RequestContext}. */
    interface Context extends RequestContext {
        /** The catalog as the planner asks it: each lookup checked for the privileges the plan needs. */
        Planner.Tables planned();

        /** The time of the request's commit, as system-versioned rows record it. */
        Instant commitTime();

        /** Refuses {@code statement}, which ends rows of APPEND table {@code table}, if a derived table reads it. */
        void refuseEndingRows(Ident table, String statement);
    }

    private final SqlRunner sql;
    private final SystemVersioning system;
    private final AppendChanges appendChanges;
    private final Context request;
    /** The ordinal of the next row the request writes. */
    private int position;

    RowWrites(SqlRunner sql, SystemVersioning system, AppendChanges appendChanges, Context request) {
        this.sql = sql;
        this.system = system;
        this.appendChanges = appendChanges;
        this.request = request;
    }

    StatementResult insertRows(Statement.InsertRows written) {
        String kind = written.upsert() ? "UPSERT" : "INSERT";
        TableDef table = request.table(written.table());
        Statement.InsertRows statement = ValuesEvaluation.evaluated(written, table, request, request.asOf(),
                request.params(), sql);
        if (table.mode() == TableMode.SYSTEM) {
            return system.insert(statement, table, request, request.commitTime(), this::queriedRows);
        }
        Planner.checkMode(statement, table);
        if (statement.query() != null) {
            return queried(kind, table, statement);
        }
        // VALUES go to column arrays directly (the ingest path).
        WriteAnalyzer.ValuesRows values = WriteAnalyzer.valuesRows(statement, table, request.params());
        if (values.size() == 0) {
            return StatementResult.Written.empty(kind, table.name());
        }
        List<GroupBatch> batches = WriteAnalyzer.batches(table, values,
                touchedGroups(table, values.given(), statement), position, statement.pos());
        return written(kind, table, statement, values.size(), batches);
    }

    /**
     * INSERT/UPSERT ... query: its rows written as they are read, {@link #QUERIED_CHUNK} at a time, each chunk a
     * write of its own at the request's commit (rows numbered on across chunks, so the winner among versions of
     * one key is the same as in one write), so a query of a million rows never holds more than a chunk in the
     * heap. The receipt counts the rows and names none (as an UPDATE's or DELETE's does).
     */
    private StatementResult queried(String kind, TableDef table, Statement.InsertRows statement) {
        long[] sums = new long[4];
        queriedRows(statement, rows -> {
            Set<String> given = rows.get(0).values().keySet();
            List<GroupBatch> batches = WriteAnalyzer.batches(table, rows, touchedGroups(table, given, statement),
                    false, position, statement.pos());
            StatementResult.Written chunk = written(kind, table, statement, rows.size(), batches);
            sums[0] += chunk.rows();
            sums[1] += chunk.versions();
            sums[2] += chunk.current();
            sums[3] += chunk.lost();
        });
        return new StatementResult.Written(kind, table.name(), sums[0], sums[1], sums[2], sums[3], List.of(),
                new boolean[0]);
    }

    /** Rows of a query per write: enough that a chunk's statements cost little beside its rows. */
    static final int QUERIED_CHUNK = 10_000;

    private static List<GroupDef> touchedGroups(TableDef table, Set<String> given, Statement.InsertRows statement) {
        return table.mode() == TableMode.APPEND ? List.of()
                : WriteAnalyzer.touchedGroups(table, given, statement.group());
    }

    /** {@code rows} rows of an INSERT/UPSERT written as {@code batches} say, after INSERT's refusal of keys. */
    private StatementResult.Written written(String kind, TableDef table, Statement.InsertRows statement, int rows,
                                            List<GroupBatch> batches) {
        if (!statement.upsert() && table.mode().keyed()) {
            refuseKeys(table, batches.get(0), statement.pos());
        }
        return checked(write(kind, table, rows, batches), table, batches, statement.pos());
    }

    /** The table's CHECK constraints hold for the rows the write touched, as they are now. */
    private <R extends StatementResult> R checked(R result, TableDef table, List<GroupBatch> batches, Pos pos) {
        if (table.mode() == TableMode.APPEND) {
            Checks.verify(sql, table, checks -> CheckCompiler.written(table, checks, request.commit()), pos);
        } else {
            String[][] keys = new String[table.keyColumns().size()][];
            System.arraycopy(batches.get(0).values(), 0, keys, 0, keys.length);
            Checks.verify(sql, table, checks -> CheckCompiler.keyed(table, checks, keys), pos);
        }
        return result;
    }

    /**
     * The rows of INSERT/UPSERT ... query, read as its plan says (Plan.QueriedWrite), as text per column, handed
     * to {@code each} a chunk at a time (SqlRunner#chunks: what a chunk's write does is not seen by the rows
     * after it). Each chunk is its own write, so a key's rows must come in one: the winner among them, and the
     * receipt's count of rows that became current, are then what one write of all the rows gives. Without ORDER
     * BY the plan reads the rows in key order, and a chunk ends only where the key changes; an APPEND table, and a
     * system-versioned one, have no winners, and their chunks end anywhere. The rows of a query with ORDER BY come
     * in its order, a key's rows anywhere among them: they are written at once, and so at most
     * {@link #ORDERED_ROWS} of them.
     */
    private void queriedRows(Statement.InsertRows statement, Consumer<List<RowInput>> each) {
        Plan.QueriedWrite plan = Planner.queriedWrite(statement, request.planned(), request.asOf(), request.params());
        List<ColumnDef> columns = plan.columns();
        TableDef table = plan.target();
        boolean ordered = !statement.query().orderBy().isEmpty();
        int[] key = table.keyColumns().stream().mapToInt(columns::indexOf).filter(i -> i >= 0).toArray();
        // A system-versioned table's rows have no winner either (each key is refused if written twice).
        boolean anywhere = key.length == 0 || table.mode() == TableMode.APPEND
                || table.mode() == TableMode.SYSTEM && ordered;
        boolean bounded = ordered && !anywhere;
        // A bounded read ends its first chunk one row past the bound: that chunk is refused.
        BiPredicate<String[], String[]> together = anywhere || bounded ? (a, b) -> false
                : (a, b) -> Arrays.stream(key).allMatch(i -> Objects.equals(a[i], b[i]));
        int[] read = {0};
        sql.chunks(plan.read(), bounded ? ORDERED_ROWS + 1 : QUERIED_CHUNK, together, texts -> {
            if (bounded && texts.size() > ORDERED_ROWS) {
                throw VersoException.at(ErrorCode.RESOURCE_LIMIT, (statement.upsert() ? "UPSERT" : "INSERT")
                        + " ... SELECT ... ORDER BY writes at most " + ORDERED_ROWS + " rows, all held at once to "
                        + "keep their order: without ORDER BY it writes any number, in key order", statement.pos());
            }
            List<RowInput> rows = new ArrayList<>(texts.size());
            for (String[] row : texts) {
                rows.add(new RowInput(named(columns, row), Map.of(), "row " + ++read[0] + " of the query"));
            }
            each.accept(rows);
        });
    }

    /** The most rows INSERT/UPSERT ... SELECT ... ORDER BY writes into a keyed table (see {@link #queriedRows}). */
    static final int ORDERED_ROWS = 100_000;

    /** A row read back as text per column, by the names of {@code columns} (the first of its texts). */
    private static Map<String, Object> named(List<ColumnDef> columns, String[] texts) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            values.put(columns.get(i).name(), texts[i]);
        }
        return values;
    }

    private void refuseKeys(TableDef table, GroupBatch batch, Pos pos) {
        String[][] keyValues = new String[table.keyColumns().size()][];
        System.arraycopy(batch.values(), 0, keyValues, 0, keyValues.length);
        InsertKeys.refuse(sql, table, keyValues, pos);
    }

    private StatementResult.Written write(String kind, TableDef table, int rows, List<GroupBatch> batches) {
        long versions = 0;
        long current = 0;
        boolean[] rowCurrent = new boolean[rows];
        int first = position;
        if (table.mode() == TableMode.APPEND) {
            for (GroupBatch batch : batches) {
                versions += sql.update(WriteCompiler.append(table, batch.columns(), batch.values(),
                        batch.positions(), request.commit()));
            }
            current = versions;
            Arrays.fill(rowCurrent, true);
        } else {
            GroupWritten outcome = groupsWrite(batches);
            versions = outcome.versions();
            current = outcome.won().length;
            for (Integer p : outcome.won()) {
                rowCurrent[p - first] = true;
            }
        }
        position += rows;
        request.touch(table.name(), versions);
        return new StatementResult.Written(kind, table.name(), rows, versions, current, versions - current,
                keys(table, batches.get(0), rows), rowCurrent);
    }

    /**
     * What a write of a keyed table's groups did: the versions it wrote, and the positions of the rows that
     * became current, once per group in which they did.
     */
    private record GroupWritten(long versions, Integer[] won) {
    }

    private GroupWritten groupsWrite(List<GroupBatch> batches) {
        return sql.query(WriteCompiler.write(batches, request.commit()), rs -> {
            rs.next();
            java.sql.Array won = rs.getArray(2);
            return new GroupWritten(rs.getLong(1), won == null ? new Integer[0] : (Integer[]) won.getArray());
        });
    }

    /** The keys of a batch's rows, as the receipt names them. */
    private static List<String[]> keys(TableDef table, GroupBatch batch, int rows) {
        List<String[]> keys = new ArrayList<>(rows);
        int keyCount = table.keyColumns().size();
        for (int r = 0; r < rows; r++) {
            String[] key = new String[keyCount];
            for (int k = 0; k < keyCount; k++) {
                key[k] = batch.values()[k][r];
            }
            keys.add(key);
        }
        return keys;
    }

    StatementResult update(Statement.Update statement) {
        if (!(Planner.update(statement, request.planned(), request.asOf(), request.params()) instanceof Plan.Update plan)) {
            TableDef table = request.table(statement.table());
            if (table.mode() == TableMode.APPEND) {
                request.refuseEndingRows(statement.table(), "UPDATE");
                StatementResult.Written updated = appendChanges.update(statement, table, request, position);
                position += (int) updated.rows();
                return updated;
            }
            return system.update(statement, table, request, request.commitTime());
        }
        BoundChange.Update update = plan.bound();
        TableDef table = update.table();
        List<ColumnDef> columns = update.columns();
        List<RowInput> rows = new ArrayList<>();
        for (String[] texts : sql.texts(plan.read())) {
            rows.add(new RowInput(named(columns, texts), Map.of(),
                    "the row of key " + InsertKeys.describe(table.keyColumns(), texts)));
        }
        if (rows.isEmpty()) {
            return StatementResult.Written.empty("UPDATE", table.name());
        }
        List<GroupBatch> batches = WriteAnalyzer.batches(table, rows, update.groups(), false, position,
                statement.pos());
        return checked(write("UPDATE", table, rows.size(), batches), table, batches, statement.pos());
    }

    /**
     * How many statements from {@code from} on run together as {@link #keyUpdates}: consecutive UPDATEs of one
     * VERSIONED or UPSERT table, each reading only the rows of keys it names ({@link KeyPredicate#onlyNamedKeys}),
     * up to the first that names a key an earlier one of them names. 1 when the statement at {@code from} runs
     * alone, as any other statement does; a table the caller may not use runs alone too, and is refused there.
     */
    int keyUpdateRun(List<Statement> statements, int from) {
        if (!(statements.get(from) instanceof Statement.Update first) || from + 1 >= statements.size()
                || !(statements.get(from + 1) instanceof Statement.Update next)
                || !next.table().name().equals(first.table().name())) {
            return 1;
        }
        TableDef table;
        try {
            table = request.table(first.table());
        } catch (io.verso.error.VersoException e) {
            return 1;
        }
        if (!table.mode().keyed()) {
            return 1;
        }
        Set<List<String>> named = new java.util.HashSet<>();
        int run = 0;
        while (from + run < statements.size() && statements.get(from + run) instanceof Statement.Update update
                && update.table().name().equals(first.table().name())) {
            List<Map<String, Object>> keys = KeyPredicate.onlyNamedKeys(update, table.keyColumns(), request.params());
            if (keys == null || !keys.stream().allMatch(key -> named.add(key.values().stream()
                    .map(String::valueOf).toList()))) {
                break;
            }
            run++;
        }
        return Math.max(run, 1);
    }

    /**
     * UPDATEs of one table that each name their keys, run as one read of every row they match and one write of
     * every attribute group they touch, where run one by one each was a read and a write of its own (a hundred
     * key updates, two hundred round trips). Each is planned, checked and answered as it would be alone: its rows' values
     * refused at its own position, its receipt its own, its CHECK constraints verified in turn. That holds
     * because each reads only rows no other of them writes, which the read confirms: when two of them match
     * the same key, the later must see the earlier's write, and they run one by one instead.
     */
    List<StatementResult> keyUpdates(List<Statement.Update> run) {
        List<BoundChange.Update> bound = new ArrayList<>(run.size());
        for (Statement.Update statement : run) {
            if (!(Planner.update(statement, request.planned(), request.asOf(), request.params())
                    instanceof Plan.Update plan)) {
                return run.stream().map(this::update).toList();
            }
            bound.add(plan.bound());
        }
        TableDef table = bound.get(0).table();
        NamedKeys named = namedKeys(run, bound);
        List<List<RowInput>> rows = named != null ? rowsOfNamedKeys(bound, named) : rowsOfEach(bound);
        if (rows == null) {
            // Two of them match one key: the later must see the earlier's write.
            return run.stream().map(this::update).toList();
        }
        List<List<GroupBatch>> batches = new ArrayList<>(run.size());
        Map<Integer, List<GroupBatch>> byGroup = new LinkedHashMap<>();
        int first = position;
        for (int u = 0; u < run.size(); u++) {
            List<GroupBatch> own = rows.get(u).isEmpty() ? List.of() : WriteAnalyzer.batches(table, rows.get(u),
                    bound.get(u).groups(), false, position, run.get(u).pos());
            own.forEach(b -> byGroup.computeIfAbsent(b.group().id(), g -> new ArrayList<>()).add(b));
            batches.add(own);
            position += rows.get(u).size();
        }
        // Per row of the run, in how many groups its version became current.
        int[] wins = new int[position - first];
        long versions = 0;
        if (!byGroup.isEmpty()) {
            GroupWritten outcome = groupsWrite(byGroup.values().stream().map(GroupBatch::concat).toList());
            versions = outcome.versions();
            for (Integer p : outcome.won()) {
                wins[p - first]++;
            }
        }
        if (versions > 0) {
            request.touch(table.name(), versions);
        }
        List<StatementResult> results = new ArrayList<>(run.size());
        int at = 0;
        for (int u = 0; u < run.size(); u++) {
            List<GroupBatch> own = batches.get(u);
            int count = rows.get(u).size();
            if (count == 0) {
                results.add(StatementResult.Written.empty("UPDATE", table.name()));
                continue;
            }
            boolean[] rowCurrent = new boolean[count];
            long current = 0;
            for (int r = 0; r < count; r++) {
                current += wins[at + r];
                rowCurrent[r] = wins[at + r] > 0;
            }
            at += count;
            long written = (long) count * own.size();
            results.add(checked(new StatementResult.Written("UPDATE", table.name(), count, written, current,
                    written - current, keys(table, own.get(0), count), rowCurrent), table, own, run.get(u).pos()));
        }
        return results;
    }

    /**
     * The keys UPDATEs name and the values they assign, as text for one read of them all
     * ({@link WriteCompiler#updatedRowsOfKeys}); {@code statementOf[i]} is the UPDATE that names key i.
     */
    private record NamedKeys(String[][] keys, String[] keyTypes, String[][] given, int[] statementOf) {
    }

    /**
     * {@link NamedKeys} of UPDATEs that assign the same columns, each only values PostgreSQL reads from text as
     * it reads them in each statement's own read ({@link #given}), and name keys whose values do too
     * ({@link #keyType}); else null, and each is read by its own read.
     */
    private NamedKeys namedKeys(List<Statement.Update> run, List<BoundChange.Update> bound) {
        TableDef table = bound.get(0).table();
        List<ColumnDef> keyColumns = table.keyColumns();
        List<ColumnDef> columns = bound.get(0).columns();
        Set<String> assigned = assignedColumns(bound.get(0));
        List<String[]> keys = new ArrayList<>();
        List<String[]> values = new ArrayList<>();
        List<Integer> statementOf = new ArrayList<>();
        String[] keyTypes = new String[keyColumns.size()];
        for (int u = 0; u < run.size(); u++) {
            if (!bound.get(u).columns().equals(columns) || !assignedColumns(bound.get(u)).equals(assigned)) {
                return null;
            }
            String[] given = new String[columns.size()];
            for (int c = 0; c < columns.size(); c++) {
                Expr value = bound.get(u).assigned().get(columns.get(c).name());
                if (value != null) {
                    Given text = given(value, columns.get(c));
                    if (text == null) {
                        return null;
                    }
                    given[c] = text.text();
                }
            }
            for (Map<String, Object> key : KeyPredicate.explicitKeys(run.get(u).where(), keyColumns, request.params())) {
                String[] texts = new String[keyColumns.size()];
                for (int k = 0; k < texts.length; k++) {
                    Object value = key.get(keyColumns.get(k).name());
                    String type = keyType(value, keyColumns.get(k));
                    if (type == null || keyTypes[k] != null && !keyTypes[k].equals(type)) {
                        return null;
                    }
                    keyTypes[k] = type;
                    texts[k] = value instanceof java.math.BigDecimal d ? d.toBigIntegerExact().toString() : value.toString();
                }
                keys.add(texts);
                values.add(given);
                statementOf.add(u);
            }
        }
        String[][] keyArrays = new String[keyColumns.size()][keys.size()];
        String[][] givenArrays = new String[columns.size()][];
        for (int c = 0; c < columns.size(); c++) {
            givenArrays[c] = assigned.contains(columns.get(c).name()) ? new String[keys.size()] : null;
        }
        for (int i = 0; i < keys.size(); i++) {
            for (int k = 0; k < keyArrays.length; k++) {
                keyArrays[k][i] = keys.get(i)[k];
            }
            for (int c = 0; c < columns.size(); c++) {
                if (givenArrays[c] != null) {
                    givenArrays[c][i] = values.get(i)[c];
                }
            }
        }
        return new NamedKeys(keyArrays, keyTypes, givenArrays, statementOf.stream().mapToInt(Integer::intValue).toArray());
    }

    private static Set<String> assignedColumns(BoundChange.Update update) {
        Set<String> assigned = new java.util.HashSet<>();
        update.assigned().forEach((column, value) -> {
            if (value != null) {
                assigned.add(column);
            }
        });
        return assigned;
    }

    /** A value as text, {@code text} null for SQL NULL. */
    private record Given(String text) {
    }

    /**
     * The text of a value an UPDATE assigns to {@code column}, when PostgreSQL casting that text to the column's
     * type gives what the statement's own read gives: a string (sent untyped, so read as text and cast), an
     * integer (a JSON one too) into a column of numbers or text, NULL. Else null: a typed literal, a decimal, a
     * boolean (cast from their own types, not from text) are left to the statement's own read.
     */
    private Given given(Expr value, ColumnDef column) {
        Object v;
        if (value instanceof Expr.Literal literal) {
            switch (literal.kind()) {
                case NULL -> v = null;
                case STRING -> v = literal.text();
                case INTEGER -> v = new java.math.BigInteger(literal.text());
                default -> {
                    return null;
                }
            }
        } else if (value instanceof Expr.Parameter parameter) {
            v = request.params().get(parameter.index());
        } else {
            return null;
        }
        if (v == null || v instanceof String) {
            return new Given((String) v);
        }
        if (!NUMBERS_OR_TEXT.contains(column.type().base())) {
            return null;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof java.math.BigInteger) {
            return new Given(v.toString());
        }
        // A JSON integer comes as a BigDecimal of scale 0 (api/rest/JsonValues); one written with a fraction or
        // an exponent is a decimal, left to the statement's own read.
        return v instanceof java.math.BigDecimal d && d.scale() == 0 ? new Given(d.toPlainString()) : null;
    }

    private static final Set<io.verso.catalog.ColumnType.Base> NUMBERS_OR_TEXT = java.util.EnumSet.of(
            io.verso.catalog.ColumnType.Base.SMALLINT, io.verso.catalog.ColumnType.Base.INTEGER,
            io.verso.catalog.ColumnType.Base.BIGINT, io.verso.catalog.ColumnType.Base.NUMERIC,
            io.verso.catalog.ColumnType.Base.REAL, io.verso.catalog.ColumnType.Base.DOUBLE,
            io.verso.catalog.ColumnType.Base.TEXT, io.verso.catalog.ColumnType.Base.VARCHAR,
            io.verso.catalog.ColumnType.Base.CHAR);

    /**
     * The type a named key's text is read as so that it matches the rows the statement's own WHERE matches, by
     * the key's index: the key's own type for a string (sent untyped, so read as the key's type); bigint (or
     * numeric) for an integer naming an integer (or NUMERIC) key, which PostgreSQL compares across the two.
     * Null for any other value, which the statement's own read judges.
     */
    private static String keyType(Object value, ColumnDef key) {
        if (value instanceof String) {
            return key.type().sql();
        }
        boolean integral = value instanceof Long || value instanceof Integer
                || value instanceof java.math.BigDecimal d && d.stripTrailingZeros().scale() <= 0
                && d.abs().compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
        if (!integral) {
            return null;
        }
        return switch (key.type().base()) {
            case SMALLINT, INTEGER, BIGINT -> "bigint";
            case NUMERIC -> "numeric";
            default -> null;
        };
    }

    /**
     * The rows each UPDATE matches, with its new values, from one read of the current rows of every key they
     * name ({@link NamedKeys}). Null when two of them match one key.
     */
    private List<List<RowInput>> rowsOfNamedKeys(List<BoundChange.Update> bound, NamedKeys named) {
        TableDef table = bound.get(0).table();
        List<ColumnDef> keyColumns = table.keyColumns();
        List<ColumnDef> columns = bound.get(0).columns();
        List<String[]> read = new ArrayList<>(sql.texts(WriteCompiler.updatedRowsOfKeys(table, columns, named.keys(),
                named.keyTypes(), named.given())));
        read.sort(java.util.Comparator.comparingInt(texts -> Integer.parseInt(texts[0])));
        List<List<RowInput>> rows = new ArrayList<>(bound.size());
        bound.forEach(u -> rows.add(new ArrayList<>()));
        Set<List<String>> matched = new java.util.HashSet<>();
        for (String[] texts : read) {
            int u = named.statementOf()[Integer.parseInt(texts[0])];
            String[] row = Arrays.copyOfRange(texts, 1, texts.length);
            if (!matched.add(Arrays.asList(Arrays.copyOf(row, keyColumns.size())))) {
                return null;
            }
            rows.get(u).add(new RowInput(named(columns, row), Map.of(), "the row of key "
                    + InsertKeys.describe(keyColumns, row)));
        }
        return rows;
    }

    /**
     * The rows each UPDATE matches, with its new values, as each statement's own read computes them: one read
     * for the UPDATEs that read the same columns (those that write the same groups: often all). Null when two
     * of them match one key.
     */
    private List<List<RowInput>> rowsOfEach(List<BoundChange.Update> bound) {
        List<ColumnDef> keyColumns = bound.get(0).table().keyColumns();
        List<List<RowInput>> rows = new ArrayList<>(bound.size());
        bound.forEach(u -> rows.add(new ArrayList<>()));
        Map<List<ColumnDef>, List<Integer>> byColumns = new LinkedHashMap<>();
        for (int u = 0; u < bound.size(); u++) {
            byColumns.computeIfAbsent(bound.get(u).columns(), c -> new ArrayList<>()).add(u);
        }
        Set<List<String>> matched = new java.util.HashSet<>();
        for (List<Integer> reading : byColumns.values()) {
            List<String[]> read = sql.texts(WriteCompiler.updatedRows(reading.stream().map(bound::get).toList(),
                    request.params()));
            for (String[] texts : read) {
                int u = reading.get(Integer.parseInt(texts[0]));
                String[] row = Arrays.copyOfRange(texts, 1, texts.length);
                if (!matched.add(Arrays.asList(Arrays.copyOf(row, keyColumns.size())))) {
                    return null;
                }
                rows.get(u).add(new RowInput(named(bound.get(u).columns(), row), Map.of(),
                        "the row of key " + InsertKeys.describe(keyColumns, row)));
            }
        }
        return rows;
    }

    StatementResult delete(Statement.Delete statement) {
        if (!(Planner.delete(statement, request.planned(), request.asOf(), request.params()) instanceof Plan.Delete plan)) {
            TableDef table = request.table(statement.table());
            if (table.mode() == TableMode.APPEND) {
                request.refuseEndingRows(statement.table(), "DELETE");
                return appendChanges.delete(statement, table, request);
            }
            return system.delete(statement, table, request, request.commitTime());
        }
        BoundChange.Delete delete = plan.bound();
        TableDef table = delete.table();
        List<Map<String, Object>> keys = delete.keys();
        if (keys == null) {
            keys = new ArrayList<>();
            for (String[] texts : sql.texts(plan.read())) {
                keys.add(named(table.keyColumns(), texts));
            }
        }
        List<RowInput> rows = WriteAnalyzer.tombstones(delete, keys);
        if (rows.isEmpty()) {
            return StatementResult.Written.empty("DELETE", table.name());
        }
        return write("DELETE", table, rows.size(),
                WriteAnalyzer.batches(table, rows, table.versionedGroups(), true, position, statement.pos()));
    }

    StatementResult deleteKeys(Statement.DeleteKeys delete) {
        TableDef table = request.table(delete.table());
        Planner.requireKeyed(table, delete.table(), "DELETE");
        List<RowInput> rows = WriteAnalyzer.tombstones(delete, table, request.params());
        if (rows.isEmpty()) {
            return StatementResult.Written.empty("DELETE", table.name());
        }
        return write("DELETE", table, rows.size(),
                WriteAnalyzer.batches(table, rows, table.versionedGroups(), true, position, delete.pos()));
    }
}
