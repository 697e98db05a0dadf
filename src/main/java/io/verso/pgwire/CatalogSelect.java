package io.verso.pgwire;

import io.verso.engine.StatementResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A small SELECT over one relation of a virtual schema ({@code information_schema.tables} and the like), read
 * and evaluated here over rows made from Verso's catalog: the shapes tools send (columns and expressions by
 * name, {@code WHERE} comparisons, {@code LIKE}, {@code IN}, {@code IS NULL}, {@code AND}/{@code OR}/{@code
 * NOT} over literals and {@code $n} parameters, {@code ORDER BY} names, positions or expressions, {@code
 * LIMIT}/{@code OFFSET}), whatever their spelling. Nothing of the text is run anywhere: it is parsed into the
 * few nodes below and evaluated in memory. A text outside that grammar (a join, a subquery, an aggregate) is
 * not read ({@link #parse} is empty) and goes to the engine like any other statement.
 */
final class CatalogSelect {

    /** A relation of a virtual schema: its columns, and its rows (made only when a query reads it). */
    record Relation(List<StatementResult.Column> columns, Rows rows) {
        int index(String column) {
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).name().equals(column)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** The rows of a relation, read from the catalog as the caller may see it. */
    interface Rows {
        List<List<Object>> get() throws StatementRequests.Failed;
    }

    /** The relations of the virtual schemas, by schema and name (lower case). */
    interface Schemas {
        Optional<Relation> relation(String schema, String name);
    }

    /** A query that reads, but names what the relation does not have: PostgreSQL's error for it. */
    static final class Refused extends IllegalArgumentException {
        final String sqlState;

        Refused(String sqlState, String message) {
            super(message);
            this.sqlState = sqlState;
        }
    }

    private final Select select;

    private CatalogSelect(Select select) {
        this.select = select;
    }

    /** The query {@code sql} if it is a SELECT of this grammar over a relation of schema {@code schema}. */
    static Optional<CatalogSelect> parse(String sql, String schema) {
        try {
            Select s = new Parser(Lexer.tokens(sql)).select();
            return s.schema().equals(schema) ? Optional.of(new CatalogSelect(s)) : Optional.empty();
        } catch (Unread e) {
            return Optional.empty();
        }
    }

    /** The query's result over {@code schemas}, with parameter values {@code values} ($1 first). */
    StatementResult run(Schemas schemas, List<Object> values, String database) throws StatementRequests.Failed {
        Relation relation = schemas.relation(select.schema(), select.name()).orElseThrow(() -> new Refused("42P01",
                "relation \"" + select.schema() + "." + select.name() + "\" does not exist"));
        Scope scope = new Scope(relation, select.alias(), values, database);
        List<Item> items = new ArrayList<>();
        for (Item item : select.items()) {
            if (item.expr() instanceof Star star) {
                scope.checkQualifier(star.qualifier());
                for (StatementResult.Column c : relation.columns()) {
                    items.add(new Item(new Ref(null, c.name()), c.name()));
                }
            } else {
                item.expr().check(scope);
                items.add(item);
            }
        }
        List<StatementResult.Column> columns = items.stream()
                .map(i -> new StatementResult.Column(i.name(), i.expr().type(scope))).toList();
        if (select.where() != null) {
            select.where().check(scope);
        }
        List<Sorted> sorted = new ArrayList<>();
        for (Order o : select.order()) {
            sorted.add(new Sorted(sortKey(o.expr(), items, scope), o.descending()));
        }
        List<Row> kept = new ArrayList<>();
        for (List<Object> row : relation.rows().get()) {
            if (select.where() == null || Boolean.TRUE.equals(select.where().eval(row, scope))) {
                List<Object> out = new ArrayList<>();
                for (Item i : items) {
                    out.add(i.expr().eval(row, scope));
                }
                kept.add(new Row(row, out));
            }
        }
        Comparator<Row> order = (a, b) -> 0;
        for (Sorted s : sorted) {
            Comparator<Row> next = (a, b) -> compareForSort(s.key().apply(a), s.key().apply(b));
            order = order.thenComparing(s.descending() ? next.reversed() : next);
        }
        kept.sort(order);
        long offset = select.offset() == null ? 0 : select.offset();
        long limit = select.limit() == null ? Long.MAX_VALUE : select.limit();
        List<List<Object>> rows = kept.stream().skip(offset).limit(limit).map(Row::out).toList();
        return new StatementResult.Rows("SELECT", columns, rows, null);
    }

    private record Row(List<Object> in, List<Object> out) {
    }

    private interface SortKey {
        Object apply(Row row);
    }

    private record Sorted(SortKey key, boolean descending) {
    }

    /** An ORDER BY term: a position in the select list, an output name, else an expression over the row. */
    private static SortKey sortKey(Expr e, List<Item> items, Scope scope) {
        if (e instanceof Literal l && l.value() instanceof Long n) {
            if (n < 1 || n > items.size()) {
                throw new Refused("42P10", "ORDER BY position " + n + " is not in select list");
            }
            return row -> row.out().get((int) (n - 1));
        }
        if (e instanceof Ref r && r.qualifier() == null) {
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).name().equals(r.column())) {
                    int at = i;
                    return row -> row.out().get(at);
                }
            }
        }
        e.check(scope);
        return row -> e.eval(row.in(), scope);
    }

    /** PostgreSQL's default order: NULLs after every value ascending. */
    private static int compareForSort(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return compare(a, b);
    }

    private static int compare(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return Long.compare(x.longValue(), y.longValue());
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        return String.valueOf(a).compareTo(String.valueOf(b));
    }

    // What an expression sees: the relation's columns, the parameters, the session.

    private record Scope(Relation relation, String alias, List<Object> values, String database) {
        int column(Ref ref) {
            checkQualifier(ref.qualifier());
            int i = relation.index(ref.column());
            if (i < 0) {
                throw new Refused("42703", "column \"" + ref.column() + "\" does not exist");
            }
            return i;
        }

        void checkQualifier(String qualifier) {
            if (qualifier != null && !qualifier.equals(alias)) {
                throw new Refused("42P01", "missing FROM-clause entry for table \"" + qualifier + "\"");
            }
        }
    }

    // The syntax tree

    private record Select(List<Item> items, String schema, String name, String alias, Expr where, List<Order> order,
                          Long limit, Long offset) {
    }

    private record Item(Expr expr, String name) {
    }

    private record Order(Expr expr, boolean descending) {
    }

    private interface Expr {
        Object eval(List<Object> row, Scope scope);

        /** Throws {@link Refused} when the expression names what the relation does not have. */
        default void check(Scope scope) {
        }

        default String type(Scope scope) {
            return "TEXT";
        }
    }

    /** A truth about one value (NOT, IS NULL, IN). */
    private interface Test extends Expr {
        Expr value();

        @Override
        default void check(Scope scope) {
            value().check(scope);
        }

        @Override
        default String type(Scope scope) {
            return "BOOLEAN";
        }
    }

    private record Star(String qualifier) implements Expr {
        @Override
        public Object eval(List<Object> row, Scope scope) {
            throw new IllegalStateException("* is expanded before evaluation");
        }
    }

    private record Literal(Object value) implements Expr {
        @Override
        public Object eval(List<Object> row, Scope scope) {
            return value;
        }

        @Override
        public String type(Scope scope) {
            return value instanceof Long ? "INTEGER" : value instanceof Boolean ? "BOOLEAN" : "TEXT";
        }
    }

    private record Param(int number) implements Expr {
        @Override
        public Object eval(List<Object> row, Scope scope) {
            if (number < 1 || number > scope.values().size()) {
                throw new Refused("42P02", "there is no parameter $" + number);
            }
            return scope.values().get(number - 1);
        }
    }

    private record Ref(String qualifier, String column) implements Expr {
        @Override
        public Object eval(List<Object> row, Scope scope) {
            return row.get(scope.column(this));
        }

        @Override
        public void check(Scope scope) {
            scope.column(this);
        }

        @Override
        public String type(Scope scope) {
            return scope.relation().columns().get(scope.column(this)).type();
        }
    }

    /** {@code x::type}: to a number for the integer types, to text for the rest. */
    private record Cast(Expr value, boolean integer) implements Expr {
        @Override
        public Object eval(List<Object> row, Scope scope) {
            Object v = value.eval(row, scope);
            if (v == null || !integer) {
                return v == null ? null : String.valueOf(v);
            }
            try {
                return v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v).strip());
            } catch (NumberFormatException e) {
                throw new Refused("22P02", "invalid input syntax for type integer: \"" + v + "\"");
            }
        }

        @Override
        public void check(Scope scope) {
            value.check(scope);
        }

        @Override
        public String type(Scope scope) {
            return integer ? "INTEGER" : "TEXT";
        }
    }

    /** The functions tools wrap catalog columns in. */
    private record Call(String function, List<Expr> args) implements Expr {
        static final List<String> KNOWN = List.of("lower", "upper", "quote_ident", "coalesce", "current_database",
                "current_schema", "current_catalog", "current_user");

        @Override
        public Object eval(List<Object> row, Scope scope) {
            List<Object> v = new ArrayList<>();
            for (Expr a : args) {
                v.add(a.eval(row, scope));
            }
            Object first = v.isEmpty() ? null : v.get(0);
            return switch (function) {
                case "lower" -> first == null ? null : first.toString().toLowerCase(Locale.ROOT);
                case "upper" -> first == null ? null : first.toString().toUpperCase(Locale.ROOT);
                case "quote_ident" -> first == null ? null : quoteIdent(first.toString());
                case "coalesce" -> v.stream().filter(x -> x != null).findFirst().orElse(null);
                case "current_database", "current_catalog" -> scope.database();
                case "current_schema" -> "public";
                default -> "verso";
            };
        }

        @Override
        public void check(Scope scope) {
            args.forEach(a -> a.check(scope));
        }

        @Override
        public String type(Scope scope) {
            return function.equals("coalesce") && !args.isEmpty() ? args.get(0).type(scope) : "TEXT";
        }

        private static String quoteIdent(String name) {
            return name.matches("[a-z_][a-z0-9_$]*") ? name : "\"" + name.replace("\"", "\"\"") + "\"";
        }
    }

    private record Not(Expr value) implements Test {
        @Override
        public Object eval(List<Object> row, Scope scope) {
            Object v = value.eval(row, scope);
            return v == null ? null : !Boolean.TRUE.equals(v);
        }
    }

    /** AND, OR, comparisons, LIKE, regular expressions and ||, with SQL's NULLs. */
    private record Binary(String op, Expr left, Expr right) implements Expr {
        @Override
        public Object eval(List<Object> row, Scope scope) {
            Object l = left.eval(row, scope);
            if (op.equals("AND") || op.equals("OR")) {
                boolean and = op.equals("AND");
                if (Boolean.valueOf(!and).equals(l)) {
                    return !and;
                }
                Object r = right.eval(row, scope);
                if (Boolean.valueOf(!and).equals(r)) {
                    return !and;
                }
                return l == null || r == null ? null : and;
            }
            Object r = right.eval(row, scope);
            if (l == null || r == null) {
                return null;
            }
            String ls = String.valueOf(l);
            String rs = String.valueOf(r);
            return switch (op) {
                case "=" -> compare(l, r) == 0;
                case "<>" -> compare(l, r) != 0;
                case "<" -> compare(l, r) < 0;
                case ">" -> compare(l, r) > 0;
                case "<=" -> compare(l, r) <= 0;
                case ">=" -> compare(l, r) >= 0;
                case "LIKE" -> CatalogQueries.like(rs).matcher(ls).matches();
                case "ILIKE" -> CatalogQueries.like(rs.toLowerCase(Locale.ROOT)).matcher(ls.toLowerCase(Locale.ROOT))
                        .matches();
                case "~" -> regex(rs, 0).matcher(ls).find();
                case "~*" -> regex(rs, Pattern.CASE_INSENSITIVE).matcher(ls).find();
                default -> ls + rs;
            };
        }

        @Override
        public void check(Scope scope) {
            left.check(scope);
            right.check(scope);
        }

        @Override
        public String type(Scope scope) {
            return op.equals("||") ? "TEXT" : "BOOLEAN";
        }

        private static Pattern regex(String regex, int flags) {
            try {
                return Pattern.compile(regex, flags);
            } catch (PatternSyntaxException e) {
                throw new Refused("2201B", "invalid regular expression: " + e.getDescription());
            }
        }
    }

    private record In(Expr value, List<Expr> list) implements Test {
        @Override
        public Object eval(List<Object> row, Scope scope) {
            Object v = value.eval(row, scope);
            if (v == null) {
                return null;
            }
            boolean sawNull = false;
            for (Expr e : list) {
                Object x = e.eval(row, scope);
                if (x == null) {
                    sawNull = true;
                } else if (compare(v, x) == 0) {
                    return true;
                }
            }
            return sawNull ? null : false;
        }

        @Override
        public void check(Scope scope) {
            value.check(scope);
            list.forEach(e -> e.check(scope));
        }
    }

    private record IsNull(Expr value) implements Test {
        @Override
        public Object eval(List<Object> row, Scope scope) {
            return value.eval(row, scope) == null;
        }
    }

    // Reading the text

    /** A text outside the grammar: not a query answered here. */
    private static final class Unread extends RuntimeException {
        Unread() {
            super(null, null, false, false);
        }
    }

    private enum Kind { WORD, QUOTED, STRING, NUMBER, PARAM, SYMBOL, END }

    private record Token(Kind kind, String text) {
        boolean is(String word) {
            return kind == Kind.WORD && text.equals(word) || kind == Kind.SYMBOL && text.equals(word);
        }
    }

    private static final class Lexer {
        private static final List<String> SYMBOLS = List.of("::", "<>", "!=", "<=", ">=", "!~*", "!~", "~*", "||",
                "=", "<", ">", "~", "(", ")", ",", ".", "*", ";");

        static List<Token> tokens(String sql) {
            List<Token> tokens = new ArrayList<>();
            int i = 0;
            while (i < sql.length()) {
                char c = sql.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (sql.startsWith("--", i)) {
                    int end = sql.indexOf('\n', i);
                    i = end < 0 ? sql.length() : end;
                } else if (c == '\'' || c == '"') {
                    StringBuilder text = new StringBuilder();
                    int j = i + 1;
                    while (true) {
                        if (j >= sql.length()) {
                            throw new Unread();
                        }
                        if (sql.charAt(j) == c) {
                            if (j + 1 < sql.length() && sql.charAt(j + 1) == c) {
                                text.append(c);
                                j += 2;
                                continue;
                            }
                            break;
                        }
                        text.append(sql.charAt(j++));
                    }
                    tokens.add(new Token(c == '\'' ? Kind.STRING : Kind.QUOTED, text.toString()));
                    i = j + 1;
                } else if (Character.isLetter(c) || c == '_') {
                    int j = i;
                    while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_'
                            || sql.charAt(j) == '$')) {
                        j++;
                    }
                    tokens.add(new Token(Kind.WORD, sql.substring(i, j).toLowerCase(Locale.ROOT)));
                    i = j;
                } else if (Character.isDigit(c) || c == '$') {
                    int j = i + 1;
                    while (j < sql.length() && Character.isDigit(sql.charAt(j))) {
                        j++;
                    }
                    if (c == '$' && j == i + 1 || j - i > 18) {
                        throw new Unread();
                    }
                    tokens.add(new Token(c == '$' ? Kind.PARAM : Kind.NUMBER, sql.substring(c == '$' ? i + 1 : i, j)));
                    i = j;
                } else {
                    int at = i;
                    String symbol = SYMBOLS.stream().filter(s -> sql.startsWith(s, at)).findFirst()
                            .orElseThrow(Unread::new);
                    tokens.add(new Token(Kind.SYMBOL, symbol));
                    i += symbol.length();
                }
            }
            tokens.add(new Token(Kind.END, ""));
            return tokens;
        }
    }

    /** Recursive descent over the tokens; any surprise is {@link Unread}. */
    private static final class Parser {
        private static final List<String> RESERVED = List.of("select", "from", "where", "order", "by", "limit",
                "offset", "and", "or", "not", "as", "asc", "desc", "like", "ilike", "in", "is", "null", "nulls",
                "true", "false", "distinct", "group", "having", "join", "union", "on");
        private static final List<String> INTEGER_TYPES = List.of("int", "int2", "int4", "int8", "integer",
                "smallint", "bigint", "oid");

        private final List<Token> tokens;
        private int at;

        Parser(List<Token> tokens) {
            this.tokens = tokens;
        }

        Select select() {
            expect("select");
            List<Item> items = new ArrayList<>();
            do {
                items.add(item());
            } while (accept(","));
            expect("from");
            String schema = identifier();
            expect(".");
            String name = identifier();
            String alias = alias();
            Expr where = accept("where") ? expr() : null;
            List<Order> order = new ArrayList<>();
            if (accept("order")) {
                expect("by");
                do {
                    Expr e = expr();
                    boolean descending = accept("desc");
                    if (!descending) {
                        accept("asc");
                    }
                    if (accept("nulls") && !accept("last")) {
                        expect("first");
                    }
                    order.add(new Order(e, descending));
                } while (accept(","));
            }
            Long limit = null;
            Long offset = null;
            for (int i = 0; i < 2; i++) {
                if (limit == null && accept("limit")) {
                    limit = accept("all") ? Long.valueOf(Long.MAX_VALUE) : number();
                } else if (offset == null && accept("offset")) {
                    offset = number();
                }
            }
            accept(";");
            if (peek().kind() != Kind.END) {
                throw new Unread();
            }
            return new Select(items, schema, name, alias == null ? name : alias, where, order, limit, offset);
        }

        private Item item() {
            if (accept("*")) {
                return new Item(new Star(null), "*");
            }
            if (peek().kind() != Kind.STRING && ahead(1).is(".") && ahead(2).is("*")) {
                String qualifier = identifier();
                at += 2;
                return new Item(new Star(qualifier), "*");
            }
            Expr e = expr();
            String name = alias();
            if (name == null) {
                name = e instanceof Ref r ? r.column() : e instanceof Call c ? c.function()
                        : e instanceof Cast c && c.value() instanceof Ref r ? r.column() : "?column?";
            }
            return new Item(e, name);
        }

        /** The name given with AS, or with none where a name follows; null when there is none. */
        private String alias() {
            if (accept("as") || peek().kind() == Kind.QUOTED || peek().kind() == Kind.WORD
                    && !RESERVED.contains(peek().text())) {
                return identifier();
            }
            return null;
        }

        private Expr expr() {
            return chain("or", "OR", this::and);
        }

        private Expr and() {
            return chain("and", "AND", this::not);
        }

        /** Operands joined left to right by a binary operator. */
        private Expr chain(String token, String op, java.util.function.Supplier<Expr> operand) {
            Expr left = operand.get();
            while (accept(token)) {
                left = new Binary(op, left, operand.get());
            }
            return left;
        }

        private Expr not() {
            return accept("not") ? new Not(not()) : comparison();
        }

        private Expr comparison() {
            Expr left = concat();
            if (accept("is")) {
                boolean negated = accept("not");
                expect("null");
                return negated ? new Not(new IsNull(left)) : new IsNull(left);
            }
            boolean negated = accept("not");
            Expr e;
            if (accept("like")) {
                e = new Binary("LIKE", left, concat());
            } else if (accept("ilike")) {
                e = new Binary("ILIKE", left, concat());
            } else if (accept("in")) {
                expect("(");
                List<Expr> list = new ArrayList<>();
                do {
                    list.add(concat());
                } while (accept(","));
                expect(")");
                e = new In(left, list);
            } else if (negated) {
                throw new Unread();
            } else {
                for (String op : List.of("=", "<>", "!=", "<=", ">=", "<", ">", "~", "~*", "!~", "!~*")) {
                    if (accept(op)) {
                        Expr right = concat();
                        return switch (op) {
                            case "!=" -> new Binary("<>", left, right);
                            case "!~" -> new Not(new Binary("~", left, right));
                            case "!~*" -> new Not(new Binary("~*", left, right));
                            default -> new Binary(op, left, right);
                        };
                    }
                }
                return left;
            }
            return negated ? new Not(e) : e;
        }

        private Expr concat() {
            return chain("||", "||", this::cast);
        }

        private Expr cast() {
            Expr e = primary();
            while (accept("::")) {
                String type = identifier();
                if (accept(".")) {
                    type = identifier();
                }
                if (accept("(")) {
                    number();
                    expect(")");
                }
                if (type.equals("character") && peek().is("varying")) {
                    at++;
                }
                e = new Cast(e, INTEGER_TYPES.contains(type));
            }
            return e;
        }

        private Expr primary() {
            Token t = next();
            if (t.is("pg_catalog") && accept(".")) {
                t = next();
            }
            switch (t.kind()) {
                case STRING:
                    return new Literal(t.text());
                case NUMBER:
                    return new Literal(Long.parseLong(t.text()));
                case PARAM:
                    return new Param(Integer.parseInt(t.text()));
                case QUOTED:
                    return reference(t.text());
                case SYMBOL:
                    if (t.text().equals("(")) {
                        Expr e = expr();
                        expect(")");
                        return e;
                    }
                    throw new Unread();
                case WORD:
                    break;
                default:
                    throw new Unread();
            }
            switch (t.text()) {
                case "null":
                    return new Literal(null);
                case "true":
                    return new Literal(true);
                case "false":
                    return new Literal(false);
                default:
                    break;
            }
            if (RESERVED.contains(t.text())) {
                throw new Unread();
            }
            if (peek().is("(")) {
                at++;
                String function = t.text();
                if (!Call.KNOWN.contains(function)) {
                    throw new Unread();
                }
                List<Expr> args = new ArrayList<>();
                if (!accept(")")) {
                    do {
                        args.add(expr());
                    } while (accept(","));
                    expect(")");
                }
                return new Call(function, args);
            }
            if (!peek().is(".") && List.of("current_schema", "current_catalog", "current_user").contains(t.text())) {
                return new Call(t.text(), List.of());
            }
            return reference(t.text());
        }

        private Expr reference(String first) {
            if (accept(".")) {
                return new Ref(first, identifier());
            }
            return new Ref(null, first);
        }

        private String identifier() {
            Token t = next();
            if (t.kind() == Kind.QUOTED || t.kind() == Kind.WORD && !RESERVED.contains(t.text())) {
                return t.text();
            }
            throw new Unread();
        }

        private long number() {
            Token t = next();
            if (t.kind() != Kind.NUMBER) {
                throw new Unread();
            }
            return Long.parseLong(t.text());
        }

        private Token peek() {
            return tokens.get(at);
        }

        /** The token {@code n} after the next one, or the end. */
        private Token ahead(int n) {
            return tokens.get(Math.min(at + n, tokens.size() - 1));
        }

        /** The next token, consumed; the end is never passed. */
        private Token next() {
            Token t = peek();
            if (t.kind() == Kind.END) {
                throw new Unread();
            }
            at++;
            return t;
        }

        private boolean accept(String word) {
            if (peek().is(word)) {
                at++;
                return true;
            }
            return false;
        }

        private void expect(String word) {
            if (!accept(word)) {
                throw new Unread();
            }
        }
    }
}
