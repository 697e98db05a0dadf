package io.verso.surface;

import io.verso.catalog.ColumnDef;
import io.verso.sql.ast.Pos;
import java.util.List;

/**
 * A row filter as every surface states it: REST's {@code column:op:value} parameters and
 * GraphQL's {@code where} argument both become this one tree, which {@link ReadBuilder#where}
 * turns into a syntax-tree predicate. Each node carries the origin of the input it came from.
 */
public sealed interface Filter {

    Pos pos();

    enum Op { EQ, NE, LT, LE, GT, GE, LIKE, ILIKE, IN, NOT_IN, IS_NULL, NOT_NULL }

    /** {@code column op value(s)}: one value for comparisons, any number for IN / NOT_IN, none for the null tests. */
    record Compare(ColumnDef column, Op op, List<Object> values, Pos pos) implements Filter {
    }

    /** Every part holds (no part: every row). */
    record All(List<Filter> parts, Pos pos) implements Filter {
    }

    /** Some part holds (no part: no row). */
    record Any(List<Filter> parts, Pos pos) implements Filter {
    }

    record Not(Filter part, Pos pos) implements Filter {
    }
}
