package io.verso.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.verso.engine.EngineObserver;
import io.verso.error.ErrorCode;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * The engine's requests as Micrometer meters, scraped at /actuator/prometheus:
 * {@code verso_commits_seconds} (count and latency of writing requests, up to PostgreSQL's commit),
 * {@code verso_commit_rows} (rows written per commit), {@code verso_reads_seconds{as_of}} (read-only
 * requests, split by whether a statement read at a past commit) and
 * {@code verso_statement_errors_total{code}} (failed requests by error code).
 */
@Component
class EngineMetrics implements EngineObserver {

    private final MeterRegistry registry;
    private final Timer commits;
    private final DistributionSummary commitRows;
    private final Timer currentReads;
    private final Timer asOfReads;

    EngineMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.commits = Timer.builder("verso.commits")
                .description("Requests that made a commit, from parse to PostgreSQL commit")
                .publishPercentileHistogram()
                .register(registry);
        this.commitRows = DistributionSummary.builder("verso.commit.rows")
                .description("Rows written by one commit")
                .baseUnit("rows")
                .register(registry);
        this.currentReads = reads(registry, false);
        this.asOfReads = reads(registry, true);
    }

    private static Timer reads(MeterRegistry registry, boolean asOf) {
        return Timer.builder("verso.reads")
                .description("Read-only requests; as_of=true when a statement read at a fixed commit")
                .tag("as_of", Boolean.toString(asOf))
                .publishPercentileHistogram()
                .register(registry);
    }

    @Override
    public void commit(long commit, long rows, Duration elapsed) {
        commits.record(elapsed);
        commitRows.record(rows);
    }

    @Override
    public void read(boolean asOf, Duration elapsed) {
        (asOf ? asOfReads : currentReads).record(elapsed);
    }

    @Override
    public void error(ErrorCode code) {
        // Meters are cached by name and tags: after the first error of a code this is a map lookup.
        Counter.builder("verso.statement.errors")
                .description("Failed requests by error code")
                .tag("code", code.name())
                .register(registry)
                .increment();
    }
}
