package io.verso.compile;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.ArrayList;
import java.util.List;

/**
 * The only way SQL text is made. Fixed fragments come from the compiler's own string constants,
 * names go through {@link #ident}, and every value becomes a bind parameter through {@link #bind}:
 * nothing the user typed is ever appended as text.
 */
public final class SqlBuilder {

    /**
     * Most characters of SQL one statement may compile to. The {@code ||} guard (ExprCompiler) writes each term
     * of a chain twice, so chains nested in each other's terms double the text per level: twenty levels of
     * {@code upper(x || 'a')}, a few hundred characters, would compile to gigabytes and end the JVM. Legitimate
     * statements compile to a small multiple of their text (values travel as binds).
     */
    static final int MAX_CHARS = 32 << 20;

    /** Stands, among the binds, for the number of guarded values of the statement until {@link #build} knows it. */
    private static final Object GUARDED_VALUES = new Object();

    private final StringBuilder sql = new StringBuilder();
    private final List<Object> binds = new ArrayList<>();
    private int guardedValues;

    /** Appends a fragment of the compiler's own SQL. Never pass user text here. */
    public SqlBuilder sql(String fragment) {
        sql.append(fragment);
        if (sql.length() > MAX_CHARS) {
            throw tooLarge();
        }
        return this;
    }

    /** STATEMENT_TOO_LARGE: the statement would compile to more than {@link #MAX_CHARS} characters. */
    static VersoException.UserError tooLarge() {
        return VersoException.user(ErrorCode.STATEMENT_TOO_LARGE, "the statement compiles to more than " + MAX_CHARS
                + " characters of SQL (|| chains nested in each other's terms double it at each level); "
                + "simplify or split it");
    }

    /** Appends an identifier, validated and double-quoted. */
    public SqlBuilder ident(String name) {
        quoted(name);
        return this;
    }

    /** Appends a physical table of user data: {@code "verso_data"."t7_cur"}. */
    public SqlBuilder table(String table) {
        quoted(io.verso.catalog.TableDef.DATA_SCHEMA).append('.');
        quoted(table);
        return this;
    }

    /** Appends {@code "qualifier"."name"}. */
    public SqlBuilder qualified(String qualifier, String name) {
        quoted(qualifier).append('.');
        quoted(name);
        return this;
    }

    /** Appends a placeholder for a value. */
    public SqlBuilder bind(Object value) {
        sql.append('?');
        binds.add(value);
        return this;
    }

    /**
     * Appends, as a bind, the number of values of the whole statement that a size guard checks, this one
     * counted (ExprCompiler): they share one bound, for PostgreSQL holds all of a row's values at once.
     */
    public SqlBuilder guardedValues() {
        guardedValues++;
        sql.append('?');
        binds.add(GUARDED_VALUES);
        return this;
    }

    /**
     * Appends an integer the compiler itself produced (a group id, a sort ordinal already range-checked).
     * Inlined rather than bound because PostgreSQL treats a bound ORDER BY ordinal as a constant.
     */
    public SqlBuilder number(long trusted) {
        sql.append(trusted);
        return this;
    }

    private static final java.util.regex.Pattern NUMERAL =
            java.util.regex.Pattern.compile("-?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");

    /**
     * Appends a numeric literal of the statement as written, after checking it is nothing but a numeral.
     * Inlined rather than bound because PostgreSQL matches GROUP BY expressions with the select list,
     * HAVING and ORDER BY structurally, and each bind parameter is a node of its own: {@code ix % ?} in
     * SELECT is not {@code ix % ?} in GROUP BY. A numeral inlined is typed by PostgreSQL exactly as the
     * bound value was (int4, int8 or numeric by size, numeric with a point), and cannot hold anything else.
     */
    public SqlBuilder numeral(String literal) {
        if (!isNumeral(literal)) {
            throw new IllegalArgumentException("not a numeral: " + literal);
        }
        // A negative numeral in parentheses: after another minus, "-" "-1" must not read as a comment.
        sql.append(literal.startsWith("-") ? "(" + literal + ")" : literal);
        return this;
    }

    public static boolean isNumeral(String literal) {
        return literal != null && NUMERAL.matcher(literal).matches();
    }

    public CompiledSql build() {
        List<Object> values = new ArrayList<>(binds);
        if (guardedValues > 0) {
            values.replaceAll(v -> v == GUARDED_VALUES ? (Object) guardedValues : v);
        }
        // Not List.copyOf: a bind may be NULL.
        return new CompiledSql(sql.toString(), java.util.Collections.unmodifiableList(values));
    }

    /**
     * Quotes an identifier for PostgreSQL. The one function every name passes through: refuses what
     * cannot be a name at all, and doubles embedded quotes so the name can never end the quoting.
     */
    public static String quote(String name) {
        return quote(new StringBuilder(name == null ? 2 : name.length() + 2), name).toString();
    }

    /** {@link #quote} straight into this statement's text: a read's compile names every column it reads. */
    private StringBuilder quoted(String name) {
        return quote(sql, name);
    }

    private static StringBuilder quote(StringBuilder out, String name) {
        if (name == null || name.isEmpty() || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not an identifier: " + name);
        }
        // String.replace returns the name itself when it holds no quote.
        return out.append('"').append(name.replace("\"", "\"\"")).append('"');
    }
}
