package io.verso.api.graphql;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.feed.FeedProperties;
import io.verso.security.Caller;
import io.verso.security.Credentials;
import io.verso.security.VersoPrincipal;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.graphql.server.WebGraphQlRequest;
import org.springframework.graphql.server.WebGraphQlResponse;
import org.springframework.graphql.server.WebSocketGraphQlInterceptor;
import org.springframework.graphql.server.WebSocketGraphQlRequest;
import org.springframework.graphql.server.WebSocketSessionInfo;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.stereotype.Component;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * Who a GraphQL WebSocket session (graphql-ws, {@code spring.graphql.websocket.path}) acts for.
 * Either the handshake carried credentials (X-API-Key or Authorization, checked by the HTTP filters
 * like any request), or the {@code connection_init} payload does, as browsers must:
 * {@code {"X-API-Key": "vk_…"}} or {@code {"Authorization": "Bearer <JWT or key>"}}. With neither,
 * or with credentials that do not hold, the session is closed (4401) before any operation. Every
 * operation of the session then runs for that principal: its schema, its reads and its streams.
 * <p>
 * The credentials must go on holding: each new operation checks them first, and every
 * {@code verso.feed.check-interval} (1 s) each open session is checked, so a revoked key or an expired
 * token closes the session (4401, its subscriptions with it) within that time. A dropped grant or
 * deleted role leaves the session open but ends the subscriptions on the tables it took away
 * ({@link io.verso.feed.FeedStreams}), and every later operation is checked against the grants as usual.
 */
@Component
class WebSocketAuthentication implements WebSocketGraphQlInterceptor, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WebSocketAuthentication.class);

    private final Credentials credentials;
    private final SocketSessions sessions;
    private final Duration checkInterval;
    private volatile ScheduledExecutorService watcher;

    WebSocketAuthentication(Credentials credentials, SocketSessions sessions, FeedProperties feed) {
        this.credentials = credentials;
        this.sessions = sessions;
        this.checkInterval = feed.checkInterval();
    }

    @Override
    public Mono<Object> handleConnectionInitialization(WebSocketSessionInfo session, Map<String, Object> payload) {
        String key = text(payload, "X-API-Key", "x-api-key", "apiKey");
        String authorization = text(payload, "Authorization", "authorization");
        VersoPrincipal principal;
        if (key != null || authorization != null) {
            principal = credentials.authenticate(key, authorization).orElse(null);
            if (principal == null) {
                return Mono.error(VersoException.user(ErrorCode.UNAUTHENTICATED,
                        "the connection_init credentials are not valid (unknown or revoked key, bad or expired token)"));
            }
        } else {
            principal = session.getPrincipal().mapNotNull(Credentials::of).blockOptional().orElseGet(Caller::current);
            if (credentials.required() && (principal == null || principal == Caller.NOBODY)) {
                return Mono.error(VersoException.user(ErrorCode.UNAUTHENTICATED, "credentials are required: "
                        + "an API key or bearer token on the handshake, or in the connection_init payload "
                        + "({\"X-API-Key\": …} or {\"Authorization\": \"Bearer …\"})"));
            }
        }
        session.getAttributes().put(FeedSubscriptions.PRINCIPAL, principal);
        return Mono.empty();
    }

    @Override
    public Mono<WebGraphQlResponse> intercept(WebGraphQlRequest request, Chain chain) {
        if (!(request instanceof WebSocketGraphQlRequest socket)
                || !(socket.getSessionInfo().getAttributes().get(FeedSubscriptions.PRINCIPAL)
                        instanceof VersoPrincipal principal)) {
            return chain.next(request);
        }
        if (!credentials.valid(principal)) {
            // Nothing more runs with a credential that no longer holds: the operation is not run and the session
            // closes. Closed just after the handler has subscribed to this answer, which never comes: closing it
            // under the handler (or answering an error, which it turns into a 1011 close) would lose the 4401.
            String id = socket.getSessionInfo().getId();
            CloseStatus status = closing(Credentials.invalidReason(principal));
            ScheduledExecutorService closer = watcher;
            if (closer != null) {
                closer.schedule(() -> sessions.close(id, status), 50, TimeUnit.MILLISECONDS);
            } else {
                sessions.close(id, status);
            }
            return Mono.never();
        }
        request.configureExecutionInput((input, builder) ->
                builder.graphQLContext(Map.of(FeedSubscriptions.PRINCIPAL, principal)).build());
        Context security = Context.of(SecurityContext.class.getName(), Credentials.context(principal));
        // Subscribed here, for the principal: the schema is chosen per caller when execution starts.
        return Mono.fromFuture(Caller.as(principal, () -> chain.next(request).contextWrite(security).toFuture()));
    }

    /** 4401, graphql-ws's Unauthorized, with a reason within the 123 bytes a close frame allows. */
    private static CloseStatus closing(String reason) {
        byte[] bytes = reason.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return new CloseStatus(4401, bytes.length <= 123 ? reason : "the credentials of this session no longer hold");
    }

    /** Closes every open session whose credentials stopped holding. */
    void check() {
        for (WebSocketSession session : sessions.open()) {
            if (session.getAttributes().get(FeedSubscriptions.PRINCIPAL) instanceof VersoPrincipal principal) {
                try {
                    if (!credentials.valid(principal)) {
                        sessions.close(session.getId(), closing(Credentials.invalidReason(principal)));
                    }
                } catch (RuntimeException e) {
                    // The database away: the key cannot be checked now; the next round tries again.
                    log.debug("Checking the credentials of WebSocket session {} failed: {}", session.getId(), e.toString());
                }
            }
        }
    }

    @Override
    public synchronized void start() {
        watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "verso-graphql-ws-check");
            t.setDaemon(true);
            return t;
        });
        long every = Math.max(1, checkInterval.toMillis());
        watcher.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (watcher != null) {
            watcher.shutdownNow();
            watcher = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return watcher != null;
    }

    private static String text(Map<String, Object> payload, String... names) {
        if (payload == null) {
            return null;
        }
        for (String name : names) {
            if (payload.get(name) instanceof String value && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }
}
