package io.verso.error;

/**
 * Stable, machine-readable error codes. Clients branch on these, so a code is never renamed or
 * reused; the HTTP status is the one every surface renders it with.
 */
public enum ErrorCode {
    // The caller's fault: the request is malformed.
    SYNTAX_ERROR(400),
    EMPTY_STATEMENT(400),
    INVALID_REQUEST(400),
    PAYLOAD_TOO_LARGE(413),
    TOO_MANY_STATEMENTS(400),
    PARAMETER_COUNT_MISMATCH(400),
    INVALID_PARAMETER(400),
    /**
     * The request ends inside a transaction its START TRANSACTION / BEGIN opened: nothing of the request is kept
     * (MariaDB keeps nothing of a transaction its session never committed).
     */
    TRANSACTION_NOT_ENDED(400),
    /** A request whose media type the endpoint does not take (it takes application/json). */
    UNSUPPORTED_MEDIA_TYPE(415),
    /** An expression nested or chained deeper than the service evaluates. */
    EXPRESSION_TOO_DEEP(400),
    /** A path no endpoint serves. */
    NOT_FOUND(404),
    /** A method the endpoint does not take (the Allow header names those it does). */
    METHOD_NOT_ALLOWED(405),
    /** An Accept header naming no media type the endpoint answers with. */
    NOT_ACCEPTABLE(406),

    // Names.
    UNKNOWN_TABLE(404),
    UNKNOWN_COLUMN(400),
    UNKNOWN_GROUP(400),
    UNKNOWN_FUNCTION(400),
    UNKNOWN_TYPE(400),
    AMBIGUOUS_COLUMN(400),
    SCHEMA_QUALIFIED_NAME(400),
    DUPLICATE_NAME(400),
    RESERVED_NAME(400),
    NAME_TOO_LONG(400),
    TABLE_EXISTS(409),
    UNKNOWN_ROLE(404),

    // Table definitions.
    INVALID_ORDERING_COLUMN(400),
    COLUMN_IN_TWO_GROUPS(400),
    ORDERING_COLUMN_OUTSIDE_GROUP(400),
    KEY_COLUMN_IN_GROUP(400),
    ORDERING_ON_APPEND_TABLE(400),
    PRIMARY_KEY_REQUIRED(400),
    INVALID_DEFAULT(400),
    INVALID_DEFINITION(400),
    INVALID_ALTER(400),
    UNKNOWN_INDEX(404),
    /** A period column of system versioning of a type other than TIMESTAMP (MariaDB 4146). */
    INVALID_PERIOD_COLUMN(400),
    /** A period column of system versioning cannot be dropped, renamed or modified (MariaDB 1235/4119). */
    PERIOD_COLUMN_ALTER(400),
    /** A MariaDB feature Verso does not serve: application-time periods, AS OF TRANSACTION (MariaDB 1235). */
    NOT_SUPPORTED(400),
    /** A derived table's query uses AS OF, FOR SYSTEM_TIME or a non-deterministic function. */
    DERIVED_QUERY_NOT_ALLOWED(400),
    /** A table that derived tables read cannot be dropped (or renamed) before them. */
    DERIVED_DEPENDENCY(409),

    // Writes.
    MISSING_KEY_VALUE(400),
    MISSING_ORDERING_VALUE(400),
    NOT_NULL_VIOLATION(400),
    INVALID_VALUE(400),
    COLUMN_COUNT_MISMATCH(400),
    COLUMN_NOT_IN_GROUP(400),
    KEY_EXISTS(409),
    UNSUPPORTED_FOR_MODE(400),
    INVALID_AT_CLAUSE(400),
    INVALID_ASSIGNMENT(400),
    /** A write gives a value to a period column of system versioning (MariaDB 4112). */
    PERIOD_COLUMN_WRITE(400),
    /** Derived tables are written only by the engine, from their sources' commits. */
    DERIVED_TABLE_READ_ONLY(400),
    /** A derived table's query returned two rows (or a NULL) for one primary key. */
    DERIVED_KEY_CONFLICT(409),

