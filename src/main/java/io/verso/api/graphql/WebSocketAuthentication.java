package io.verso.api.graphql;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Caller;
import io.verso.security.Credentials;
import io.verso.security.VersoPrincipal;
import java.util.Map;
import org.springframework.graphql.server.WebGraphQlRequest;
import org.springframework.graphql.server.WebGraphQlResponse;
import org.springframework.graphql.server.WebSocketGraphQlInterceptor;
import org.springframework.graphql.server.WebSocketGraphQlRequest;
import org.springframework.graphql.server.WebSocketSessionInfo;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * Who a GraphQL WebSocket session (graphql-ws, {@code spring.graphql.websocket.path}) acts for.
 * Either the handshake carried credentials (X-API-Key or Authorization, checked by the HTTP filters
 * like any request), or the {@code connection_init} payload does, as browsers must:
 * {@code {"X-API-Key": "vk_…"}} or {@code {"Authorization": "Bearer <JWT or key>"}}. With neither,
 * or with credentials that do not hold, the session is closed (4401) before any operation. Every
 * operation of the session then runs for that principal: its schema, its reads and its streams.
 */
@Component
class WebSocketAuthentication implements WebSocketGraphQlInterceptor {

    private final Credentials credentials;

    WebSocketAuthentication(Credentials credentials) {
        this.credentials = credentials;
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
        request.configureExecutionInput((input, builder) ->
                builder.graphQLContext(Map.of(FeedSubscriptions.PRINCIPAL, principal)).build());
        Context security = Context.of(SecurityContext.class.getName(), Credentials.context(principal));
        // Subscribed here, for the principal: the schema is chosen per caller when execution starts.
        return Mono.fromFuture(Caller.as(principal, () -> chain.next(request).contextWrite(security).toFuture()));
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
