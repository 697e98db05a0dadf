package io.verso.api.rest;

import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import io.verso.error.VersoException;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Where a controller's failure, and Spring MVC's own refusals, become the service's {@link Problem}: logged by
 * kind, with Retry-After where a retry may succeed.
 */
@RestControllerAdvice
class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    @ExceptionHandler(VersoException.class)
    ResponseEntity<Object> verso(VersoException e, HttpServletRequest request) {
        if (e instanceof VersoException.ServerError && e.code().category() == ErrorCode.Category.UNAVAILABLE) {
            // Overload and an absent database are conditions, not faults: a stack per refused request would
            // flood the log exactly when the service is busiest.
            log.warn("request refused: {} {}", e.code(), e.getMessage());
        } else if (e instanceof VersoException.ServerError) {
            log.error("request failed: {}", e.getMessage(), e);
        }
        HttpHeaders headers = new HttpHeaders();
        if (e.code().status() == 503 || e.code() == ErrorCode.RATE_LIMITED) {
            // Database away, overload, timeout, a caller at its limit: worth retrying, after a pause.
            headers.set(HttpHeaders.RETRY_AFTER, "1");
        }
        return answer(Problem.of(e).at(request.getRequestURI()), headers);
    }

    /** The database failing outside the engine (commit log, catalog look-ups, idempotency records). */
    @ExceptionHandler({org.springframework.dao.DataAccessException.class,
            org.springframework.transaction.TransactionException.class})
    ResponseEntity<Object> database(RuntimeException e, HttpServletRequest request) {
        return verso(io.verso.engine.PgErrors.translate(e), request);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception e, HttpServletRequest request) {
        log.error("unexpected failure", e);
        return verso(new VersoException.ServerError(ErrorCode.INTERNAL_ERROR, "internal error", e), request);
    }

    /** Spring MVC's own exceptions (unreadable body, wrong method or media type, unknown path). */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
                                                             HttpStatusCode statusCode, WebRequest request) {
        String path = request instanceof ServletWebRequest servlet ? servlet.getRequest().getRequestURI() : null;
        Problem problem;
        if (ex instanceof HttpRequestMethodNotSupportedException refused) {
            // The same words as a 405 Tomcat answers itself (security.ProblemErrorReportValve).
            problem = Problem.notAllowed(refused.getMethod(), path, refused.getSupportedMethods() == null ? null
                    : String.join(", ", refused.getSupportedMethods()));
        } else if (ex instanceof HttpMediaTypeNotSupportedException media) {
            // The same words as a 415 of the GraphQL route (security.ProblemErrorReportValve).
            problem = Problem.unsupportedMediaType(media.getContentType() == null ? null
                    : media.getContentType().toString(), MediaType.toString(media.getSupportedMediaTypes()));
        } else {
            ProblemDetail spring = body instanceof ProblemDetail p ? p
                    : ex instanceof ErrorResponse er ? er.getBody() : null;
            String pointer = ex instanceof MissingServletRequestParameterException missing ? missing.getParameterName()
                    : ex instanceof MethodArgumentTypeMismatchException mismatch ? mismatch.getName()
                    : ex instanceof HttpMessageNotReadableException ? "/" : null;
            problem = Problem.ofStatus(statusCode.value(), spring == null ? null : spring.getDetail(), pointer);
        }
        return answer(problem.at(path), headers);
    }

    /** The problem's own JSON, whatever the request's Accept header asked for. */
    private static ResponseEntity<Object> answer(Problem problem, HttpHeaders headers) {
        return ResponseEntity.status(problem.status()).headers(headers)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem.json());
    }
}
