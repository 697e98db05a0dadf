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
}
