package io.verso.api.graphql;

import graphql.language.Document;
import graphql.language.OperationDefinition;
import graphql.parser.Parser;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.List;
import org.springframework.graphql.server.WebGraphQlInterceptor;
import org.springframework.graphql.server.WebGraphQlRequest;
import org.springframework.graphql.server.WebGraphQlResponse;
import org.springframework.graphql.server.WebSocketGraphQlRequest;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * A subscription sent as a plain POST /graphql (JSON in, JSON out) would answer its publisher's fields
 * as data: refused instead with 400 INVALID_REQUEST naming the WebSocket endpoint that serves it
 * (spring.graphql.websocket.path). Requests over that WebSocket and over server-sent events (Accept:
 * text/event-stream), which stream by nature, pass. Only a document that may hold a subscription is
 * parsed here; the rest go straight on.
 */
@Component
class SubscriptionsOverHttp implements WebGraphQlInterceptor {

    /** application.yml's spring.graphql.websocket.path. */
    static final String WEBSOCKET_PATH = "/graphql-ws";

    @Override
    public Mono<WebGraphQlResponse> intercept(WebGraphQlRequest request, Chain chain) {
        if (!(request instanceof WebSocketGraphQlRequest) && !streamed(request)
                && subscription(request.getDocument(), request.getOperationName())) {
            throw VersoException.user(ErrorCode.INVALID_REQUEST, "a subscription streams its events over the "
                    + "GraphQL WebSocket endpoint " + WEBSOCKET_PATH + " (protocol graphql-ws); a POST to /graphql "
                    + "takes queries and mutations");
        }
        return chain.next(request);
    }

    private static boolean streamed(WebGraphQlRequest request) {
        // Named exactly: */* (curl's default) is answered as JSON.
        return request.getHeaders().getAccept().stream().anyMatch(MediaType.TEXT_EVENT_STREAM::equalsTypeAndSubtype)
                && request.getHeaders().getAccept().stream().noneMatch(MediaType.APPLICATION_JSON::equalsTypeAndSubtype);
    }

    /** Whether the operation the request runs is a subscription; a document that does not parse is not one. */
    static boolean subscription(String document, String operationName) {
        if (document == null || !document.contains("subscription")) {
            return false;
        }
        Document parsed;
        try {
            parsed = Parser.parse(document);
        } catch (RuntimeException e) {
            return false; // a syntax error or a document over the parser's limits: graphql-java reports it
        }
        List<OperationDefinition> operations = parsed.getDefinitionsOfType(OperationDefinition.class);
        return operations.stream()
                .filter(o -> operationName == null ? operations.size() == 1 : operationName.equals(o.getName()))
                .anyMatch(o -> o.getOperation() == OperationDefinition.Operation.SUBSCRIPTION);
    }
}
