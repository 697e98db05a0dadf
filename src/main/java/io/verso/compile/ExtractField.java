package io.verso.compile;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Pos;
import java.util.Set;

/** The fields {@code EXTRACT(field FROM x)} accepts: a fixed list, so the field can be emitted as a keyword. */
final class ExtractField {

    private static final Set<String> FIELDS = Set.of("century", "day", "decade", "dow", "doy", "epoch", "hour",
            "isodow", "isoyear", "julian", "microseconds", "millennium", "milliseconds", "minute", "month", "quarter",
            "second", "timezone", "timezone_hour", "timezone_minute", "week", "year");

    private ExtractField() {
    }

    static String of(String field, Pos pos) {
        if (!FIELDS.contains(field)) {
            throw VersoException.at(ErrorCode.INVALID_EXPRESSION, "EXTRACT has no field '" + field + "'; it takes "
                    + String.join(", ", new java.util.TreeSet<>(FIELDS)), pos);
        }
        return field.toUpperCase(java.util.Locale.ROOT);
    }
}
