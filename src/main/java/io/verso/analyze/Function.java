package io.verso.analyze;

import java.util.Locale;
import java.util.Optional;

/** The dialect's fixed list of functions; the compiler emits these names, never the user's text. */
public enum Function {
    COUNT(1, 1, true), SUM(1, 1, true), MIN(1, 1, true), MAX(1, 1, true), AVG(1, 1, true),
    COALESCE(1, 100, false), NULLIF(2, 2, false), LOWER(1, 1, false), UPPER(1, 1, false),
    LENGTH(1, 1, false), ABS(1, 1, false), ROUND(1, 2, false), NOW(0, 0, false);

    public final int minArgs;
    public final int maxArgs;
    public final boolean aggregate;

    Function(int minArgs, int maxArgs, boolean aggregate) {
        this.minArgs = minArgs;
        this.maxArgs = maxArgs;
        this.aggregate = aggregate;
    }

    public String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Function> named(String name) {
        for (Function f : values()) {
            if (f.sqlName().equals(name)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
