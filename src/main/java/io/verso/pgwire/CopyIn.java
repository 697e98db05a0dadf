package io.verso.pgwire;

import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code COPY t [(columns)] FROM STDIN [CSV | WITH (FORMAT csv|text, HEADER, DELIMITER 'x')]}: the statement, and
 * the rows of the data the client streams after it, in PostgreSQL's text format ({@code \N} for null, backslash
 * escapes, tab-separated) or CSV (quotes doubled inside quoted values, an unquoted empty value is null). The
 * rows become one INSERT statement built as a syntax tree (no statement text), their values column arrays.
 */
record CopyIn(String table, List<String> columns, boolean csv, boolean header, char delimiter) {

    private static final String IDENT = "(?:[A-Za-z_][A-Za-z0-9_]*|\"(?:[^\"]|\"\")+\")";
    private static final Pattern COPY = Pattern.compile("(?is)\\s*COPY\\s+(?<table>" + IDENT + ")\\s*"
            + "(?:\\((?<columns>\\s*" + IDENT + "\\s*(?:,\\s*" + IDENT + "\\s*)*)\\))?\\s*FROM\\s+STDIN"
            + "(?<options>(?:\\s+.*)?)[\\s;]*");
    private static final Pattern COLUMN = Pattern.compile(IDENT);

    /** The COPY statement {@code sql} is, if it is one. */
    static Optional<CopyIn> of(String sql) {
        Matcher m = COPY.matcher(sql);
        if (!m.matches()) {
            return Optional.empty();
        }
        List<String> columns = new ArrayList<>();
        if (m.group("columns") != null) {
            Matcher c = COLUMN.matcher(m.group("columns"));
            while (c.find()) {
                columns.add(c.group());
            }
        }
        String options = m.group("options").toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
        boolean csv = options.matches(".*\\bcsv\\b.*");
        boolean header = options.matches(".*\\bheader\\b(?! false| off| 0).*");
        Matcher delimiter = Pattern.compile("delimiter\\s*(?:as\\s*)?'(.)'").matcher(options);
        char d = delimiter.find() ? delimiter.group(1).charAt(0) : csv ? ',' : '\t';
        String rest = options.replaceAll("with|\\(|\\)|,|format|csv|text|header( true| on| 1)?|delimiter\\s*(as\\s*)?'.'",
                " ").strip();
        if (!rest.isEmpty()) {
            throw new IllegalArgumentException("COPY option(s) not supported: " + rest
                    + " (supported: FORMAT text or csv, HEADER, DELIMITER)");
        }
        return Optional.of(new CopyIn(m.group("table"), columns, csv, header, d));
    }

    /**
     * The INSERT of {@code rows} into {@code names} (the columns named, else all the table's), as the REST
     * surface builds a batch: values straight into column arrays, each located at {@code /rows/i/column}.
     */
    Statement.InsertRows insert(List<String> names, List<List<Object>> rows) {
        Object[][] values = new Object[names.size()][rows.size()];
        for (int r = 0; r < rows.size(); r++) {
            for (int c = 0; c < names.size(); c++) {
                values[c][r] = rows.get(r).get(c);
            }
        }
        List<Ident> idents = names.stream().map(n -> new Ident(n, Pos.pointer("/columns/" + n))).toList();
        Statement.ColumnValues given = new Statement.ColumnValues(values, rows.size(),
                (column, row) -> Pos.pointer("/rows/" + row + "/" + names.get(column)));
        return new Statement.InsertRows(false, new Ident(name(table), Pos.pointer("/table")), idents, given, null,
                Pos.pointer("/rows/0"));
    }

    /** The columns named, as the parser names them: unquoted ones folded to lower case, quoted ones as written. */
    List<String> columnNames() {
        return columns.stream().map(CopyIn::name).toList();
    }

    private static String name(String identifier) {
        return identifier.startsWith("\"")
                ? identifier.substring(1, identifier.length() - 1).replace("\"\"", "\"")
                : identifier.toLowerCase(Locale.ROOT);
    }

    /** The rows of the data, each a list of values (null for SQL NULL). */
    List<List<Object>> rows(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        List<List<Object>> rows = new ArrayList<>();
        int at = 0;
        boolean first = true;
        while (at < text.length()) {
            List<Object> row = new ArrayList<>();
            at = csv ? csvRow(text, at, row) : textRow(text, at, row);
            if (row.size() == 1 && "\\.".equals(row.get(0))) {
                break; // the end-of-data marker of older clients
            }
            if (!(first && header)) {
                rows.add(row);
            }
            first = false;
        }
        return rows;
    }

    private int textRow(String text, int at, List<Object> row) {
        StringBuilder value = new StringBuilder();
        boolean escaped = false;
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '\n') {
                break;
            }
            if (c == delimiter) {
                row.add(value(value, escaped));
                value.setLength(0);
                escaped = false;
            } else if (c == '\\' && at < text.length()) {
                char e = text.charAt(at++);
                escaped |= e == 'N';
                value.append(switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    case 'v' -> '\u000b';
                    case 'N' -> "\\N";
                    default -> e;
                });
            } else if (c != '\r' || at < text.length() && text.charAt(at) != '\n') {
                value.append(c);
            }
        }
        row.add(value(value, escaped));
        return at;
    }

    private static Object value(StringBuilder value, boolean escaped) {
        return escaped && value.toString().equals("\\N") ? null : value.toString();
    }

    private int csvRow(String text, int at, List<Object> row) {
        StringBuilder value = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (quoted) {
                if (c == '"' && at < text.length() && text.charAt(at) == '"') {
                    value.append('"');
                    at++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    value.append(c);
                }
            } else if (c == '"') {
                quoted = true;
                wasQuoted = true;
            } else if (c == delimiter || c == '\n') {
                row.add(value.length() == 0 && !wasQuoted ? null : value.toString());
                value.setLength(0);
                wasQuoted = false;
                if (c == '\n') {
                    return at;
                }
            } else if (c != '\r') {
                value.append(c);
            }
        }
        row.add(value.length() == 0 && !wasQuoted ? null : value.toString());
        return at;
    }

    @Override
    public String toString() {
        return "COPY " + table + (columns.isEmpty() ? "" : " " + Arrays.toString(columns.toArray()));
    }
}
