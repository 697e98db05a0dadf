package io.verso.engine;

import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.catalog.TableMode;
import io.verso.compile.WriteCompiler;
import io.verso.error.ErrorCode;
import io.verso.error.Located;
import io.verso.error.VersoException;
import java.util.ArrayList;
import java.util.List;

/**
 * INSERT's key rule, one for every mode and for rows listed or queried: a key that already has a current row,
 * or that appears twice among the statement's own new rows, is refused with KEY_EXISTS naming the key, before
 * anything is written, so one statement is refused exactly as two would be (UPSERT writes versions of a key).
 */
final class InsertKeys {

    private InsertKeys() {
    }

    /** {@code keys[k][r]}: key column k of row r, as text; a table without a key has nothing to refuse. */
    static void refuse(SqlRunner sql, TableDef table, String[][] keys, Located where) {
        if (table.keyColumns().isEmpty()) {
            return;
        }
        List<String[]> refused = sql.texts(WriteCompiler.refusedKeys(table, keys));
        if (refused.isEmpty()) {
            return;
        }
        String[] row = refused.get(0);
        String key = describe(table.keyColumns(), row);
        boolean system = table.mode() == TableMode.SYSTEM;
        throw VersoException.at(ErrorCode.KEY_EXISTS, "t".equals(row[row.length - 1])
                ? "INSERT refuses key " + key + ": it appears more than once among the rows of the statement"
                        + (system ? "" : " (use UPSERT to write several versions of a key)")
                : "INSERT refuses key " + key + ": it has a current row in " + table.name()
                        + (system ? " (use UPDATE to change it)" : " (use UPSERT to write a new version)"), where);
    }

    static String describe(List<ColumnDef> keys, String[] values) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            parts.add(keys.get(i).name() + "=" + values[i]);
        }
        return "(" + String.join(", ", parts) + ")";
    }
}
