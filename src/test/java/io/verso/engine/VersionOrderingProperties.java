package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.engine.OrderingModel.Group;
import io.verso.engine.OrderingModel.Version;
import io.verso.support.IntegrationTest;
import io.verso.support.SqlClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.springframework.context.ApplicationContext;

/**
 * Random version sets, in random arrival orders and random batchings, against the reference model:
 * current rows, retained history, and AS OF every commit. Ties in ordering values, integer and
 * timestamp ordering columns, commit-order tables, attribute groups and tombstones all occur.
 */
class VersionOrderingProperties {

    /** Shares the integration tests' application context (same configuration, same context cache). */
    static class SharedContext extends IntegrationTest {
    }

    private static SqlClient sql;
    private static final AtomicInteger PAYLOADS = new AtomicInteger();

    @BeforeContainer
    static void connect() throws Exception {
        ApplicationContext context = IntegrationTest.sharedContext(SharedContext.class);
        sql = new SqlClient(Integer.parseInt(context.getEnvironment().getProperty("local.server.port")));
    }

    /** Table shapes: name, DDL template (%s = table name), groups. */
    record Shape(String name, String ddl, List<Group> groups) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final List<Shape> SHAPES = List.of(
            new Shape("int valid+revision", "CREATE TABLE %s (k INT PRIMARY KEY, v INT, ix INT, rev BIGINT) VERSIONED "
                    + "VALID BY (ix) REVISION BY (rev)",
                    List.of(new Group("default", "v", List.of("ix", "rev"), List.of("INT", "INT")))),
            new Shape("timestamp valid", "CREATE TABLE %s (k INT PRIMARY KEY, v INT, ts TIMESTAMP) VERSIONED VALID BY (ts)",
                    List.of(new Group("default", "v", List.of("ts"), List.of("TS")))),
            new Shape("commit order", "CREATE TABLE %s (k INT PRIMARY KEY, v INT) VERSIONED",
                    List.of(new Group("default", "v", List.of(), List.of()))),
            new Shape("attribute groups", "CREATE TABLE %s (k INT PRIMARY KEY, v INT, a INT, ax BIGINT, b INT, "
                    + "bts TIMESTAMPTZ, ATTRIBUTE GROUP ga (a, ax) VALID BY (ax), "
                    + "ATTRIBUTE GROUP gb (b, bts) VALID BY (bts)) VERSIONED",
                    List.of(new Group("default", "v", List.of(), List.of()),
                            new Group("ga", "a", List.of("ax"), List.of("INT")),
                            new Group("gb", "b", List.of("bts"), List.of("TSTZ")))));

    /**
     * A version to write before arrival: key, group (-1 = tombstone of every group; the number of groups = a row
     * of every group at once, on shapes of several), ordering values.
     */
    record Planned(int key, int group, long[] ordering) {
    }

    record Schedule(Shape shape, List<Planned> versions, List<Integer> cuts, List<Integer> statementCuts) {
        @Override
        public String toString() {
            return shape + " " + versions.size() + " versions, commits cut at " + cuts + ", statements at "
                    + statementCuts;
        }
    }

    @Provide
    Arbitrary<Schedule> schedules() {
        return Arbitraries.of(SHAPES).flatMap(shape -> {
            Arbitrary<Planned> planned = Combinators.combine(
                    Arbitraries.integers().between(1, 3),
                    Arbitraries.integers().between(-1, shape.groups().size() > 1 ? shape.groups().size()
                            : shape.groups().size() - 1).injectDuplicates(0.2)
                            .map(g -> g == -1 ? -1 : g),
                    Arbitraries.longs().between(0, 3).array(long[].class).ofSize(2)
            ).as((key, group, ordering) -> new Planned(key, group, ordering));
            Arbitrary<List<Planned>> versions = planned.list().ofMinSize(1).ofMaxSize(14)
                    .map(list -> list.stream().map(p -> p.group() == -1 && Math.floorMod(p.key() + p.ordering()[0], 3) != 0
                            ? new Planned(p.key(), 0, p.ordering()) : p).toList());
            return versions.flatMap(list -> Combinators.combine(
                    Arbitraries.just(shape), Arbitraries.just(list).flatMap(l -> Arbitraries.shuffle(l)),
                    Arbitraries.integers().between(1, list.size()).set().ofMaxSize(4).map(s -> s.stream().sorted().toList()),
                    Arbitraries.integers().between(1, list.size()).set().ofMaxSize(3).map(s -> s.stream().sorted().toList())
            ).as(Schedule::new));
        });
    }

