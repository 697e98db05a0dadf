package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.catalog.Catalog;
import io.verso.support.IntegrationTest;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Grants are cached for a moment; a change made here must not leave the cache with what a check read while
 * the change was still uncommitted (an open change stream, checked every second, kept reading for the cache's
 * two seconds after its grant was revoked).
 */
class GrantCacheTests extends IntegrationTest {

    @Autowired
    AccessControl access;
    @Autowired
    Catalog catalog;
    @Autowired
    PlatformTransactionManager transactions;

    @Test
    void aCheckDuringAGrantChangeDoesNotKeepTheOldGrantsOnceItCommits() throws Exception {
        String t = table("cached");
        String role = table("cachers");
        sql.run("CREATE TABLE " + t + " (k INT PRIMARY KEY) VERSIONED; CREATE ROLE " + role + "; GRANT SELECT ON TABLE "
                + t + " TO " + role);
        long id = catalog.find(t).orElseThrow().id();
        VersoPrincipal reader = new VersoPrincipal("key:" + role, Set.of(role), false);
        assertThat(access.grants(reader).has(id, Privilege.SELECT)).isTrue();
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            access.grant(true, List.of(Privilege.SELECT), List.of(id), List.of(role));
            // Another thread checks before the revocation commits: it still sees the grant, rightly.
            boolean during = CompletableFuture.supplyAsync(() -> access.grants(reader).has(id, Privilege.SELECT))
                    .orTimeout(10, TimeUnit.SECONDS).join();
            assertThat(during).isTrue();
        });
        assertThat(access.grants(reader).has(id, Privilege.SELECT)).as("right after the commit").isFalse();
    }
}
