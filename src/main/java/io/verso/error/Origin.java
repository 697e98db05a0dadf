package io.verso.error;

/**
 * Where in the caller's input something came from, in the caller's own terms: a line and column
 * of statement text, a JSON pointer into a request body (or the name of a query or path
 * parameter), or the path of a GraphQL argument. Every surface builds statements whose parts carry
 * the origin of the input they came from, so an error names that input directly and no surface
 * maps positions back.
 */
public sealed interface Origin extends Located {

    @Override
    default Origin origin() {
        return this;
    }

    /** 1-based line and column in the whole request text. */
    record Text(int line, int column) implements Origin {
        @Override
        public String toString() {
            return line + ":" + column;
        }
    }

    /** A JSON pointer into the request body ({@code /rows/0/amount}) or a parameter's name ({@code filter[1]}). */
    record Pointer(String pointer) implements Origin {
        @Override
        public String toString() {
            return pointer;
        }
    }

    /** A GraphQL argument: field, argument and path inside it ({@code upsert_t.rows[0].amount}). */
    record Argument(String path) implements Origin {
        @Override
        public String toString() {
            return path;
        }
    }

    /**
     * How a message names the row an input item belongs to: {@code row 3} in statement text (rows
     * counted from 1 as written), {@code /rows/2} in a JSON body, {@code rows[2]} in GraphQL.
     */
    static String row(Origin item, int index) {
        // Java 17: no pattern switch yet; the three kinds are the whole sealed family.
        if (item instanceof Text) {
            return "row " + (index + 1);
        }
        String path = item instanceof Pointer p ? p.pointer() : ((Argument) item).path();
        int cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('.'));
        return "row " + (cut > 0 ? path.substring(0, cut) : path);
    }
}
