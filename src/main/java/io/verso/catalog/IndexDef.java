package io.verso.catalog;

import io.verso.sql.ast.Statement.IndexScope;
import java.util.List;

/**
 * A user index: which columns (physical names, in order) and which rows it covers. Its PostgreSQL
 * indexes are {@code t<id>_<physical>_cur} and {@code t<id>_<physical>_hist}.
 */
public record IndexDef(String name, String physical, List<String> columns, IndexScope scope, boolean unique) {

    public IndexDef(String name, String physical, List<String> columns, IndexScope scope) {
        this(name, physical, columns, scope, false);
    }

    public boolean coversCurrent() {
        return scope != IndexScope.HISTORY;
    }

    public boolean coversHistory() {
        return scope != IndexScope.CURRENT;
    }
}
