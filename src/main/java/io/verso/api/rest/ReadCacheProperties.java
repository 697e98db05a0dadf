package io.verso.api.rest;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code verso.read-cache.*}: the in-process cache of answers pinned to a commit ({@link PinnedAnswers}).
 *
 * @param maxBytes the answers' bodies kept together, with a small allowance per entry for its key; 0 keeps none
 */
@ConfigurationProperties("verso.read-cache")
public record ReadCacheProperties(@DefaultValue("32MB") DataSize maxBytes) {
}
