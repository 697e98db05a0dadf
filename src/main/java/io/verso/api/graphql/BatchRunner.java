package io.verso.api.graphql;

import io.verso.api.graphql.ReadJobs.NestedHistoryBatch;
import io.verso.api.graphql.ReadJobs.NestedHistoryJob;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementEngine;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.error.Origin;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.surface.ReadBuilder;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs the jobs graphql-java dispatched together (every root field of a request, then every nested
 * field of the next level) as ONE engine call: one transaction, so the reads share one snapshot and
 * the writes make one commit. Every job builds its syntax trees at origins of its own, so an error's
 * origin names the field that caused it: that field gets the error, and the other reads are run again without it
 * (writes are not: a failed write leaves nothing written, and every mutation field reports it).
 */
@Component
class BatchRunner {

    private static final Logger log = LoggerFactory.getLogger(BatchRunner.class);

    private final StatementEngine engine;
    private final GraphqlProperties properties;
    private final java.util.concurrent.atomic.AtomicLong engineCalls = new java.util.concurrent.atomic.AtomicLong();

    BatchRunner(StatementEngine engine, GraphqlProperties properties) {
        this.engine = engine;
        this.properties = properties;
    }

    /** Engine calls made so far: what tests check batching against. */
    long engineCalls() {
        return engineCalls.get();
    }

    List<Outcome> run(List<Job> jobs) {
        Map<Job, Outcome> outcomes = new IdentityHashMap<>();
        // Units: what runs; a nested-history batch stands for all its member jobs.
        Map<String, NestedHistoryBatch> nested = new LinkedHashMap<>();
        List<Job> units = new ArrayList<>();
        for (Job job : jobs) {
            if (job instanceof NestedHistoryJob n) {
                nested.computeIfAbsent(n.batchKey(), k -> {
                    NestedHistoryBatch batch = new NestedHistoryBatch(properties.maxResultRows());
                    units.add(batch);
                    return batch;
                }).add(n);
            } else {
                units.add(job);
            }
        }
        boolean writes = jobs.get(0).writes();
        List<Job> pending = new ArrayList<>(units);
        Map<Job, Object> values = new IdentityHashMap<>();
        Map<Job, RuntimeException> errors = new IdentityHashMap<>();
        while (!pending.isEmpty()) {
            RequestState state = pending.get(0).state();
            Long pinned = state.readCommit();
            ReadBuilder builder = new ReadBuilder();
            List<Statement> statements = new ArrayList<>();
            List<int[]> origins = new ArrayList<>(); // per unit: the range of origins its statements were built at
            List<Integer> counts = new ArrayList<>();
            boolean failedToBuild = false;
            for (Job unit : List.copyOf(pending)) {
                int firstOrigin = builder.originsMade();
                try {
                    List<Statement> mine = unit.statements(builder, pinned);
                    statements.addAll(mine);
                    counts.add(mine.size());
                    origins.add(new int[] {firstOrigin, builder.originsMade()});
                } catch (RuntimeException e) {
                    errors.put(unit, e);
                    pending.remove(unit);
                    failedToBuild = true;
                }
            }
            if (writes && !errors.isEmpty()) {
                RuntimeException first = errors.values().iterator().next();
                for (Job unit : pending) {
                    errors.put(unit, first instanceof VersoException.UserError e ? notWritten(e) : first);
                }
                break;
            }
            if (pending.isEmpty()) {
                break;
            }
            // A unit whose statements failed to build left parameters behind: build again without it.
            if (failedToBuild) {
                continue;
            }
            if (pending.size() == 1 && pending.get(0) instanceof ReadJobs.KeyJob key) {
                statements = key.alone(statements);
            }
            ExecutionResult result;
            try {
                // Fields with no statement of their own (_commit) still need the snapshot's commit.
                engineCalls.incrementAndGet();
                result = engine.execute(statements.isEmpty()
                        ? List.of(new Statement.ShowTables(Pos.of(new Origin.Argument("_commit"))))
                        : statements, builder.params(), null);
            } catch (VersoException.UserError e) {
                Job culprit = culprit(pending, origins, e.origin() == null ? -1 : builder.originIndex(e.origin()));
                if (writes) {
                    for (Job unit : pending) {
                        errors.put(unit, unit == culprit || culprit == null ? e : notWritten(e));
                    }
                    break;
                }
                if (culprit == null || pending.size() == 1) {
                    pending.forEach(u -> errors.put(u, e));
                    break;
                }
                errors.put(culprit, e);
                pending.remove(culprit);
                continue;
            } catch (VersoException e) {
                pending.forEach(u -> errors.put(u, e));
                break;
            } catch (RuntimeException e) {
                log.error("GraphQL batch failed", e);
                VersoException wrapped = new VersoException.ServerError(ErrorCode.INTERNAL_ERROR, "internal error", e);
                pending.forEach(u -> errors.put(u, wrapped));
                break;
            }
            if (!writes) {
                state.servedAt(result.readCommit());
                state.readUnder(result.catalogVersion());
            }
            int next = 0;
            for (int u = 0; u < pending.size(); u++) {
                Job unit = pending.get(u);
                List<StatementResult> mine = statements.isEmpty() ? List.of()
                        : result.results().subList(next, next + counts.get(u));
                next += counts.get(u);
                try {
                    values.put(unit, unit.complete(mine, result));
                } catch (RuntimeException e) {
                    errors.put(unit, e);
                }
            }
            break;
        }
        List<Outcome> out = new ArrayList<>(jobs.size());
        for (Job job : jobs) {
            out.add(outcome(job, nested, values, errors));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Outcome outcome(Job job, Map<String, NestedHistoryBatch> nested, Map<Job, Object> values,
                                   Map<Job, RuntimeException> errors) {
        Job unit = job instanceof NestedHistoryJob n ? nested.get(n.batchKey()) : job;
        if (errors.containsKey(unit)) {
            return Outcome.failed(errors.get(unit));
        }
        if (job instanceof NestedHistoryJob n) {
            Map<String, List<Row>> byKey = (Map<String, List<Row>>) values.get(unit);
            return Outcome.of(byKey.getOrDefault(NestedHistoryBatch.keyOf(n.table, n.parent), List.of()));
        }
        return Outcome.of(values.get(unit));
    }

    /** The unit whose statements were built at the origin numbered {@code origin}, or null when unknown. */
    private static Job culprit(List<Job> units, List<int[]> origins, int origin) {
        if (origin < 0) {
            return units.size() == 1 ? units.get(0) : null;
        }
        for (int i = 0; i < units.size(); i++) {
            if (origin >= origins.get(i)[0] && origin < origins.get(i)[1]) {
                return units.get(i);
            }
        }
        return null;
    }

    private static VersoException notWritten(VersoException.UserError cause) {
        return new VersoException.UserError(cause.code(), "nothing was written: another mutation field of this "
                + "request failed (" + cause.getMessage() + ")", null);
    }
}
