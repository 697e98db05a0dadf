package io.verso.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * HTTP to a service a test started itself (the fault harness, the abuse test): calls as the admin
 * ({@link TestSecurity}'s key) with JSON bodies, answers as text, each bounded by the request timeout.
 */
public final class ServiceHttp {

    private final HttpClient client;
    private final Duration requestTimeout;

    public ServiceHttp(Duration connectTimeout, Duration requestTimeout) {
        this.client = HttpClient.newBuilder().connectTimeout(connectTimeout).build();
        this.requestTimeout = requestTimeout;
    }

    /** {@code method path} on {@code base} as the admin; {@code body} (JSON) may be null. */
    public HttpResponse<String> send(String base, String method, String path, String body)
            throws IOException, InterruptedException {
        return send(base, method, path, body, Map.of());
    }

    public HttpResponse<String> send(String base, String method, String path, String body, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(requestTimeout)
                .header(TestSecurity.HEADER, TestSecurity.ADMIN_KEY)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET without credentials. */
    public HttpResponse<String> anonymous(String url) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(requestTimeout).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A {@code /v1/sql} body. */
    public static String sql(String text, Object... params) {
        return SqlClient.JSON.writeValueAsString(Map.of("sql", text, "params", List.of(params)));
    }

    /** A port free at the time of asking, for a private PostgreSQL or service. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
