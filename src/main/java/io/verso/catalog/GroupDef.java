package io.verso.catalog;

import java.util.List;
import java.util.stream.Stream;

/**
 * An attribute group: columns ordered on their own. Id 0 is the table's default group, named
 * {@code default}. {@code validBy} and {@code revisionBy} hold column names.
 */
public record GroupDef(int id, String name, List<String> validBy, List<String> revisionBy) {

    public static final String DEFAULT_NAME = "default";

    public List<String> orderingColumns() {
        return Stream.concat(validBy.stream(), revisionBy.stream()).toList();
    }
}
