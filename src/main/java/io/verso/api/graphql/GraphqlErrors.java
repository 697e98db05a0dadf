package io.verso.api.graphql;

import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.schema.DataFetchingEnvironment;
import io.verso.error.ErrorCode;
import io.verso.error.Origin;
import io.verso.error.VersoException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.graphql.execution.DataFetcherExceptionResolver;
import org.springframework.graphql.execution.ErrorType;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The one place a {@link VersoException} becomes a GraphQL error: the message, and in
 * {@code extensions} the same {@code code} REST puts in its problem details (an
 * {@link io.verso.error.ErrorCode} name, which clients branch on), the HTTP {@code status} REST
 * would have used, the {@code classification} and, for a refused argument, its name.
 */
@Component
class GraphqlErrors implements DataFetcherExceptionResolver {

    private static final Logger log = LoggerFactory.getLogger(GraphqlErrors.class);

    @Override
    public Mono<List<GraphQLError>> resolveException(Throwable exception, DataFetchingEnvironment env) {
        Throwable e = exception;
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        if (e instanceof org.springframework.dao.DataAccessException
                || e instanceof org.springframework.transaction.TransactionException) {
            e = io.verso.engine.PgErrors.translate((RuntimeException) e);
        }
        if (!(e instanceof VersoException verso)) {
            return Mono.empty();
        }
        if (verso instanceof VersoException.ServerError) {
            log.error("GraphQL field {} failed: {}", env.getExecutionStepInfo().getPath(), verso.getMessage(), verso);
        }
        Map<String, Object> extensions = extensions(verso.code());
        if (verso instanceof VersoException.UserError user && user.origin() instanceof Origin.Argument argument) {
            extensions.put("argument", argument.path());
        }
        return Mono.just(List.of(GraphqlErrorBuilder.newError(env).errorType(classify(verso)).message(verso.getMessage())
                .extensions(extensions).build()));
    }

    /** What every refusal carries in its extensions, whichever stage refused: code, status, category. */
    static Map<String, Object> extensions(ErrorCode code) {
        Map<String, Object> extensions = new LinkedHashMap<>();
        extensions.put("code", code.name());
        extensions.put("status", code.status());
        extensions.put("category", code.category().name());
        return extensions;
    }

    private static ErrorType classify(VersoException e) {
        return switch (e.code().category()) {
            case BAD_INPUT, CONFLICT -> ErrorType.BAD_REQUEST;
            case NOT_FOUND -> ErrorType.NOT_FOUND;
            case UNAUTHENTICATED -> ErrorType.UNAUTHORIZED;
            case FORBIDDEN -> ErrorType.FORBIDDEN;
            case UNAVAILABLE, INTERNAL -> ErrorType.INTERNAL_ERROR;
        };
    }
}
