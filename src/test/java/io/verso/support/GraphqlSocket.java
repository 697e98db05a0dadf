package io.verso.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/** A graphql-transport-ws client over the JDK's WebSocket: every message received, in order. */
public final class GraphqlSocket implements WebSocket.Listener, AutoCloseable {
    private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final StringBuilder partial = new StringBuilder();
    private WebSocket socket;

    public static GraphqlSocket open(int port, Map<String, String> headers, Map<String, Object> initPayload) throws Exception {
        GraphqlSocket s = new GraphqlSocket();
        WebSocket.Builder builder = HTTP.newWebSocketBuilder().subprotocols("graphql-transport-ws");
        headers.forEach(builder::header);
        s.socket = builder.buildAsync(URI.create("ws://localhost:" + port + "/graphql-ws"), s)
                .get(10, TimeUnit.SECONDS);
        s.send(Map.of("type", "connection_init", "payload", initPayload));
        return s;
    }

    public void send(Map<String, Object> message) throws Exception {
        socket.sendText(SqlClient.JSON.writeValueAsString(message), true).get(10, TimeUnit.SECONDS);
    }

    public void subscribe(String id, String table, long after) throws Exception {
        send(Map.of("id", id, "type", "subscribe", "payload", Map.of("query", "subscription($after: BigInt) { "
                + table + "_changes(after: $after) { commit changes { commit op key row before } } }",
                "variables", Map.of("after", Long.toString(after)))));
    }

    /** Subscribes {@code id} to a subscription document of its own. */
    public void subscribe(String id, String document) throws Exception {
        send(Map.of("id", id, "type", "subscribe", "payload", Map.of("query", document)));
    }

    /** The status the server closed the socket with. */
    public CompletableFuture<Integer> closed() {
        return closed;
    }

    public JsonNode next() throws InterruptedException {
        JsonNode message = messages.poll(20, TimeUnit.SECONDS);
        assertThat(message).as("a message within 20 s").isNotNull();
        return message;
    }

    /** The messages received and not taken yet. */
    public java.util.List<JsonNode> pending() {
        java.util.List<JsonNode> out = new java.util.ArrayList<>();
        messages.drainTo(out);
        return out;
    }

    /** The next event of subscription {@code id}: its {@code <table>_changes} value. */
    public JsonNode data(String id, String table) throws InterruptedException {
        JsonNode message = next();
        assertThat(message.get("type").asString()).as(message.toString()).isEqualTo("next");
        assertThat(message.get("id").asString()).isEqualTo(id);
        return message.get("payload").get("data").get(table + "_changes");
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            messages.add(SqlClient.JSON.readTree(partial.toString()));
            partial.setLength(0);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(statusCode);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed.completeExceptionally(error);
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        }
        socket.abort();
    }
}
