package io.verso.pgwire;

import io.verso.engine.StatementResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A table the caller may see, as DESCRIBE shows it: its columns in order, its indexes and CHECK constraints. The
 * one reading of DESCRIBE's rows that every catalog answer of psql's and pgjdbc's is made from.
 */
record DescribedTable(String name, List<Attribute> attributes, List<Index> indexes, List<Check> checks) {

    /** A column: its dialect type, whether it may hold NULL, its DEFAULT as PostgreSQL prints it, its key place. */
    record Attribute(String name, String type, boolean notNull, String defaultValue, Integer keyPosition) {
    }

    /** A secondary index: its columns as DESCRIBE lists them ({@code a, b}), and whether it is unique. */
    record Index(String name, String columns, boolean unique) {
        List<String> columnNames() {
            return List.of(columns.split(", "));
        }
    }

    record Check(String name, String expression) {
    }

    /** The rows of DESCRIBE (kind, name, type, nullable, default, key_position, …, index_columns, …). */
    static DescribedTable of(String name, StatementResult describe) {
        List<Attribute> attributes = new ArrayList<>();
        List<Index> indexes = new ArrayList<>();
        List<Check> checks = new ArrayList<>();
        for (List<Object> row : ((StatementResult.Rows) describe).rows()) {
            String rowName = String.valueOf(row.get(1));
            switch (String.valueOf(row.get(0))) {
                case "COLUMN" -> attributes.add(new Attribute(rowName, String.valueOf(row.get(2)),
                        !Boolean.TRUE.equals(row.get(3)) || row.get(5) != null,
                        row.get(4) == null ? null : PgTypes.defaultExpression(row.get(4).toString(),
                                String.valueOf(row.get(2))),
                        row.get(5) == null ? null : ((Number) row.get(5)).intValue()));
                case "INDEX" -> indexes.add(new Index(rowName, String.valueOf(row.get(8)),
                        Boolean.TRUE.equals(row.get(11))));
                case "CHECK" -> checks.add(new Check(rowName, String.valueOf(row.get(10))));
                default -> {
                    // A kind of row DESCRIBE may show later; nothing here reads it.
                }
            }
        }
        return new DescribedTable(name, attributes, indexes, checks);
    }

    /** The primary key's columns, in key order. */
    List<String> key() {
        return attributes.stream().filter(a -> a.keyPosition() != null)
                .sorted(Comparator.comparing(Attribute::keyPosition)).map(Attribute::name).toList();
    }

    /** The primary key's name, as PostgreSQL names it. */
    String keyName() {
        return name + "_pkey";
    }

    boolean hasIndex() {
        return !key().isEmpty() || !indexes.isEmpty();
    }

    /** The indexes sorted by name, as psql and pgjdbc list them. */
    List<Index> sortedIndexes() {
        return indexes.stream().sorted(Comparator.comparing(Index::name)).toList();
    }
}
