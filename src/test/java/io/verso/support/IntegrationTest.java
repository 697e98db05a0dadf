package io.verso.support;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestContextManager;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The one application context every integration test shares: the whole service on a random port
 * over real HTTP, on a real PostgreSQL. Extend this rather than annotating test classes afresh, so
 * the suite starts Spring once. Tests share the database: each creates its own tables, named by
 * {@link #table(String)}, and never assumes absolute commit numbers.
 */
// The retention job is driven by RetentionJobTests itself: on its own schedule it would make commits
// in the middle of tests that assert nothing was committed.
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "verso.retention.check-interval=365d")
public abstract class IntegrationTest {

    static {
        TestDatabase.ensure();
        TestSecurity.ensure();
    }

    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final String RUN = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

    @LocalServerPort
    protected int port;

    protected SqlClient sql;

    @BeforeEach
    void client() {
        sql = new SqlClient(port);
    }

    /**
     * The shared context, for a test that cannot extend this class (a jqwik property, which Spring's JUnit
     * extension does not reach) and names a subclass of it for the same configuration: being a method of
     * this class, it runs the database and security set-up above first, as a test class alone in the JVM
     * needs (without it, the context started with no security and refused to start).
     */
    public static ApplicationContext sharedContext(Class<? extends IntegrationTest> test) {
        return new TestContextManager(test).getTestContext().getApplicationContext();
    }

    /** A table name no other test (or earlier run on the same database) uses. */
    protected static String table(String prefix) {
        return prefix + "_" + RUN + "_" + TABLES.incrementAndGet();
    }
}
