package io.verso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;
import org.springframework.jdbc.UncategorizedSQLException;

/**
 * PostgreSQL's refusals as they arrive from the driver, translated: what the statement's data caused is
 * the caller's (4xx), what it did not stays the server's. (Building a value past 1 GB for real would take
 * a gigabyte of the shared test database's memory; the error is the one PostgreSQL sends, field by field.)
 */
class PgErrorsTests {

    private static RuntimeException fromServer(String state, String message) {
        PSQLException cause = new PSQLException(new ServerErrorMessage("SERROR\0VERROR\0C" + state + "\0M" + message
                + "\0Fmcxt.c\0L1077\0RMemoryContextAllocHuge\0"));
        return new UncategorizedSQLException("select", "select", cause);
    }

    @Test
    void aValuePastPostgresqlsOneGigabyteLimitIsTheCallersToNarrow() {
        VersoException e = PgErrors.translate(fromServer("XX000", "invalid memory alloc request size 1073741824"));
        assertThat(e).isInstanceOf(VersoException.UserError.class);
        assertThat(e.code()).isEqualTo(ErrorCode.VALUE_TOO_LARGE);
        assertThat(e.code().status()).isEqualTo(400);
        assertThat(e.getMessage()).contains("1 GB").contains("invalid memory alloc request size 1073741824");
    }

    @Test
    void storageRelationsConstraintsAndColumnsAreNotNamed() {
        assertThat(PgErrors.withoutStorageNames("duplicate key value violates unique constraint \"t302_cur_c1_idx\""))
                .isEqualTo("duplicate key value violates unique constraint");
        assertThat(PgErrors.withoutStorageNames("null value in column \"c3\" of relation \"t28_cur\" violates "
                + "not-null constraint")).isEqualTo("null value in a column violates not-null constraint");
        assertThat(PgErrors.withoutStorageNames("relation \"t28_hist\" does not exist"))
                .isEqualTo("relation does not exist");
        assertThat(PgErrors.withoutStorageNames("invalid input syntax for type integer: \"abc\""))
                .isEqualTo("invalid input syntax for type integer: \"abc\"");
    }

    @Test
    void anyOtherInternalErrorStaysTheServers() {
        VersoException e = PgErrors.translate(fromServer("XX000", "cache lookup failed for relation 12345"));
        assertThat(e).isInstanceOf(VersoException.ServerError.class);
        assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
    }
}
