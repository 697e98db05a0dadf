package io.verso.api.graphql;

/** What the batch produced for one field: a value (possibly null) or the failure to report. */
record Outcome(Object value, RuntimeException error) {

    static Outcome of(Object value) {
        return new Outcome(value, null);
    }

    static Outcome failed(RuntimeException error) {
        return new Outcome(null, error);
    }
}
