package io.verso.api.rest;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.ops.RequestIdFilter;
import io.verso.security.Problems;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The one place errors become RFC 9457 problem details. Every problem carries a stable
 * {@code code}; syntax errors add {@code line} and {@code column}, input errors a {@code pointer};
 * every problem carries the {@code requestId} of the request (also its X-Request-Id header).
 */
@RestControllerAdvice
class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    @ExceptionHandler(VersoException.class)
    ResponseEntity<ProblemDetail> verso(VersoException e) {
        if (e instanceof VersoException.ServerError && e.code().category() == ErrorCode.Category.UNAVAILABLE) {
            // Overload and an absent database are conditions, not faults: a stack per refused request would
            // flood the log exactly when the service is busiest.
            log.warn("request refused: {} {}", e.code(), e.getMessage());
        } else if (e instanceof VersoException.ServerError) {
            log.error("request failed: {}", e.getMessage(), e);
        }
        ResponseEntity.BodyBuilder response = ResponseEntity.status(e.code().status());
        if (e.code().status() == 503 || e.code() == ErrorCode.RATE_LIMITED) {
            // Database away, overload, timeout, a caller at its limit: worth retrying, after a pause.
            response.header(HttpHeaders.RETRY_AFTER, "1");
        }
        return response.body(problem(e));
    }

    /** The database failing outside the engine (commit log, catalog look-ups, idempotency records). */
    @ExceptionHandler({org.springframework.dao.DataAccessException.class,
            org.springframework.transaction.TransactionException.class})
    ResponseEntity<ProblemDetail> database(RuntimeException e) {
        return verso(io.verso.engine.PgErrors.translate(e));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        log.error("unexpected failure", e);
        return verso(new VersoException.ServerError(ErrorCode.INTERNAL_ERROR, "internal error", e));
    }

    /** Spring MVC's own exceptions (unreadable body, wrong method or media type, unknown path). */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
                                                             HttpStatusCode statusCode, WebRequest request) {
        ProblemDetail problem = body instanceof ProblemDetail p ? p
                : ex instanceof ErrorResponse er ? er.getBody()
                : ProblemDetail.forStatus(statusCode);
        String code = frameworkCode(statusCode);
        problem.setType(Problems.type(code));
        problem.setTitle(Problems.title(code));
        problem.setProperty("code", code);
        if (ex instanceof org.springframework.web.HttpRequestMethodNotSupportedException refused
                && request instanceof org.springframework.web.context.request.ServletWebRequest servlet) {
            // The same words as a 405 Tomcat answers itself (security.ProblemErrorReportValve).
            problem.setDetail(Problems.notAllowed(refused.getMethod(),
                    servlet.getRequest().getRequestURI(), refused.getSupportedMethods() == null ? null
                            : String.join(", ", refused.getSupportedMethods())));
        }
        requestId(problem);
        String pointer = ex instanceof MissingServletRequestParameterException missing ? missing.getParameterName()
                : ex instanceof MethodArgumentTypeMismatchException mismatch ? mismatch.getName()
                : ex instanceof HttpMessageNotReadableException ? "/" : null;
        if (pointer != null) {
            problem.setProperty("pointer", pointer);
        }
        return ResponseEntity.status(statusCode).headers(headers).body(problem);
    }

    static ProblemDetail problem(VersoException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.valueOf(e.code().status()), e.getMessage());
        problem.setType(Problems.type(e.code().name()));
        problem.setTitle(Problems.title(e.code().name()));
        problem.setProperty("code", e.code().name());
        requestId(problem);
        if (e instanceof VersoException.UserError user) {
            if (user.line() > 0) {
                problem.setProperty("line", user.line());
                problem.setProperty("column", user.column());
            }
            if (user.pointer() != null) {
                problem.setProperty("pointer", user.pointer());
            }
        }
        return problem;
    }

    private static void requestId(ProblemDetail problem) {
        String id = RequestIdFilter.current();
        if (id != null) {
            problem.setProperty("requestId", id);
        }
    }

    private static String frameworkCode(HttpStatusCode status) {
        return switch (status.value()) {
            case 404 -> "NOT_FOUND";
            case 405 -> "METHOD_NOT_ALLOWED";
            case 406 -> "NOT_ACCEPTABLE";
            case 413 -> ErrorCode.PAYLOAD_TOO_LARGE.name();
            case 415 -> "UNSUPPORTED_MEDIA_TYPE";
            default -> status.is5xxServerError() ? ErrorCode.INTERNAL_ERROR.name() : ErrorCode.INVALID_REQUEST.name();
        };
    }
}
