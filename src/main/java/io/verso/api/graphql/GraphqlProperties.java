package io.verso.api.graphql;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * GraphQL limits, from {@code verso.graphql.*}.
 *
 * @param maxDepth       deepest selection a non-introspection operation may have
 * @param maxComplexity  most fields (aliases counted) one operation may select
 * @param defaultLimit   rows a list field returns when the client gives no {@code limit}
 * @param maxLimit       largest {@code limit} a list or history field accepts
 * @param maxResultRows  most rows one response may carry, over all its fields; more is an error, not a truncation
 */
@ConfigurationProperties("verso.graphql")
public record GraphqlProperties(@DefaultValue("8") int maxDepth,
                                @DefaultValue("1000") int maxComplexity,
                                @DefaultValue("100") int defaultLimit,
                                @DefaultValue("1000") int maxLimit,
                                @DefaultValue("10000") int maxResultRows) {
}
