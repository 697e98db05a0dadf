package io.verso.analyze;

import io.verso.catalog.CheckDef;
import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.Definitions;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.sql.parser.VersoSqlLexer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Token;

/**
 * CHECK constraints: named and checked when a table is created, bound to the table when a write
 * must verify them. A CHECK reads the columns of one row and nothing else: no subquery, no
 * parameter, no aggregate or window, and only the dialect's functions whose value depends on their
 * arguments alone (not now(), current_date, current_timestamp, one-argument age()), so a row that
 * passed keeps passing.
 */
public final class CheckConstraints {

    /**
     * A check bound to its table's current rows, read under the table's own name: its column names, all
     * unqualified, are the table's (the read analyzer checked them), so they are emitted as written.
     */
    public record Bound(CheckDef def, Expr expr) {
    }

    /**
     * The bound checks of a table definition, parsed and analysed once per definition (a catalog version's
     * table), not at every write that verifies them.
     */
    private static final com.github.benmanes.caffeine.cache.Cache<TableDef, List<Bound>> BOUND =
            com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(1_000).build();

    private static final Set<String> CLOCK = Set.of("now", "current_date", "current_timestamp");

    private CheckConstraints() {
    }

    /**
     * The checks of a CREATE TABLE for {@code table} (its columns defined), in declaration order, named
     * as given or as PostgreSQL names them ({@code t_col_check} on a column, {@code t_check}, {@code t_check1}
     * ... on the table). {@code hidden} are names a check may not read (implicit period columns).
     */
    public static List<CheckDef> define(Statement.CreateTable create, TableDef table) {
        List<CheckDef> defs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Statement.Check check : create.checks()) {
            validate(check.expr());
            try {
                bind(table, check.expr());
            } catch (VersoException.UserError e) {
                if (e.code() != ErrorCode.TYPE_MISMATCH && e.code() != ErrorCode.INVALID_VALUE) {
                    throw e;
                }
                // A CHECK that cannot hold is a bad definition, refused where its mistake is.
                throw VersoException.at(ErrorCode.INVALID_DEFINITION, "CHECK constraint is not a valid condition: "
                        + e.getMessage(), new Pos(e.origin()));
            }
            String name;
            if (check.name() != null) {
                DdlAnalyzer.checkName(check.name(), "constraint");
                name = check.name().name();
                if (!names.add(name)) {
                    throw VersoException.at(ErrorCode.DUPLICATE_NAME, "constraint '" + name + "' is declared twice",
                            check.name().pos());
                }
            } else {
                String base = table.name() + (check.column() == null ? "" : "_" + check.column().name()) + "_check";
                name = base;
                for (int n = 1; names.contains(name); n++) {
                    name = base + n;
                }
                names.add(name);
            }
            defs.add(new CheckDef(name, check.text()));
        }
        return defs;
    }

    /** A stored check bound to the table as it is now (its text parsed once, {@link Definitions}). */
    public static Bound bind(TableDef table, CheckDef check) {
        Expr expr = parse(check);
        bind(table, expr);
        return new Bound(check, expr);
    }

    /** Every check of the table, bound ({@link #bind}), from the cache of its definition. */
    public static List<Bound> bound(TableDef table) {
        if (table.checks().isEmpty()) {
            return List.of();
        }
        return BOUND.get(table, t -> t.checks().stream().map(c -> bind(t, c)).toList());
    }

    /** The columns a stored check reads. */
    public static Set<String> columns(CheckDef check) {
        Set<String> columns = new LinkedHashSet<>();
        collect(parse(check), columns);
        return columns;
    }

    private static void collect(Expr expr, Set<String> columns) {
        if (expr instanceof Expr.ColumnRef ref) {
            columns.add(ref.column().name());
        }
        ReadAnalyzer.children(expr).forEach(e -> collect(e, columns));
    }

    private static Expr parse(CheckDef check) {
        return Definitions.expression(check.expression());
    }

    /**
     * Binds the check with the read analyzer, as {@code SELECT expr FROM table} (names, functions, types, at
     * their positions); a CHECK reads the table's own columns only, not its period columns.
     */
    private static void bind(TableDef table, Expr expr) {
        Set<String> own = new HashSet<>(table.columns().stream().map(c -> c.name()).toList());
        refuseOthers(expr, own, table);
        Ident self = new Ident(table.name(), expr.pos());
        ReadAnalyzer.matched(self, List.of(expr), null, "a CHECK constraint", name -> table,
                new AsOfResolver(List.of(), 0), 0);
    }

    private static void refuseOthers(Expr expr, Set<String> own, TableDef table) {
        if (expr instanceof Expr.ColumnRef ref && ref.qualifier() == null && !own.contains(ref.column().name())) {
            throw Refusals.unknownColumn(ref.column().name(), table.name(), ref.pos());
        }
        ReadAnalyzer.children(expr).forEach(e -> refuseOthers(e, own, table));
    }

    private static void validate(Expr expr) {
        if (expr instanceof Expr.Subquery || expr instanceof Expr.Exists || expr instanceof Expr.InSubquery
                || expr instanceof Expr.Quantified) {
            throw refused("a subquery", expr.pos());
        }
        if (expr instanceof Expr.Parameter) {
            throw refused("a ? parameter", expr.pos());
        }
        if (expr instanceof Expr.ColumnRef ref && ref.qualifier() != null) {
            throw refused("a qualified column name (" + ref.qualifier().name() + "." + ref.column().name()
                    + "): name the column alone", ref.pos());
        }
        if (expr instanceof Expr.FunctionCall f) {
            String name = f.name().name();
            if (f.over() != null) {
                throw refused("a window function", f.pos());
            }
            Function function = Function.resolve(f);
            if (function.kind != Function.Kind.SCALAR && function.kind != Function.Kind.BARE) {
                throw refused("an aggregate (" + name + ")", f.pos());
            }
            if (CLOCK.contains(function.sqlName()) || (function == Function.AGE && f.args().size() == 1)) {
                throw refused(function.sqlName() + "(), whose value depends on when the row is checked", f.pos());
            }
        }
        ReadAnalyzer.children(expr).forEach(CheckConstraints::validate);
    }

    private static VersoException refused(String what, Pos pos) {
        return VersoException.at(ErrorCode.INVALID_DEFINITION, "a CHECK constraint reads the columns of its row only "
                + "and cannot use " + what, pos);
    }

    /** The checks left when {@code column} is dropped: those that read it go with it, as in PostgreSQL. */
    public static List<CheckDef> withoutColumn(TableDef table, String column) {
        return table.checks().stream().filter(c -> !columns(c).contains(column)).toList();
    }

    /**
     * The checks after RENAME COLUMN: each reference to the column rewritten in the stored text (token by
     * token, the rest kept as written). A text the rewrite would not read back as the same expression over
     * the renamed column is refused rather than guessed at.
     */
    public static List<CheckDef> renamed(TableDef table, Ident from, String to) {
        List<CheckDef> out = new ArrayList<>();
        for (CheckDef check : table.checks()) {
            Set<String> before = columns(check);
            if (!before.contains(from.name())) {
                out.add(check);
                continue;
            }
            StringBuilder text = new StringBuilder();
            List<? extends Token> tokens = new VersoSqlLexer(CharStreams.fromString(check.expression())).getAllTokens();
            for (int i = 0; i < tokens.size(); i++) {
                Token token = tokens.get(i);
                boolean name = token.getType() == VersoSqlLexer.IDENTIFIER
                        || token.getType() == VersoSqlLexer.QUOTED_IDENTIFIER;
                if (name && identifier(token).equals(from.name()) && !nextIs(tokens, i, VersoSqlLexer.LPAREN)) {
                    text.append(DdlAnalyzer.quoteIfNeeded(to));
                } else {
                    text.append(token.getText());
                }
            }
            CheckDef rewritten = new CheckDef(check.name(), text.toString());
            Set<String> expected = new LinkedHashSet<>();
            before.forEach(c -> expected.add(c.equals(from.name()) ? to : c));
            if (!columns(rewritten).equals(expected)) {
                throw VersoException.at(ErrorCode.INVALID_ALTER, "column '" + from.name() + "' of " + table.name()
                        + " is read by CHECK constraint " + check.name() + " (" + check.expression() + ") in a way "
                        + "the rename cannot rewrite", from.pos());
            }
            out.add(rewritten);
        }
        return out;
    }

    private static boolean nextIs(List<? extends Token> tokens, int i, int type) {
        for (int j = i + 1; j < tokens.size(); j++) {
            if (tokens.get(j).getChannel() == Token.DEFAULT_CHANNEL) {
                return tokens.get(j).getType() == type;
            }
        }
        return false;
    }

    /** An identifier token's name: unquoted names fold to lower case, quoted ones keep their text. */
    private static String identifier(Token token) {
        String text = token.getText();
        if (token.getType() == VersoSqlLexer.QUOTED_IDENTIFIER) {
            return text.substring(1, text.length() - 1).replace("\"\"", "\"");
        }
        return text.toLowerCase(java.util.Locale.ROOT);
    }
}
