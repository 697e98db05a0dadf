package io.verso.security;

import io.verso.error.VersoException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.unit.DataSize;

/**
 * Admission classes and the per-caller rate limit, on the filter itself (the abuse test,
 * io.verso.faults.AbuseTests, drives them over HTTP under load).
 */
class AdmissionTests {

    private static AdmissionProperties properties(int heavy, double rate) {
        return new AdmissionProperties(true, 0, heavy, 3, 1, DataSize.ofMegabytes(1), DataSize.ofKilobytes(64),
                Duration.ofMillis(200),
                new AdmissionProperties.RateLimit(rate, 2));
    }

    private static MockHttpServletRequest request(String method, String path, int bodyBytes) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, path);
        if (bodyBytes > 0) {
            request.setContent(new byte[bodyBytes]);
        }
        return request;
    }

    @Test
    void requestsAreClassedLightHeavyOrLarge() {
        long large = DataSize.ofMegabytes(1).toBytes();
        assertThat(AdmissionFilter.classify(request("GET", "/v1/tables/t/row", 0), large))
                .isEqualTo(AdmissionFilter.Kind.LIGHT);
        assertThat(AdmissionFilter.classify(request("POST", "/v1/tables/t/rows", 100), large))
                .isEqualTo(AdmissionFilter.Kind.LIGHT);
        assertThat(AdmissionFilter.classify(request("GET", "/v1/tables/t/rows", 0), large))
                .isEqualTo(AdmissionFilter.Kind.HEAVY);
        assertThat(AdmissionFilter.classify(request("POST", "/v1/sql", 100), large)).isEqualTo(AdmissionFilter.Kind.HEAVY);
        assertThat(AdmissionFilter.classify(request("POST", "/graphql", 100), large)).isEqualTo(AdmissionFilter.Kind.HEAVY);
        // It waits for the build of a derived table over its sources' history.
        assertThat(AdmissionFilter.classify(request("POST", "/v1/derived-tables", 100), large))
                .isEqualTo(AdmissionFilter.Kind.HEAVY);
        assertThat(AdmissionFilter.classify(request("POST", "/v1/tables/t/rows", 2 << 20), large))
                .isEqualTo(AdmissionFilter.Kind.LARGE);
    }

    @Test
    void theReadsThatMayReturnManyRowsAreHeavyWhateverTheirTableIsCalled() {
        java.util.regex.Pattern heavy = java.util.regex.Pattern.compile("/v1/tables/[^/]+/(rows|history|diff|changes)/?");
        for (String path : List.of("/v1/tables/t/rows", "/v1/tables/t/rows/", "/v1/tables/rows/history",
                "/v1/tables/t/diff", "/v1/tables/t/changes", "/v1/tables/t/row", "/v1/tables/t/rowsx",
                "/v1/tables//rows", "/v1/tables/t/rows//", "/v1/tables/t/x/rows", "/v1/tables/t/", "/v1/tables/t",
                "/v1/tables/", "/v1/tables/t/history/x", "/v2/tables/t/rows", "/v1/tables/a.b/diff", "/v1/tables/t//")) {
            assertThat(AdmissionFilter.heavyRead(path)).as(path).isEqualTo(heavy.matcher(path).matches());
        }
    }

    @Test
    void smallSqlRequestsAreClassedByTheirStatements() {
        long light = DataSize.ofKilobytes(64).toBytes();
        assertThat(AdmissionFilter.byStatements(request("POST", "/v1/sql", 100), light)).isTrue();
        assertThat(AdmissionFilter.byStatements(request("POST", "/v1/sql", 100 << 10), light)).isFalse();
        assertThat(AdmissionFilter.byStatements(request("POST", "/graphql", 100), light)).isFalse();
        assertThat(AdmissionFilter.byStatements(request("POST", "/v1/tables/t/rows", 100), light)).isFalse();
    }

    @Test
    void aSqlRequestTakesTheClassItsStatementsSayWhileHeavyIsFull() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AdmissionFilter filter = new AdmissionFilter(properties(1, 0), new MockEnvironment(), registry);
        filter.places(AdmissionFilter.Kind.HEAVY).acquire();
        try {
            MockHttpServletResponse light = new MockHttpServletResponse();
            filter.doFilter(request("POST", "/v1/sql", 10), light, (rq, rs) -> {
                Admission.admit(() -> true);
                assertThat(filter.places(AdmissionFilter.Kind.LIGHT).availablePermits()).isEqualTo(4 * 10 - 1);
                ((MockHttpServletResponse) rs).setStatus(200);
            });
            assertThat(light.getStatus()).isEqualTo(200);
            assertThat(filter.places(AdmissionFilter.Kind.LIGHT).availablePermits()).as("given back").isEqualTo(4 * 10);
            long started = System.nanoTime();
            assertThatThrownBy(() -> filter.doFilter(request("POST", "/v1/sql", 10), new MockHttpServletResponse(),
                    (rq, rs) -> Admission.admit(() -> false)))
                    .isInstanceOfSatisfying(io.verso.error.VersoException.class,
                            e -> assertThat(e.code()).isEqualTo(io.verso.error.ErrorCode.OVERLOADED))
                    .hasMessageContaining("heavy-concurrency");
            assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(2_000);
            assertThat(registry.get("verso.admission.rejections").tag("limit", "heavy").counter().count()).isEqualTo(1);
        } finally {
            filter.places(AdmissionFilter.Kind.HEAVY).release();
        }
        // Outside a /v1/sql request, asking is a no-op.
        Admission.admit(() -> false);
    }

    @Test
    void aFullClassAnswers503AtOnceAndOtherClassesStillRun() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AdmissionFilter filter = new AdmissionFilter(properties(1, 0), new MockEnvironment(), registry);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread heavy = new Thread(() -> {
            try {
                filter.doFilter(request("POST", "/graphql", 10), new MockHttpServletResponse(), (rq, rs) -> {
                    running.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        heavy.start();
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        MockHttpServletResponse second = new MockHttpServletResponse();
        long started = System.nanoTime();
        filter.doFilter(request("POST", "/graphql", 10), second, (rq, rs) -> { });
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(2_000);
        assertThat(second.getStatus()).isEqualTo(503);
        assertThat(second.getContentAsString()).contains("OVERLOADED").contains("heavy-concurrency");
        assertThat(second.getHeader("Retry-After")).isEqualTo("1");
        MockHttpServletResponse light = new MockHttpServletResponse();
        filter.doFilter(request("GET", "/v1/tables/t/row", 0), light, (rq, rs) -> ((MockHttpServletResponse) rs).setStatus(200));
        assertThat(light.getStatus()).isEqualTo(200);
        release.countDown();
        heavy.join();
        assertThat(registry.get("verso.admission.rejections").tag("limit", "heavy").counter().count()).isEqualTo(1);
        assertThat(registry.get("verso.admission.rejections").tag("limit", "light").counter().count()).isZero();
    }

    @Test
    void noHeaderExemptsARequestFromAdmission() throws Exception {
        // Accept: text/event-stream once skipped admission, and /v1/sql answered such requests: heavy queries sent
        // with it took every connection. Neither it nor an Upgrade header changes a request's class now.
        AdmissionFilter filter = new AdmissionFilter(properties(1, 0), new MockEnvironment(), new SimpleMeterRegistry());
        filter.places(AdmissionFilter.Kind.HEAVY).acquire();
        try {
            for (MockHttpServletRequest request : List.of(request("POST", "/v1/sql", 100 << 10),
                    request("POST", "/graphql", 10), request("GET", "/v1/tables/t/changes", 0),
                    request("GET", "/v1/tables/t/rows", 0))) {
                for (String[] header : List.of(new String[] {"Accept", "text/event-stream"},
                        new String[] {"Accept", "application/json, text/event-stream"},
                        new String[] {"Upgrade", "websocket"})) {
                    request.addHeader(header[0], header[1]);
                    MockHttpServletResponse response = new MockHttpServletResponse();
                    boolean[] ran = new boolean[1];
                    filter.doFilter(request, response, (rq, rs) -> ran[0] = true);
                    assertThat(ran[0]).as(request.getRequestURI() + " with " + header[0]).isFalse();
                    assertThat(response.getStatus()).isEqualTo(503);
                    assertThat(response.getContentAsString()).contains("OVERLOADED");
                    assertThat(response.getHeader("Retry-After")).isEqualTo("1");
                }
            }
        } finally {
            filter.places(AdmissionFilter.Kind.HEAVY).release();
        }
    }

    @Test
    void heavyRequestsWaitOnlyOnRequestThreadsLeftBeyondTheirPlacesAndTheLightReserve() throws Exception {
        // Six request threads: one heavy place, one large place and three kept for light requests leave one.
        MockEnvironment environment = new MockEnvironment().withProperty("server.tomcat.threads.max", "6");
        AdmissionProperties patient = new AdmissionProperties(true, 0, 1, 3, 1, DataSize.ofMegabytes(1),
                DataSize.ofKilobytes(64), Duration.ofSeconds(20), new AdmissionProperties.RateLimit(0, 0));
        AdmissionFilter filter = new AdmissionFilter(patient, environment, new SimpleMeterRegistry());
        filter.places(AdmissionFilter.Kind.HEAVY).acquire();
        MockHttpServletResponse waited = new MockHttpServletResponse();
        Thread waiter = new Thread(() -> {
            try {
                filter.doFilter(request("POST", "/graphql", 10), waited, (rq, rs) -> ((MockHttpServletResponse) rs).setStatus(200));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            waiter.start();
            for (int i = 0; i < 1000 && !filter.places(AdmissionFilter.Kind.HEAVY).hasQueuedThreads(); i++) {
                Thread.sleep(10);
            }
            assertThat(filter.places(AdmissionFilter.Kind.HEAVY).hasQueuedThreads()).as("the first one waits").isTrue();
            MockHttpServletResponse refused = new MockHttpServletResponse();
            long started = System.nanoTime();
            filter.doFilter(request("POST", "/graphql", 10), refused, (rq, rs) -> { });
            assertThat((System.nanoTime() - started) / 1_000_000).as("refused at once").isLessThan(10_000);
            assertThat(refused.getStatus()).isEqualTo(503);
            assertThat(refused.getContentAsString()).contains("OVERLOADED");
        } finally {
            filter.places(AdmissionFilter.Kind.HEAVY).release();
        }
        waiter.join(20_000);
        assertThat(waited.getStatus()).as("the waiter ran once the place was free").isEqualTo(200);
    }

    @Test
    void theFrontDoorIsAdmittedAndRefusedAsTheFilterIs() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AdmissionFilter filter = new AdmissionFilter(properties(1, 0), new MockEnvironment(), registry);
        Semaphore light = filter.places(AdmissionFilter.Kind.LIGHT);
        int size = light.availablePermits();
        Runnable leave = filter.admit(request("GET", "/v1/tables/t/row", 0), new MockHttpServletResponse());
        assertThat(leave).isNotNull();
        assertThat(light.availablePermits()).isEqualTo(size - 1);
        leave.run();
        assertThat(light.availablePermits()).isEqualTo(size);
        int held = light.drainPermits();
        try {
            MockHttpServletResponse door = new MockHttpServletResponse();
            assertThat(filter.admit(request("GET", "/v1/tables/t/row", 0), door)).isNull();
            MockHttpServletResponse chain = new MockHttpServletResponse();
            filter.doFilter(request("GET", "/v1/tables/t/row", 0), chain, (rq, rs) -> ((MockHttpServletResponse) rs).setStatus(200));
            assertThat(door.getStatus()).isEqualTo(chain.getStatus()).isEqualTo(503);
            assertThat(door.getHeader("Retry-After")).isEqualTo(chain.getHeader("Retry-After"));
            assertThat(door.getContentAsString()).isEqualTo(chain.getContentAsString()).contains("OVERLOADED");
        } finally {
            light.release(held);
        }
        assertThat(registry.get("verso.admission.rejections").tag("limit", "light").counter().count()).isEqualTo(2);

        AdmissionFilter limited = new AdmissionFilter(properties(0, 1), new MockEnvironment(), registry);
        MockHttpServletResponse last = new MockHttpServletResponse();
        assertThat(limited.admit(request("GET", "/v1/tables/t/row", 0), new MockHttpServletResponse())).isNotNull();
        assertThat(limited.admit(request("GET", "/v1/tables/t/row", 0), new MockHttpServletResponse())).isNotNull();
        assertThat(limited.admit(request("GET", "/v1/tables/t/row", 0), last)).isNull();
        assertThat(last.getStatus()).isEqualTo(429);
        assertThat(last.getContentAsString()).contains("RATE_LIMITED");
    }

    @Test
    void aCallerOverItsRateGets429WithRetryAfter() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AdmissionFilter filter = new AdmissionFilter(properties(0, 1), new MockEnvironment(), registry);
        int[] statuses = new int[3];
        MockHttpServletResponse last = null;
        for (int i = 0; i < 3; i++) {
            last = new MockHttpServletResponse();
            filter.doFilter(request("GET", "/v1/tables/t/row", 0), last, (rq, rs) -> ((MockHttpServletResponse) rs).setStatus(200));
            statuses[i] = last.getStatus();
        }
        // A burst of two, then one a second.
        assertThat(statuses).containsExactly(200, 200, 429);
        assertThat(last.getContentAsString()).contains("RATE_LIMITED");
        assertThat(last.getHeader("Retry-After")).isEqualTo("1");
        assertThat(registry.get("verso.admission.rejections").tag("limit", "rate").counter().count()).isEqualTo(1);
    }

    @Test
    void aRequestOutsideHttpIsHeldToTheSameRateByCaller() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AdmissionFilter filter = new AdmissionFilter(properties(0, 1), new MockEnvironment(), registry);
        // PostgreSQL-protocol requests (StatementAdmission) with security off, so the address is the caller:
        // a burst of two, then refused, as over HTTP.
        assertThat(admit(filter, "10.0.0.7")).isEqualTo("ran");
        assertThat(admit(filter, "10.0.0.7")).isEqualTo("ran");
        VersoException refused = org.junit.jupiter.api.Assertions.assertThrows(VersoException.class,
                () -> admit(filter, "10.0.0.7"));
        assertThat(refused.code()).isEqualTo(io.verso.error.ErrorCode.RATE_LIMITED);
        // Another address is another caller.
        assertThat(admit(filter, "10.0.0.8")).isEqualTo("ran");
        assertThat(registry.get("verso.admission.rejections").tag("limit", "rate").counter().count()).isEqualTo(1);
    }

    private static String admit(AdmissionFilter filter, String address) {
        return Caller.as(VersoPrincipal.SYSTEM, () -> filter.admitStatements(10, address, () -> "ran"));
    }
}