    /** A schedule written to a fresh table: its name, the model of what was written, and the commits. */
    record Run(String table, OrderingModel model, List<Long> commits) {
    }

    private Run write(Schedule schedule) {
        Shape shape = schedule.shape();
        String table = "p_" + Integer.toString(PAYLOADS.incrementAndGet(), 36) + "_" + System.nanoTime() % 100000;
        sql.write(shape.ddl().formatted(table));
        OrderingModel model = new OrderingModel(shape.groups());
        List<Long> commits = new ArrayList<>();
        List<Planned> all = schedule.versions();
        int start = 0;
        List<Integer> cuts = new ArrayList<>(schedule.cuts());
        if (cuts.isEmpty() || cuts.get(cuts.size() - 1) != all.size()) {
            cuts.add(all.size());
        }
        for (int cut : cuts) {
            commits.add(send(table, shape, all.subList(start, cut), schedule.statementCuts(), start, model));
            start = cut;
        }
        return new Run(table, model, commits);
    }

    @Property(tries = 40)
    void everyReadAgreesWithTheModel(@ForAll("schedules") Schedule schedule) {
        Run run = write(schedule);
        long latest = run.commits().get(run.commits().size() - 1);
        assertThat(read(run.table(), schedule.shape(), null)).as("current rows").isEqualTo(run.model().rowsAt(latest));
        for (long commit : run.commits()) {
            assertThat(read(run.table(), schedule.shape(), commit)).as("AS OF COMMIT %d", commit)
                    .isEqualTo(run.model().rowsAt(commit));
        }
        assertThat(history(run.table(), schedule.shape())).as("history").isEqualTo(run.model().history());
    }

