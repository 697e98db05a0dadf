package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.catalog.Catalog;
import io.verso.support.IntegrationTest;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Read-your-writes for grants: once a GRANT has committed on this instance, the next request sees it,
 * whatever other requests read meanwhile. (DerivedFeedAccessTests failed on a busy machine because a
 * request that read the grants while a GRANT was committing, or from a snapshot older than it, as a
 * lagging replica's, left the old grants cached as current for two seconds.)
 */
class GrantVisibilityTests extends IntegrationTest {

    @Autowired
    private AccessControl access;

    @Autowired
    private Catalog catalog;

    @Autowired
    private PlatformTransactionManager transactions;

    private String role;
    private long tableId;
    private VersoPrincipal reader;

    @BeforeEach
    void roleAndTable() {
        role = table("vis_role");
        String t = table("vis_t");
        sql.write("CREATE TABLE " + t + " (k INT PRIMARY KEY); CREATE ROLE " + role);
        tableId = catalog.find(t).orElseThrow().id();
        reader = new VersoPrincipal("vis", Set.of(role), false);
        assertThat(access.grants(reader).has(tableId, Privilege.SELECT)).isFalse();
    }

    private void grantSelect() {
        access.grant(false, List.of(Privilege.SELECT), List.of(tableId), List.of(role));
    }

    @Test
    void grantsReadWhileTheGrantCommitsAreNotKeptAsCurrent() {
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            grantSelect();
            // Another request reads the grants before this transaction commits: the old ones, rightly.
            assertThat(CompletableFuture.supplyAsync(() -> access.grants(reader)).join().has(tableId, Privilege.SELECT))
                    .isFalse();
        });
        assertThat(access.grants(reader).has(tableId, Privilege.SELECT)).as("the next request sees the grant").isTrue();
    }

    @Test
    void grantsReadFromASnapshotOlderThanTheGrantAreNotKept() throws Exception {
        CountDownLatch snapshotTaken = new CountDownLatch(1);
        CountDownLatch granted = new CountDownLatch(1);
        TransactionTemplate repeatable = new TransactionTemplate(transactions);
        repeatable.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        repeatable.setReadOnly(true);
        // A read whose snapshot predates the grant, as a replica's that has not replayed it yet.
        CompletableFuture<Boolean> old = CompletableFuture.supplyAsync(() -> repeatable.execute(status -> {
            sql(); // takes the snapshot
            snapshotTaken.countDown();
            await(granted);
            return access.grants(reader).has(tableId, Privilege.SELECT);
        }));
        await(snapshotTaken);
        grantSelect();
        granted.countDown();
        assertThat(old.get(30, TimeUnit.SECONDS)).isFalse();
        assertThat(access.grants(reader).has(tableId, Privilege.SELECT)).as("the next request sees the grant").isTrue();
    }

    @Autowired
    private org.springframework.jdbc.core.JdbcTemplate jdbc;

    private void sql() {
        jdbc.queryForObject("SELECT count(*) FROM verso.grants", Long.class);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
