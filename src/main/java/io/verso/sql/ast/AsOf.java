package io.verso.sql.ast;

/**
 * Every way of saying "as of" reduced to one small type: the commit to read at, given literally or
 * as a bound parameter. The AST builder has already refused operands that are not positive integers.
 */
public sealed interface AsOf {
    Pos pos();

    record AtCommit(long commit, Pos pos) implements AsOf {
    }

    record AtParameter(int index, Pos pos) implements AsOf {
    }
}
