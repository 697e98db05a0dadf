package io.verso.analyze;

import io.verso.catalog.ColumnType;
import java.util.List;

/**
 * A relation of a system schema ({@code information_schema.tables}, {@code pg_catalog.pg_extension}) as one
 * statement reads it: its columns and their types, and its rows, made from what the caller may see of the
 * catalog when the statement is analysed. The compiler sends the rows as bound values, one array per column.
 */
public record SystemRelation(String schema, String name, List<Column> columns, List<List<Object>> rows) {

    public record Column(String name, ColumnType type) {
    }

    public List<String> columnNames() {
        return columns.stream().map(Column::name).toList();
    }
}
