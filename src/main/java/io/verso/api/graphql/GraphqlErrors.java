package io.verso.api.graphql;

import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.schema.DataFetchingEnvironment;
import io.verso.error.Problem;
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
 * The one place a {@link VersoException} becomes a GraphQL error, from the same {@link Problem} REST answers:
 * its detail as the message, and in {@code extensions} its {@code code} (an {@link io.verso.error.ErrorCode}
 * name, which clients branch on), HTTP {@code status}, position and request id, the {@code classification}
 * and, for a refused argument, its name.
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
        Problem problem = Problem.of(verso);
        return Mono.just(List.of(GraphqlErrorBuilder.newError(env).errorType(classify(verso)).message(problem.detail())
                .extensions(extensions(problem)).build()));
    }

    /**
     * What a refusal carries in its extensions, whichever stage refused: the code, status, position and request id
     * of its REST problem, the code's category, and the problem's pointer as {@code argument} (every input a GraphQL
     * request gives is an argument, so that is all a pointer here can name).
     */
    static Map<String, Object> extensions(Problem problem) {
        Map<String, Object> extensions = new LinkedHashMap<>();
        extensions.put("code", problem.code().name());
        extensions.put("status", problem.status());
        extensions.put("category", problem.code().category().name());
        if (problem.line() > 0) {
            extensions.put("line", problem.line());
            extensions.put("column", problem.column());
        }
        if (problem.pointer() != null) {
            extensions.put("argument", problem.pointer());
        }
        if (problem.requestId() != null) {
            extensions.put("requestId", problem.requestId());
        }
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
