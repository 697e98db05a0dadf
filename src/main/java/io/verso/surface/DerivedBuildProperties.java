package io.verso.surface;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Derived tables created over REST ({@code verso.derived-builds.*}).
 *
 * @param defaultWait how long POST /v1/derived-tables waits for the build before answering 202 with a
 *                status resource, unless the client's {@code Prefer} header says otherwise
 * @param maxWait the longest wait a client may ask for ({@code Prefer: wait=n})
 * @param threads builds that run at once; each holds a database connection (and, while it writes,
 *                the commit lock, so builds and writes take turns)
 * @param queue   builds that may wait for a thread; beyond that a request is refused with 503 OVERLOADED
 */
@ConfigurationProperties("verso.derived-builds")
public record DerivedBuildProperties(@DefaultValue("2s") Duration defaultWait,
                                     @DefaultValue("60s") Duration maxWait,
                                     @DefaultValue("2") int threads,
                                     @DefaultValue("16") int queue) {
}
