package io.verso.sql.ast;

/**
 * Every way of saying "as of" reduced to one small type: the commit to read at, given literally or
 * as a bound parameter, or a time that the analyzer turns into a commit. The AST builder has already refused operands that are not positive integers.
 */
public sealed interface AsOf {
    Pos pos();

    record AtCommit(long commit, Pos pos) implements AsOf {
    }

    record AtParameter(int index, Pos pos) implements AsOf {
    }

    /** {@code AS OF TIMESTAMP t}: the latest commit made at or before t (a literal, parameter or constant). */
    record AtTimestamp(Expr value, Pos pos) implements AsOf {
    }

    /**
     * MariaDB's {@code FOR SYSTEM_TIME}: AS OF t ({@code from} null), FROM t1 TO t2, BETWEEN t1 AND t2, ALL
     * (both null), or AS OF TRANSACTION (refused by the analyzer). The analyzer reduces it to commits.
     */
    record SystemTime(SystemTimeKind kind, Expr from, Expr to, Pos pos) implements AsOf {
    }

    enum SystemTimeKind { AS_OF, FROM_TO, BETWEEN, ALL, TRANSACTION }
}
