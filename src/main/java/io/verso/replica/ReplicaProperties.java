package io.verso.replica;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Read replicas, from {@code verso.read-replicas} (environment VERSO_READ_REPLICAS) and
 * {@code verso.replica.*}.
 *
 * @param readReplicas comma-separated JDBC URLs of hot standbys of the primary; empty: none
 * @param replica      how replicas are reached and judged
 */
@ConfigurationProperties("verso")
public record ReplicaProperties(@DefaultValue("") String readReplicas, @DefaultValue Replica replica) {

    /**
     * @param username       login on the replicas; unset: the primary's
     * @param password       password on the replicas; unset: the primary's
     * @param poolSize       connections per replica; unset: the primary pool's size
     * @param maxWait        how long a read that must see a commit a replica has not replayed yet
     *                       waits for it before going to the primary
     * @param checkInterval  how often each replica's replay position and health are checked
     * @param maxLag         replay lag beyond which a replica reports the service degraded
     * @param connectTimeout longest wait for a replica connection before the read goes to the primary
     */
    public record Replica(String username, String password, Integer poolSize,
                          @DefaultValue("100ms") Duration maxWait,
                          @DefaultValue("250ms") Duration checkInterval,
                          @DefaultValue("30s") Duration maxLag,
                          @DefaultValue("1s") Duration connectTimeout) {
    }

    /**
     * The replica URLs. A comma starts a new URL only where {@code jdbc:} follows, so a multi-host
     * URL ({@code jdbc:postgresql://a:5432,b:5432/verso}) stays one entry.
     */
    public List<String> urls() {
        return Arrays.stream(readReplicas.split(",(?=\\s*jdbc:)")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
