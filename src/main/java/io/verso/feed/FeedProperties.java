package io.verso.feed;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code verso.feed.*}: how many live change streams (SSE and GraphQL subscriptions together) an instance
 * keeps, and how it treats them once open.
 *
 * @param maxStreams          streams open at once on this instance; one more is {@code 503 OVERLOADED} with
 *                            Retry-After
 * @param maxStreamsPerCaller streams one principal may hold open at once; one more is {@code 429 RATE_LIMITED}
 *                            with Retry-After
 * @param maxPending          commits a stream may have waiting to be sent; a consumer that falls further behind
 *                            is ended with {@code OVERLOADED} (it resumes after the last event it received)
 * @param checkInterval       how often every open stream's credential and SELECT grant are checked again while no
 *                            commit arrives (each delivery checks them too): the bound on how long a revoked key,
 *                            an expired token, a dropped grant or a deleted role keeps a stream open
 */
@ConfigurationProperties("verso.feed")
public record FeedProperties(@DefaultValue("1000") int maxStreams,
                             @DefaultValue("100") int maxStreamsPerCaller,
                             @DefaultValue("256") int maxPending,
                             @DefaultValue("1s") Duration checkInterval) {
}
