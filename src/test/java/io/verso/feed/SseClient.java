package io.verso.feed;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A minimal text/event-stream client for tests: events land in a queue; {@link #close()} drops the connection. */
final class SseClient implements AutoCloseable {

    record Event(String id, String name, String data, long receivedNanos) {
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final int status;
    final java.net.http.HttpHeaders headers;
    /** Counted down when the server ends the response. */
    final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);
    private final InputStream body;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Thread reader;

    SseClient(int port, String table, String lastEventId) throws Exception {
        this(port, table, "", lastEventId);
    }

    /** {@code query}: the URL's query string ({@code ?after=0}), or empty. */
    SseClient(int port, String table, String query, String lastEventId) throws Exception {
        this(port, table, query, lastEventId, io.verso.support.TestSecurity.HEADER, io.verso.support.TestSecurity.ADMIN_KEY);
    }

    /** As the caller {@code credentials} name (header, value, ...). */
    SseClient(int port, String table, String query, String lastEventId, String... credentials) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/tables/"
                + table + "/changes" + query)).header("Accept", "text/event-stream");
        for (int i = 0; i < credentials.length; i += 2) {
            request.header(credentials[i], credentials[i + 1]);
        }
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        status = response.statusCode();
        headers = response.headers();
        body = response.body();
        reader = new Thread(this::read, "sse-test-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String id = null;
            String name = null;
            StringBuilder data = new StringBuilder();
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isEmpty()) {
                    if (data.length() > 0) {
                        events.add(new Event(id, name, data.toString(), System.nanoTime()));
                    }
                    id = null;
                    name = null;
                    data.setLength(0);
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).trim();
                } else if (line.startsWith("event:")) {
                    name = line.substring(6).trim();
                } else if (line.startsWith("data:")) {
                    data.append(line.substring(5));
                }
            }
        } catch (Exception closed) {
            // The test dropped the connection.
        } finally {
            ended.countDown();
        }
    }

    Event next(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws Exception {
        body.close();
        reader.interrupt();
    }
}