    // Reads.
    AS_OF_NOT_POSITIVE(400),
    AS_OF_NOT_INTEGER(400),
    AS_OF_BEYOND_LATEST(400),
    AS_OF_BEFORE_HORIZON(400),
    AS_OF_NOT_SUPPORTED(400),
    AS_OF_DUPLICATE(400),
    NO_HISTORY(400),
    INVALID_EXPRESSION(400),
    INVALID_LIMIT(400),
    DIVISION_BY_ZERO(400),
    TYPE_MISMATCH(400),
    RESULT_TOO_LARGE(400),
    UNKNOWN_KEY(404),
    UNKNOWN_COMMIT(404),
    /** A read asked for a commit (atLeastCommit) that did not become visible in time; retry later. */
    COMMIT_NOT_REACHED(409),
    /** A column outside GROUP BY and aggregates in a grouped block. */
    COLUMN_NOT_GROUPED(400),
    /** An aggregate or window function where none may stand (WHERE, ON, GROUP BY, ...). */
    AGGREGATE_MISPLACED(400),
    /** The branches of UNION / INTERSECT / EXCEPT return different numbers of columns. */
    SET_OPERATION_MISMATCH(400),
    /** A read nests subqueries, derived tables, CTEs or views deeper than the limit. */
    NESTING_TOO_DEEP(400),
    /** A read names more relations (views expanded) than the limit. */
    TOO_MANY_RELATIONS(400),
    /** A read has more expression nodes than the limit. */
    STATEMENT_TOO_LARGE(400),
    /**
     * A statement ran longer than verso.statement-timeout, or a write waited longer than it for other writers
     * (the detail says which); nothing was written, and a write may be retried.
     */
    STATEMENT_TIMEOUT(400),
    /**
     * A statement needed more than a request's share of PostgreSQL: temporary file space over
     * verso.temp-file-limit (a sort of a cartesian join), or memory the server would not give.
     */
    RESOURCE_LIMIT(400),
    /** The recursive steps of WITH RECURSIVE made more rows than verso.max-recursive-rows. */
    RECURSION_LIMIT(400),
    /**
     * A computed value would be larger than verso.max-concat-bytes (a || chain) or than PostgreSQL's
     * 1 GB limit for one value (an aggregate such as array_agg over many rows).
     */
    VALUE_TOO_LARGE(400),
    VIEW_EXISTS(409),
    /** A write breaks a UNIQUE constraint or unique index over current rows. */
    UNIQUE_VIOLATION(409),
    /** A write breaks a CHECK constraint. */
    CHECK_VIOLATION(400),
    /** FOR SYSTEM_TIME (or DELETE HISTORY BEFORE SYSTEM_TIME) on a table without versioning (MariaDB 4174). */
    NOT_SYSTEM_VERSIONED(400),
    /** A FOR SYSTEM_TIME bound that is not a time. */
    INVALID_SYSTEM_TIME(400),
    /** A change feed was asked to start before the table's deleted-history horizon. */
    FEED_BEFORE_HORIZON(410),
    /**
     * A change feed was asked to resume after a commit not yet made: a cursor the feed never handed
     * out (another install's, or one kept across a restore from an older backup). Answering with an
     * empty page would let the consumer skip every commit up to it.
     */
    FEED_BEYOND_LATEST(400),
    /** A derived table build id that does not exist, or that the caller did not start (never confirmed). */
    UNKNOWN_BUILD(404),

    // Who may do what (spec: Access control), and retries.
    /** No credentials, or credentials that do not prove who the caller is (bad, expired, revoked). */
    UNAUTHENTICATED(401),
    /** The caller may see the table (or resource) but lacks the privilege named in the message. */
    FORBIDDEN(403),
    /** An Idempotency-Key reused with a different request. */
    IDEMPOTENCY_KEY_REUSED(422),
    /** A retry while the first request with the same Idempotency-Key is still running. */
    IDEMPOTENCY_KEY_IN_FLIGHT(409),
    INVALID_IDEMPOTENCY_KEY(400),
    /** A retry of a request that committed but whose answer was lost (the service died before storing it). */
    IDEMPOTENT_REQUEST_COMMITTED(409),

    /** The caller sent more requests than its rate limit (verso.admission.rate-limit) allows; retry after Retry-After. */
    RATE_LIMITED(429),

    // The server's side: not the caller's fault.
    DATABASE_UNAVAILABLE(503),
    WRITE_CONFLICT(409),
    /** Too many requests are running: this one was refused at once rather than queued. */
    OVERLOADED(503),
    /** The instance running a derived table build stopped before it ended: nothing was created. */
    BUILD_INTERRUPTED(503),
    INTERNAL_ERROR(500);

    private final int status;

    ErrorCode(int status) {
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** What kind of failure this is, for surfaces that classify errors without HTTP statuses. */
    public enum Category { BAD_INPUT, NOT_FOUND, CONFLICT, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE, INTERNAL }

    public Category category() {
        return switch (this) {
            case NOT_FOUND, UNKNOWN_TABLE, UNKNOWN_INDEX, UNKNOWN_KEY, UNKNOWN_COMMIT, UNKNOWN_ROLE,
                 UNKNOWN_BUILD -> Category.NOT_FOUND;
            case TABLE_EXISTS, KEY_EXISTS, COMMIT_NOT_REACHED, WRITE_CONFLICT, VIEW_EXISTS, UNIQUE_VIOLATION,
                 DERIVED_DEPENDENCY, DERIVED_KEY_CONFLICT, IDEMPOTENCY_KEY_IN_FLIGHT,
                 IDEMPOTENT_REQUEST_COMMITTED -> Category.CONFLICT;
            case UNAUTHENTICATED -> Category.UNAUTHENTICATED;
            case FORBIDDEN -> Category.FORBIDDEN;
            case DATABASE_UNAVAILABLE, OVERLOADED, RATE_LIMITED, BUILD_INTERRUPTED -> Category.UNAVAILABLE;
            case INTERNAL_ERROR -> Category.INTERNAL;
            default -> Category.BAD_INPUT;
        };
    }
}
