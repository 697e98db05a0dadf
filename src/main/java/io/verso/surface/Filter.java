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

    /**
     * The one filter vocabulary: each operator's word, as REST's {@code column:op:value} and GraphQL's comparison
     * input both spell it, and the column types it applies to. The OpenAPI contract and the console list the
     * same words (FilterVocabularyTests checks them against this list).
     */
    enum Op {
        EQ("eq"), NE("ne"), LT("lt"), LE("le"), GT("gt"), GE("ge"), IN("in"), NOT_IN("notIn"), LIKE("like"),
        ILIKE("ilike"), IS_NULL("isNull"), NOT_NULL("notNull");

        private final String word;

        Op(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }

        /** The operator a word names, if any. */
        public static java.util.Optional<Op> named(String word) {
            return java.util.Arrays.stream(values()).filter(o -> o.word.equals(word)).findFirst();
        }

        /** Every word, in order, for messages: {@code eq, ne, ..., notNull}. */
        public static String words() {
            return String.join(", ", java.util.Arrays.stream(values()).map(Op::word).toList());
        }

        /**
         * Whether the operator applies to columns of a type: the null tests to every type, equality to every
         * type but JSONB, order and lists to types PostgreSQL orders (not BOOLEAN, JSONB), patterns to text.
         */
        public boolean appliesTo(io.verso.catalog.ColumnType.Base type) {
            return switch (this) {
                case IS_NULL, NOT_NULL -> true;
                case EQ, NE -> type != io.verso.catalog.ColumnType.Base.JSONB;
                case LT, LE, GT, GE, IN, NOT_IN -> type != io.verso.catalog.ColumnType.Base.JSONB
                        && type != io.verso.catalog.ColumnType.Base.BOOLEAN;
                case LIKE, ILIKE -> type == io.verso.catalog.ColumnType.Base.TEXT
                        || type == io.verso.catalog.ColumnType.Base.VARCHAR
                        || type == io.verso.catalog.ColumnType.Base.CHAR;
            };
        }
    }

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
