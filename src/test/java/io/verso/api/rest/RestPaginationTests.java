package io.verso.api.rest;

import static io.verso.support.RestClient.expect;
import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.RestClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A cursor keeps serving the commit of its first page: paging during writes neither skips nor repeats. */
class RestPaginationTests extends IntegrationTest {

    @Test
    void pagesDuringConcurrentWritesShowExactlyTheFirstPagesCommit() throws Exception {
        RestClient rest = new RestClient(port);
        String t = table("paged");
        expect(rest.json(Map.of("name", t, "mode", "VERSIONED", "primaryKey", List.of("k"), "validBy", List.of("ix"),
                "columns", List.of(Map.of("name", "k", "type", "INT"), Map.of("name", "v", "type", "BIGINT"),
                        Map.of("name", "ix", "type", "INT")))).post("/v1/tables"), 201);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int k = 0; k < 200; k += 2) {
            rows.add(Map.of("k", k, "v", 0, "ix", 0));
        }
        expect(rest.json(Map.of("rows", rows)).post("/v1/tables/{t}/rows", t), 200);

        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger writes = new AtomicInteger();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Future<?> writing = writer.submit(() -> {
            RestClient w = new RestClient(port);
            for (int round = 1; !stop.get(); round++) {
                // New keys between existing ones, new values for old ones, and deletions ahead of the reader.
                int odd = 2 * (round % 100) + 1;
                expect(w.json(Map.of("rows", List.of(Map.of("k", odd, "v", round, "ix", round),
                        Map.of("k", (round * 14) % 200, "v", round, "ix", round)))).post("/v1/tables/{t}/rows", t), 200);
                expect(w.json(Map.of("keys", List.of(Map.of("k", (round * 6 + 100) % 200)), "at", Map.of("ix", round)))
                        .post("/v1/tables/{t}/rows/delete", t), 200);
                writes.incrementAndGet();
            }
            return null;
        });
        try {
            while (writes.get() < 2) {
                Thread.sleep(10);
            }
            List<String> seen = new ArrayList<>();
            String cursor = null;
            String pinned = null;
            do {
                var request = rest.request().queryParam("limit", 7);
                if (cursor != null) {
                    request.queryParam("cursor", cursor);
                }
                JsonNode page = expect(request.get("/v1/tables/{t}/rows", t), 200);
                if (pinned == null) {
                    pinned = page.get("readCommit").asString();
                }
                assertThat(page.get("readCommit").asString()).isEqualTo(pinned);
                page.get("rows").forEach(r -> seen.add(r.toString()));
                cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asString();
                Thread.sleep(5);
            } while (cursor != null);
            stop.set(true);
            writing.get();
            assertThat(writes.get()).as("writes ran while paging").isGreaterThan(2);

            JsonNode whole = expect(rest.request().queryParam("limit", 1000).queryParam("asOfCommit", pinned)
                    .get("/v1/tables/{t}/rows", t), 200);
            List<String> expected = new ArrayList<>();
            whole.get("rows").forEach(r -> expected.add(r.toString()));
            assertThat(seen).containsExactlyElementsOf(expected);
            JsonNode now = expect(rest.request().queryParam("limit", 1000).get("/v1/tables/{t}/rows", t), 200);
            assertThat(now.get("rows").toString()).isNotEqualTo(whole.get("rows").toString());
        } finally {
            stop.set(true);
            writer.shutdown();
        }
    }
}
