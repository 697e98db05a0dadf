package io.verso.pgwire;

import io.verso.error.ErrorCode;

/**
 * Verso's stable error codes as SQLSTATEs (PostgreSQL's Appendix A), so drivers classify them as they would
 * PostgreSQL's own: 42xxx names and syntax, 22xxx values, 23xxx constraints, 40001 retry, 53xxx/54xxx
 * limits, 57014 timeouts. Codes listed explicitly where a PostgreSQL condition fits; the rest by category.
 */
final class SqlStates {

    private SqlStates() {
    }

    static String of(ErrorCode code) {
        return switch (code) {
            case SYNTAX_ERROR, EMPTY_STATEMENT, COLUMN_COUNT_MISMATCH, INVALID_AT_CLAUSE, INVALID_ASSIGNMENT,
                 INVALID_EXPRESSION, SET_OPERATION_MISMATCH -> "42601";
            case PARAMETER_COUNT_MISMATCH -> "08P01";
            case INVALID_PARAMETER, INVALID_REQUEST, AS_OF_NOT_POSITIVE, AS_OF_NOT_INTEGER, AS_OF_BEYOND_LATEST,
                 AS_OF_BEFORE_HORIZON, AS_OF_DUPLICATE, NO_HISTORY, UNKNOWN_COMMIT, FEED_BEFORE_HORIZON,
                 FEED_BEYOND_LATEST, INVALID_IDEMPOTENCY_KEY -> "22023";
            case TRANSACTION_NOT_ENDED -> "25001";
            case PAYLOAD_TOO_LARGE, TOO_MANY_STATEMENTS, RESULT_TOO_LARGE, RECURSION_LIMIT, VALUE_TOO_LARGE -> "54000";
            case EXPRESSION_TOO_DEEP, NESTING_TOO_DEEP, TOO_MANY_RELATIONS, STATEMENT_TOO_LARGE -> "54001";
            case NAME_TOO_LONG -> "42622";
            case UNKNOWN_TABLE -> "42P01";
            case UNKNOWN_COLUMN -> "42703";
            case UNKNOWN_FUNCTION -> "42883";
            case UNKNOWN_GROUP, UNKNOWN_TYPE, UNKNOWN_ROLE, UNKNOWN_INDEX, UNKNOWN_BUILD -> "42704";
            case AMBIGUOUS_COLUMN -> "42702";
            case SCHEMA_QUALIFIED_NAME -> "3F000";
            case DUPLICATE_NAME -> "42701";
            case RESERVED_NAME -> "42939";
            case TABLE_EXISTS, VIEW_EXISTS -> "42P07";
            case INVALID_ORDERING_COLUMN, COLUMN_IN_TWO_GROUPS, ORDERING_COLUMN_OUTSIDE_GROUP, KEY_COLUMN_IN_GROUP,
                 ORDERING_ON_APPEND_TABLE, PRIMARY_KEY_REQUIRED, INVALID_DEFAULT, INVALID_DEFINITION, INVALID_ALTER,
                 INVALID_PERIOD_COLUMN, PERIOD_COLUMN_ALTER, DERIVED_QUERY_NOT_ALLOWED -> "42P16";
            case NOT_SUPPORTED, UNSUPPORTED_FOR_MODE, AS_OF_NOT_SUPPORTED -> "0A000";
            case DERIVED_DEPENDENCY -> "2BP01";
            case MISSING_KEY_VALUE, MISSING_ORDERING_VALUE, NOT_NULL_VIOLATION -> "23502";
            case KEY_EXISTS, UNIQUE_VIOLATION, DERIVED_KEY_CONFLICT -> "23505";
            case CHECK_VIOLATION -> "23514";
            case INVALID_VALUE -> "22000";
            case INVALID_SYSTEM_TIME -> "22007";
            case DIVISION_BY_ZERO -> "22012";
            case INVALID_LIMIT -> "2201W";
            case COLUMN_NOT_IN_GROUP -> "42P10";
            case PERIOD_COLUMN_WRITE -> "428C9";
            case DERIVED_TABLE_READ_ONLY, NOT_SYSTEM_VERSIONED -> "42809";
            case TYPE_MISMATCH -> "42804";
            case COLUMN_NOT_GROUPED, AGGREGATE_MISPLACED -> "42803";
            case UNKNOWN_KEY -> "P0002";
            case COMMIT_NOT_REACHED, IDEMPOTENCY_KEY_IN_FLIGHT, IDEMPOTENT_REQUEST_COMMITTED -> "55000";
            case STATEMENT_TIMEOUT -> "57014";
            case RESOURCE_LIMIT, OVERLOADED, RATE_LIMITED -> "53000";
            case UNAUTHENTICATED -> "28000";
            case FORBIDDEN -> "42501";
            case WRITE_CONFLICT -> "40001";
            case DATABASE_UNAVAILABLE -> "57P03";
            default -> switch (code.category()) {
                case BAD_INPUT, NOT_FOUND -> "22023";
                case CONFLICT -> "40001";
                case UNAUTHENTICATED -> "28000";
                case FORBIDDEN -> "42501";
                case UNAVAILABLE -> "57P03";
                case INTERNAL -> "XX000";
            };
        };
    }
}
