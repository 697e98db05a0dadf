package io.verso.security;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code verso.admission.*}: how many requests of each class run at once, and how fast one caller may send
 * them. A request that finds its class full waits at most the class's {@code wait}, then gets 503
 * OVERLOADED with Retry-After; never the pool's long queue.
 *
 * @param enabled          off: every request runs (still bounded by the connection pool's wait)
 * @param lightConcurrency light requests at once (one-key reads, small REST writes, catalog and commit
 *                         look-ups); 0: four times the connection pool
 * @param heavyConcurrency heavy requests at once (arbitrary reads: {@code /v1/sql} other than one-key reads and
 *                         small writes, {@code /graphql}, REST row lists, history, diffs, change pages); 0: the
 *                         pool's size minus {@code lightReserve}
 *                         and {@code largeConcurrency}
 * @param lightReserve     connections of the pool kept for light requests when heavy's concurrency is derived
 * @param largeConcurrency requests at once whose body is over {@code largeBodyBytes} (or of unannounced
 *                         length), whatever their path: each holds its body in memory while it runs
 * @param largeBodyBytes   from which size a body makes a request large
 * @param lightSqlBytes    largest {@code /v1/sql} body classed by its statements (one-key reads and small
 *                         writes light, the rest heavy: {@code analyze.Weight}); a larger one is heavy
 * @param maxWait          longest a request waits for a place in its class before 503 OVERLOADED; a heavy or
 *                         large one waits only while request threads are left to it beyond its class's places
 *                         and the light reserve (none when there are as many threads as connections)
 * @param rateLimit        requests per second per caller (principal; address when security is off)
 */
@ConfigurationProperties("verso.admission")
public record AdmissionProperties(@DefaultValue("true") boolean enabled,
                                  @DefaultValue("0") int lightConcurrency,
                                  @DefaultValue("0") int heavyConcurrency,
                                  @DefaultValue("3") int lightReserve,
                                  @DefaultValue("2") int largeConcurrency,
                                  @DefaultValue("1MB") DataSize largeBodyBytes,
                                  @DefaultValue("64KB") DataSize lightSqlBytes,
                                  @DefaultValue("2s") Duration maxWait,
                                  @DefaultValue RateLimit rateLimit) {

    /**
     * @param requestsPerSecond sustained rate per caller; 0 turns the limit off (the default)
     * @param burst             requests a caller may send at once above the rate (0: one second's worth)
     */
    public record RateLimit(@DefaultValue("0") double requestsPerSecond, @DefaultValue("0") int burst) {
    }
}