    /**
     * DELETE HISTORY before a random commit n, then ERASE of one key: every AS OF at or after n
     * answers as before (less the erased key), earlier ones are refused, current rows never change,
     * and history keeps exactly the versions some AS OF at or after n can still return.
     */
    @Property(tries = 15)
    void pruningAndErasureKeepEveryLaterAnswer(@ForAll("schedules") Schedule schedule,
                                               @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 20) int pick) {
        Run run = write(schedule);
        Shape shape = schedule.shape();
        List<Long> commits = run.commits();
        long cut = commits.get(pick % commits.size());
        List<List<String>> current = read(run.table(), shape, null);

        sql.write("DELETE HISTORY FROM " + run.table() + " BEFORE COMMIT " + cut);
        assertThat(read(run.table(), shape, null)).as("current rows").isEqualTo(current);
        for (long commit : commits) {
            if (commit >= cut) {
                assertThat(read(run.table(), shape, commit)).as("AS OF %d after pruning before %d", commit, cut)
                        .isEqualTo(run.model().rowsAt(commit));
            } else {
                sql.fails(400, "AS_OF_BEFORE_HORIZON", "SELECT * FROM " + run.table() + " AS OF COMMIT " + commit);
            }
        }
        List<List<String>> kept = run.model().history().stream()
                .filter(r -> !(r.get(5) != null && Long.parseLong(r.get(5)) <= cut)
                        && !(r.get(4) == null && Long.parseLong(r.get(3)) <= cut))
                .toList();
        assertThat(history(run.table(), shape)).as("history kept").isEqualTo(kept);

        int erased = run.model().versions.get(0).key();
        sql.write("ERASE FROM " + run.table() + " WHERE k = ?", erased);
        for (long commit : commits) {
            if (commit >= cut) {
                assertThat(read(run.table(), shape, commit)).as("AS OF %d after erasing key %d", commit, erased)
                        .isEqualTo(run.model().rowsAt(commit).stream()
                                .filter(r -> !r.get(0).equals(String.valueOf(erased))).toList());
            }
        }
        assertThat(sql.rows("SELECT k FROM history(" + run.table() + ") WHERE k = ?", erased)).isEmpty();
    }

    private List<List<String>> history(String table, Shape shape) {
        List<List<String>> history = new ArrayList<>(sql.rows(historyQuery(table, shape)));
        history.sort(Comparator.comparing((List<String> r) -> r.toString()));
        return history;
    }

    /**
     * One request: the planned versions, split into statements at the statement cuts that fall inside
     * it. Consecutive upserts of one group share a statement; a tombstone is a DELETE of its own.
     */
    private long send(String table, Shape shape, List<Planned> request, List<Integer> statementCuts, int offset,
                      OrderingModel model) {
        StringBuilder text = new StringBuilder();
        List<Object> params = new ArrayList<>();
        List<Version> pending = new ArrayList<>();
        int pos = 0;
        int i = 0;
        while (i < request.size()) {
            Planned first = request.get(i);
            if (first.group() == -1) {
                text.append("DELETE FROM ").append(table).append(" WHERE k = ?");
                params.add(first.key());
                List<String> at = new ArrayList<>();
                for (Group g : shape.groups()) {
                    for (int o = 0; o < g.ordering().size(); o++) {
                        at.add(g.ordering().get(o) + " = ?");
                        params.add(OrderingModel.literal(g.kinds().get(o), first.ordering()[o]));
                    }
                }
                if (!at.isEmpty()) {
                    text.append(" AT (").append(String.join(", ", at)).append(")");
                }
                text.append(";\n");
                for (int g = 0; g < shape.groups().size(); g++) {
                    pending.add(new Version(first.key(), g, ordering(shape.groups().get(g), first.ordering()), 0, pos,
                            null, true));
                }
                pos++;
                i++;
                continue;
            }
            // The groups each row of the statement writes: one, or every group of the shape at once.
            List<Integer> written = first.group() < shape.groups().size() ? List.of(first.group())
                    : java.util.stream.IntStream.range(0, shape.groups().size()).boxed().toList();
            List<String> columns = new ArrayList<>(List.of("k"));
            for (int g : written) {
                columns.add(shape.groups().get(g).payload());
                columns.addAll(shape.groups().get(g).ordering());
            }
            List<String> rows = new ArrayList<>();
            int j = i;
            while (j < request.size() && request.get(j).group() == first.group()
                    && (j == i || !statementCuts.contains(offset + j))) {
                Planned p = request.get(j);
                List<String> marks = new ArrayList<>();
                params.add(p.key());
                marks.add("?");
                for (int g : written) {
                    Group group = shape.groups().get(g);
                    int payload = PAYLOADS.incrementAndGet();
                    // Groups of one row take different ordering values, so that one may win where another loses.
                    long[] values = written.size() > 1 && group.ordering().size() == 1
                            ? new long[] {p.ordering()[g % 2]} : ordering(group, p.ordering());
                    params.add(payload);
                    marks.add("?");
                    for (int o = 0; o < group.ordering().size(); o++) {
                        params.add(OrderingModel.literal(group.kinds().get(o), values[o]));
                        marks.add("?");
                    }
                    pending.add(new Version(p.key(), g, values, 0, pos, payload, false));
                }
                pos++;
                rows.add("(" + String.join(", ", marks) + ")");
                j++;
            }
            text.append("UPSERT INTO ").append(table).append(" (").append(String.join(", ", columns))
                    .append(") VALUES ").append(String.join(", ", rows));
            if (written.size() == 1 && first.group() > 0) {
                text.append(" ATTRIBUTE GROUP ").append(shape.groups().get(first.group()).name());
            }
            text.append(";\n");
            i = j;
        }
        long commit = sql.write(text.toString(), params.toArray());
        for (Version v : pending) {
            model.versions.add(new Version(v.key(), v.group(), v.ordering(), commit, v.pos(), v.payload(), v.deleted()));
        }
        return commit;
    }

    private static long[] ordering(Group group, long[] planned) {
        long[] values = new long[group.ordering().size()];
        System.arraycopy(planned, 0, values, 0, values.length);
        return values;
    }

    private List<List<String>> read(String table, Shape shape, Long commit) {
        List<String> columns = new ArrayList<>(List.of("k"));
        for (Group g : shape.groups()) {
            columns.add(g.payload());
            columns.addAll(g.ordering());
        }
        String query = "SELECT " + String.join(", ", columns) + " FROM " + table
                + (commit == null ? "" : " AS OF COMMIT " + commit) + " ORDER BY k";
        return sql.rows(query);
    }

    private static String historyQuery(String table, Shape shape) {
        String payload = shape.groups().size() == 1 ? shape.groups().get(0).payload()
                : "coalesce(" + String.join(", ", shape.groups().stream().map(Group::payload).toList()) + ")";
        return "SELECT k, _group, " + payload + ", _commit, _current_from, _current_to, _deleted FROM history(" + table + ")";
    }
}
