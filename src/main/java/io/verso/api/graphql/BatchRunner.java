package io.verso.api.graphql;

import io.verso.api.graphql.ReadJobs.NestedHistoryBatch;
import io.verso.api.graphql.ReadJobs.NestedHistoryJob;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementEngine;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.SqlParser;
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
 * the writes make one commit. The statements are joined one per line, so an error's line names the
 * field that caused it: that field gets the error, and the other reads are run again without it
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
            StringBuilder text = new StringBuilder();
            List<Object> params = new ArrayList<>();
            List<int[]> lines = new ArrayList<>(); // per unit: first and last line of its statements
            List<Integer> counts = new ArrayList<>();
            Map<Job, List<Stmt>> planned = new IdentityHashMap<>();
            for (Job unit : List.copyOf(pending)) {
                try {
                    planned.put(unit, unit.statements(pinned));
                } catch (RuntimeException e) {
                    errors.put(unit, e);
                    pending.remove(unit);
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
            int line = 1;
            for (Job unit : pending) {
                List<Stmt> statements = planned.get(unit);
                int first = -1;
                for (Stmt s : statements) {
                    if (text.length() > 0) {
                        text.append(";\n");
                        line++;
                    }
                    first = first < 0 ? line : first;
                    text.append(s.text());
                    params.addAll(s.params());
                    line += (int) s.text().chars().filter(c -> c == '\n').count();
                }
                lines.add(new int[] {first, line});
                counts.add(statements.size());
            }
            ExecutionResult result;
            try {
                // Fields with no statement of their own (_commit) still need the snapshot's commit.
                engineCalls.incrementAndGet();
                result = engine.execute(SqlParser.parse(text.length() == 0 ? "SHOW TABLES" : text.toString()), params, null);
            } catch (VersoException.UserError e) {
                Job culprit = culprit(pending, lines, e.line());
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
            }
            int next = 0;
            for (int u = 0; u < pending.size(); u++) {
                Job unit = pending.get(u);
                List<StatementResult> mine = text.length() == 0 ? List.of()
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

    private static Job culprit(List<Job> units, List<int[]> lines, int line) {
        if (line <= 0) {
            return units.size() == 1 ? units.get(0) : null;
        }
        for (int i = 0; i < units.size(); i++) {
            if (line >= lines.get(i)[0] && line <= lines.get(i)[1]) {
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
