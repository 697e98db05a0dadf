package io.verso.api.graphql;

import jakarta.websocket.Session;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.graphql.autoconfigure.GraphQlCorsProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.graphql.server.webmvc.GraphQlWebSocketHandler;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.adapter.NativeWebSocketSession;
import org.springframework.web.socket.handler.WebSocketSessionDecorator;
import org.springframework.web.socket.WebSocketSession;
import tools.jackson.databind.json.JsonMapper;

/**
 * The open GraphQL WebSocket sessions, by id, so that one whose credentials stop holding can be closed
 * ({@link WebSocketAuthentication}): Spring GraphQL hands interceptors only a session's id and attributes.
 * The handler is Boot's, as its auto-configuration builds it (path, init timeout, keep-alive, CORS), but
 * keeps this registry.
 */
@Configuration(proxyBeanMethods = false)
class SocketSessions {

    /**
     * How long Tomcat waits to send a close frame with a status other than 1000 (4401, 4400, 4408…) before it
     * drops the connection instead. Its default, 50 ms, is too short on a busy machine: the client then sees
     * 1006 (abnormal closure) and cannot tell refused credentials from a network failure.
     */
    private static final String CLOSE_SEND_TIMEOUT = "org.apache.tomcat.websocket.ABNORMAL_SESSION_CLOSE_SEND_TIMEOUT";
    private static final Long CLOSE_SEND_MILLIS = 5_000L;

    private final Map<String, WebSocketSession> open = new ConcurrentHashMap<>();

    /** Open sessions. */
    Iterable<WebSocketSession> open() {
        return open.values();
    }

    /** Closes session {@code id} with {@code status}, if it is still open. */
    void close(String id, CloseStatus status) {
        WebSocketSession session = open.remove(id);
        if (session != null) {
            try {
                session.close(status);
            } catch (IOException gone) {
                // Closed already.
            }
        }
    }

    @Bean
    GraphQlWebSocketHandler graphQlWebSocketHandler(WebGraphQlHandler handler, GraphQlProperties properties,
                                                    GraphQlCorsProperties cors, JsonMapper json) {
        Duration init = properties.getWebsocket().getConnectionInitTimeout();
        Duration keepAlive = properties.getWebsocket().getKeepAlive();
        // No CORS configuration (null) is what Boot passes too when spring.graphql.cors names no origin.
        return new Tracking(handler, new JacksonJsonHttpMessageConverter(json), init, keepAlive,
                cors.toCorsConfiguration());
    }

    private final class Tracking extends GraphQlWebSocketHandler {
        Tracking(WebGraphQlHandler handler, JacksonJsonHttpMessageConverter converter, Duration init,
                 Duration keepAlive, CorsConfiguration cors) {
            super(handler, converter, init, keepAlive, cors);
        }

        @Override
        public void afterConnectionEstablished(WebSocketSession session) {
            if (WebSocketSessionDecorator.unwrap(session) instanceof NativeWebSocketSession nativeSession
                    && nativeSession.getNativeSession() instanceof Session tomcat) {
                tomcat.getUserProperties().put(CLOSE_SEND_TIMEOUT, CLOSE_SEND_MILLIS);
            }
            open.put(session.getId(), session);
            super.afterConnectionEstablished(session);
        }

        @Override
        public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
            open.remove(session.getId());
            super.afterConnectionClosed(session, status);
        }
    }
}
