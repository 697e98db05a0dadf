package io.verso.catalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An attribute group: columns ordered on their own. Id 0 is the table's default group, named
 * {@code default}. {@code validBy} and {@code revisionBy} hold column names.
 */
public record GroupDef(int id, String name, List<String> validBy, List<String> revisionBy) {

    public static final String DEFAULT_NAME = "default";

    /** VALID BY then REVISION BY columns (asked per column and per row on the write path: no stream). */
    public List<String> orderingColumns() {
        if (revisionBy.isEmpty()) {
            return Collections.unmodifiableList(validBy);
        }
        List<String> all = new ArrayList<>(validBy.size() + revisionBy.size());
        all.addAll(validBy);
        all.addAll(revisionBy);
        return Collections.unmodifiableList(all);
    }
}
