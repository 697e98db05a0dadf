package io.verso.sql;

import io.verso.catalog.IndexScope;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.AsOf;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Expr.LiteralKind;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.sql.ast.Statement.Assignment;
import io.verso.sql.ast.Statement.ColumnDefinition;
import io.verso.sql.ast.Statement.GroupDefinition;
import io.verso.sql.ast.Statement.Ordering;
import io.verso.sql.ast.Statement.SelectItem;
import io.verso.sql.ast.TypeSpec;
import io.verso.sql.parser.VersoSqlParser;
import io.verso.sql.parser.VersoSqlParser.*;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;

/** Syntax tree to AST: folds case, unescapes literals, numbers placeholders, normalises AS OF. */
final class AstBuilder {

    /** PostgreSQL truncates longer identifiers; refuse them rather than let two names collide. */
    static final int MAX_IDENTIFIER_BYTES = 63;

    private final Map<Integer, Integer> parameterIndexByToken = new HashMap<>();

    AstBuilder(CommonTokenStream tokens) {
        // Placeholders are numbered in text order over the whole request, whatever order we visit in.
        for (Token token : tokens.getTokens()) {
            if (token.getType() == VersoSqlParser.QUESTION) {
                parameterIndexByToken.put(token.getTokenIndex(), parameterIndexByToken.size());
            }
        }
    }

    int parameterCount() {
        return parameterIndexByToken.size();
    }

    Statement statement(StatementContext ctx) {
        if (ctx.createTable() != null) return createTable(ctx.createTable());
        if (ctx.dropTable() != null) {
            DropTableContext c = ctx.dropTable();
            return new Statement.DropTable(ident(c.identifier()), c.EXISTS() != null, pos(c));
        }
        if (ctx.alterTable() != null) return alterTable(ctx.alterTable());
        if (ctx.createIndex() != null) return createIndex(ctx.createIndex());
        if (ctx.dropIndex() != null) {
            DropIndexContext c = ctx.dropIndex();
            return new Statement.DropIndex(ident(c.identifier()), c.EXISTS() != null, pos(c));
        }
        if (ctx.deleteHistory() != null) {
            DeleteHistoryContext c = ctx.deleteHistory();
            return new Statement.DeleteHistory(ident(c.identifier()), commitRef(c.commitRef(), pos(c.commitRef())), pos(c));
        }
        if (ctx.erase() != null) {
            EraseContext c = ctx.erase();
            return new Statement.Erase(ident(c.identifier()), expr(c.expression()), pos(c));
        }
        if (ctx.showTables() != null) return new Statement.ShowTables(pos(ctx));
        if (ctx.showCreateTable() != null) {
            return new Statement.ShowCreateTable(ident(ctx.showCreateTable().identifier()), pos(ctx));
        }
        if (ctx.describe() != null) return new Statement.Describe(ident(ctx.describe().identifier()), pos(ctx));
        if (ctx.upsert() != null) {
            UpsertContext c = ctx.upsert();
            return new Statement.InsertRows(true, ident(c.identifier(0)), identList(c.identifierList()),
                    values(c.valuesClause()), c.group == null ? null : ident(c.group), pos(c));
        }
        if (ctx.insert() != null) {
            InsertContext c = ctx.insert();
            return new Statement.InsertRows(false, ident(c.identifier()), identList(c.identifierList()),
                    values(c.valuesClause()), null, pos(c));
        }
        if (ctx.update() != null) {
            UpdateContext c = ctx.update();
            return new Statement.Update(ident(c.identifier()), c.assignment().stream().map(this::assignment).toList(),
                    c.where == null ? null : expr(c.where), pos(c));
        }
        if (ctx.delete() != null) {
            DeleteContext c = ctx.delete();
            return new Statement.Delete(ident(c.identifier()), c.where == null ? null : expr(c.where),
                    c.assignment().stream().map(this::assignment).toList(), pos(c));
        }
        return select(ctx.select());
    }

    // ---- DDL -----------------------------------------------------------------------------------

    private Statement createTable(CreateTableContext ctx) {
        List<ColumnDefinition> columns = new ArrayList<>();
        List<Ident> primaryKey = new ArrayList<>();
        List<GroupDefinition> groups = new ArrayList<>();
        boolean keySeen = false;
        for (TableElementContext element : ctx.tableElement()) {
            if (element instanceof ColumnElementContext c) {
                columns.add(columnDefinition(c.columnDefinition()));
                if (c.columnDefinition().columnConstraint().stream().anyMatch(k -> k instanceof PrimaryKeyConstraintContext)) {
                    if (keySeen) {
                        throw VersoException.at(ErrorCode.INVALID_DEFINITION, "PRIMARY KEY is declared twice", pos(c));
                    }
                    keySeen = true;
                    primaryKey.add(ident(c.columnDefinition().identifier()));
                }
            } else if (element instanceof PrimaryKeyElementContext c) {
                if (keySeen) {
                    throw VersoException.at(ErrorCode.INVALID_DEFINITION, "PRIMARY KEY is declared twice", pos(c));
                }
                keySeen = true;
                primaryKey.addAll(identList(c.identifierList()));
            } else if (element instanceof GroupElementContext c) {
                groups.add(new GroupDefinition(ident(c.name), identList(c.identifierList()),
                        ordering(c.orderingClause()), pos(c)));
            }
        }
        Statement.Mode mode = ctx.tableMode == null ? null : Statement.Mode.valueOf(ctx.tableMode.getText().toUpperCase(Locale.ROOT));
        return new Statement.CreateTable(ident(ctx.name), ctx.EXISTS() != null, columns, primaryKey, groups, mode,
                ordering(ctx.orderingClause()), pos(ctx));
    }

    private Ordering ordering(List<OrderingClauseContext> clauses) {
        List<Ident> valid = null;
        List<Ident> revision = null;
        for (OrderingClauseContext clause : clauses) {
            boolean isValid = clause.kind.getType() == VersoSqlParser.VALID;
            if ((isValid ? valid : revision) != null) {
                throw VersoException.at(ErrorCode.INVALID_DEFINITION,
                        (isValid ? "VALID BY" : "REVISION BY") + " is given twice", pos(clause));
            }
            if (isValid) {
                valid = identList(clause.identifierList());
            } else {
                revision = identList(clause.identifierList());
            }
        }
        return new Ordering(valid == null ? List.of() : valid, revision == null ? List.of() : revision);
    }

    private ColumnDefinition columnDefinition(ColumnDefinitionContext ctx) {
        boolean notNull = false;
        Expr.Literal defaultValue = null;
        for (ColumnConstraintContext constraint : ctx.columnConstraint()) {
            if (constraint instanceof NotNullConstraintContext) {
                notNull = true;
            } else if (constraint instanceof DefaultConstraintContext d) {
                defaultValue = literal(d.literal());
            }
        }
        return new ColumnDefinition(ident(ctx.identifier()), typeSpec(ctx.typeName()), notNull, defaultValue, pos(ctx));
    }

    private TypeSpec typeSpec(TypeNameContext ctx) {
        if (ctx instanceof DoubleTypeContext) {
            return new TypeSpec("double precision", null, null, pos(ctx));
        }
        if (ctx instanceof TimestampTypeContext t) {
            Integer precision = t.INTEGER_VALUE() == null ? null : smallInt(t.INTEGER_VALUE().getSymbol());
            return new TypeSpec(t.WITH() != null ? "timestamptz" : "timestamp", precision, null, pos(ctx));
        }
        NamedTypeContext n = (NamedTypeContext) ctx;
        List<org.antlr.v4.runtime.tree.TerminalNode> mods = n.INTEGER_VALUE();
        return new TypeSpec(ident(n.identifier()).name(),
                mods.isEmpty() ? null : smallInt(mods.get(0).getSymbol()),
                mods.size() < 2 ? null : smallInt(mods.get(1).getSymbol()), pos(ctx));
    }

    private static Integer smallInt(Token token) {
        try {
            return Integer.parseInt(token.getText());
        } catch (NumberFormatException e) {
            throw VersoException.at(ErrorCode.UNKNOWN_TYPE, "type modifier " + token.getText() + " is too large", pos(token));
        }
    }

    private Statement alterTable(AlterTableContext ctx) {
        Ident table = ident(ctx.table);
        Pos pos = pos(ctx);
        AlterActionContext action = ctx.alterAction();
        if (action instanceof AddColumnContext a) {
            return new Statement.AddColumn(table, columnDefinition(a.columnDefinition()),
                    a.group == null ? null : ident(a.group), pos);
        }
        if (action instanceof DropColumnContext d) {
            return new Statement.DropColumn(table, ident(d.identifier()), pos);
        }
        if (action instanceof RenameColumnContext r) {
            return new Statement.RenameColumn(table, ident(r.from), ident(r.to), pos);
        }
        if (action instanceof RenameTableContext r) {
            return new Statement.RenameTable(table, ident(r.identifier()), pos);
        }
        if (action instanceof SetRetentionContext r) {
            RetentionContext retention = r.retention();
            if (retention.STRING() != null) {
                return new Statement.SetRetention(table, null, unquote(retention.STRING().getText(), '\''), pos);
            }
            try {
                long commits = Long.parseLong(retention.INTEGER_VALUE().getText());
                if (commits < 1) {
                    throw new NumberFormatException();
                }
                return new Statement.SetRetention(table, commits, null, pos);
            } catch (NumberFormatException e) {
                throw VersoException.at(ErrorCode.INVALID_DEFINITION,
                        "history retention keeps a positive number of commits, not " + retention.getText(), pos(retention));
            }
        }
        if (action instanceof ResetRetentionContext) {
            return new Statement.SetRetention(table, null, null, pos);
        }
        if (action instanceof ChangeModeContext) {
            return new Statement.ChangeOrdering(table, "mode", pos);
        }
        return new Statement.ChangeOrdering(table, "ordering columns", pos);
    }

    private Statement createIndex(CreateIndexContext ctx) {
        IndexScope scope = ctx.scope == null ? IndexScope.CURRENT
                : IndexScope.valueOf(ctx.scope.getText().toUpperCase(Locale.ROOT));
        return new Statement.CreateIndex(ident(ctx.name), ctx.EXISTS() != null, ident(ctx.table),
                identList(ctx.identifierList()), scope, pos(ctx));
    }

    // ---- writes --------------------------------------------------------------------------------

    private List<List<Expr>> values(ValuesClauseContext ctx) {
        List<List<Expr>> rows = new ArrayList<>(ctx.valuesRow().size());
        for (ValuesRowContext row : ctx.valuesRow()) {
            List<Expr> items = new ArrayList<>(row.valuesItem().size());
            for (ValuesItemContext item : row.valuesItem()) {
                items.add(valuesItem(item));
            }
            rows.add(items);
        }
        return rows;
    }

    private Expr valuesItem(ValuesItemContext ctx) {
        if (ctx.literal() != null) {
            return literal(ctx.literal());
        }
        Expr parameter = new Expr.Parameter(parameterIndexByToken.get(ctx.QUESTION().getSymbol().getTokenIndex()),
                pos(ctx.QUESTION().getSymbol()));
        return ctx.MINUS() == null ? parameter : new Expr.Unary(Expr.UnaryOp.MINUS, parameter, pos(ctx));
    }

    private Assignment assignment(AssignmentContext ctx) {
        return new Assignment(ident(ctx.identifier()), expr(ctx.expression()));
    }

    // ---- reads ---------------------------------------------------------------------------------

    private Statement.Select select(SelectContext ctx) {
        List<SelectItem> items = ctx.selectItem().stream().map(this::selectItem).toList();
        Statement.Relation from = relation(ctx.relation());
        List<Statement.Join> joins = ctx.joinClause().stream()
                .map(j -> new Statement.Join(j.LEFT() != null ? Statement.JoinType.LEFT : Statement.JoinType.INNER,
                        relation(j.relation()), expr(j.expression())))
                .toList();
        List<Statement.SortItem> orderBy = ctx.sortItem().stream()
                .map(s -> new Statement.SortItem(expr(s.expression()),
                        s.ordering != null && s.ordering.getType() == VersoSqlParser.DESC,
                        s.nullOrdering == null ? null : s.nullOrdering.getType() == VersoSqlParser.FIRST))
                .toList();
        return new Statement.Select(ctx.DISTINCT() != null, items, from, joins,
                ctx.where == null ? null : expr(ctx.where),
                ctx.groupBy.stream().map(this::expr).toList(),
                ctx.having == null ? null : expr(ctx.having),
                orderBy, asOf(ctx.asOf()),
                ctx.limit == null ? null : expr(ctx.limit),
                ctx.offset == null ? null : expr(ctx.offset), pos(ctx));
    }

    private SelectItem selectItem(SelectItemContext ctx) {
        if (ctx instanceof SelectAllContext) {
            return new SelectItem.All(pos(ctx));
        }
        if (ctx instanceof SelectAllOfContext a) {
            return new SelectItem.AllOf(ident(a.qualifier), pos(ctx));
        }
        SelectExpressionContext e = (SelectExpressionContext) ctx;
        return new SelectItem.Item(expr(e.expression()), e.alias == null ? null : ident(e.alias), pos(ctx));
    }

    private Statement.Relation relation(RelationContext ctx) {
        RelationPrimaryContext primary = ctx.relationPrimary();
        boolean history = primary instanceof HistoryRelationContext;
        QualifiedNameContext name = history ? ((HistoryRelationContext) primary).qualifiedName()
                : ((TableRelationContext) primary).qualifiedName();
        return new Statement.Relation(tableName(name), history, asOf(ctx.asOf()),
                ctx.alias == null ? null : ident(ctx.alias), pos(ctx));
    }

    private Ident tableName(QualifiedNameContext ctx) {
        if (ctx.identifier().size() > 1) {
            throw VersoException.at(ErrorCode.SCHEMA_QUALIFIED_NAME,
                    "table names are never schema-qualified: '" + ctx.getText() + "'", pos(ctx));
        }
        return ident(ctx.identifier(0));
    }

    private AsOf asOf(List<AsOfContext> clauses) {
        if (clauses.isEmpty()) {
            return null;
        }
        if (clauses.size() > 1) {
            throw VersoException.at(ErrorCode.AS_OF_DUPLICATE, "AS OF COMMIT is given twice in the same place",
                    pos(clauses.get(1)));
        }
        return commitRef(clauses.get(0).commitRef(), pos(clauses.get(0)));
    }

    private AsOf commitRef(CommitRefContext ctx, Pos pos) {
        if (ctx.QUESTION() != null) {
            return new AsOf.AtParameter(parameterIndexByToken.get(ctx.QUESTION().getSymbol().getTokenIndex()), pos);
        }
        String text = ctx.getText();
        if (ctx.number() == null || ctx.number().DECIMAL_VALUE() != null) {
            throw VersoException.at(ErrorCode.AS_OF_NOT_INTEGER,
                    "AS OF COMMIT takes a commit sequence, a positive integer, not " + text, pos);
        }
        if (ctx.MINUS() != null || text.chars().allMatch(ch -> ch == '0')) {
            throw VersoException.at(ErrorCode.AS_OF_NOT_POSITIVE,
                    "AS OF COMMIT takes a positive commit sequence, not " + text, pos);
        }
        try {
            return new AsOf.AtCommit(Long.parseLong(text), pos);
        } catch (NumberFormatException e) {
            throw VersoException.at(ErrorCode.AS_OF_BEYOND_LATEST, "commit " + text + " is after the latest commit", pos);
        }
    }

    // ---- expressions ---------------------------------------------------------------------------

    Expr expr(ExpressionContext ctx) {
        return bool(ctx.booleanExpression());
    }

    private Expr bool(BooleanExpressionContext ctx) {
        if (ctx instanceof LogicalNotContext n) {
            return new Expr.Not(bool(n.booleanExpression()), pos(ctx));
        }
        if (ctx instanceof LogicalBinaryContext b) {
            return new Expr.Binary(b.op.getType() == VersoSqlParser.AND ? Expr.BinaryOp.AND : Expr.BinaryOp.OR,
                    bool(b.left), bool(b.right), pos(ctx));
        }
        PredicatedContext p = ((PredicatedExpressionContext) ctx).predicated();
        Expr value = value(p.valueExpression());
        PredicateContext predicate = p.predicate();
        if (predicate == null) {
            return value;
        }
        Pos pos = pos(p);
        if (predicate instanceof ComparisonContext c) {
            return new Expr.Binary(comparison(c.comparisonOperator()), value, value(c.right), pos);
        }
        if (predicate instanceof BetweenContext b) {
            return new Expr.Between(b.NOT() != null, value, value(b.lower), value(b.upper), pos);
        }
        if (predicate instanceof InListContext in) {
            return new Expr.InList(in.NOT() != null, value, in.expression().stream().map(this::expr).toList(), pos);
        }
        if (predicate instanceof LikeContext l) {
            return new Expr.Like(l.NOT() != null, l.op.getType() == VersoSqlParser.ILIKE, value, value(l.pattern), pos);
        }
        return new Expr.IsNull(((NullPredicateContext) predicate).NOT() != null, value, pos);
    }

    private static Expr.BinaryOp comparison(ComparisonOperatorContext ctx) {
        return switch (ctx.getStart().getType()) {
            case VersoSqlParser.EQ -> Expr.BinaryOp.EQ;
            case VersoSqlParser.NEQ -> Expr.BinaryOp.NEQ;
            case VersoSqlParser.LT -> Expr.BinaryOp.LT;
            case VersoSqlParser.LTE -> Expr.BinaryOp.LTE;
            case VersoSqlParser.GT -> Expr.BinaryOp.GT;
            default -> Expr.BinaryOp.GTE;
        };
    }

    private Expr value(ValueExpressionContext ctx) {
        if (ctx instanceof ArithmeticUnaryContext u) {
            Expr operand = value(u.valueExpression());
            boolean minus = u.op.getType() == VersoSqlParser.MINUS;
            // Fold a sign into a numeric literal so that -5 stays a literal (and a valid DEFAULT).
            if (minus && operand instanceof Expr.Literal lit
                    && (lit.kind() == LiteralKind.INTEGER || lit.kind() == LiteralKind.DECIMAL)
                    && !lit.text().startsWith("-")) {
                return new Expr.Literal(lit.kind(), "-" + lit.text(), pos(ctx));
            }
            return new Expr.Unary(minus ? Expr.UnaryOp.MINUS : Expr.UnaryOp.PLUS, operand, pos(ctx));
        }
        if (ctx instanceof ArithmeticBinaryContext b) {
            Expr.BinaryOp op = switch (b.op.getType()) {
                case VersoSqlParser.ASTERISK -> Expr.BinaryOp.MULTIPLY;
                case VersoSqlParser.SLASH -> Expr.BinaryOp.DIVIDE;
                case VersoSqlParser.PERCENT -> Expr.BinaryOp.MODULO;
                case VersoSqlParser.PLUS -> Expr.BinaryOp.ADD;
                case VersoSqlParser.MINUS -> Expr.BinaryOp.SUBTRACT;
                default -> Expr.BinaryOp.CONCAT;
            };
            return new Expr.Binary(op, value(b.left), value(b.right), pos(ctx));
        }
        return primary(((ValueDefaultContext) ctx).primaryExpression());
    }

    private Expr primary(PrimaryExpressionContext ctx) {
        Pos pos = pos(ctx);
        if (ctx instanceof NullLiteralContext) {
            return new Expr.Literal(LiteralKind.NULL, null, pos);
        }
        if (ctx instanceof BooleanLiteralContext b) {
            return new Expr.Literal(LiteralKind.BOOLEAN, b.TRUE() != null ? "true" : "false", pos);
        }
        if (ctx instanceof NumericLiteralContext n) {
            return number(n.number(), false, pos);
        }
        if (ctx instanceof StringLiteralContext s) {
            return new Expr.Literal(LiteralKind.STRING, unquote(s.STRING().getText(), '\''), pos);
        }
        if (ctx instanceof TypedLiteralContext t) {
            return new Expr.Literal(t.kind.getType() == VersoSqlParser.DATE ? LiteralKind.DATE : LiteralKind.TIMESTAMP,
                    unquote(t.STRING().getText(), '\''), pos);
        }
        if (ctx instanceof ParameterContext p) {
            return new Expr.Parameter(parameterIndexByToken.get(p.QUESTION().getSymbol().getTokenIndex()), pos);
        }
        if (ctx instanceof CastContext c) {
            return new Expr.Cast(expr(c.expression()), typeSpec(c.typeName()), pos);
        }
        if (ctx instanceof CaseExpressionContext c) {
            List<Expr.When> whens = c.whenClause().stream()
                    .map(w -> new Expr.When(expr(w.condition), expr(w.result))).toList();
            return new Expr.Case(c.operand == null ? null : expr(c.operand), whens,
                    c.elseExpression == null ? null : expr(c.elseExpression), pos);
        }
        if (ctx instanceof CountStarContext c) {
            return new Expr.FunctionCall(ident(c.identifier()), false, true, List.of(), pos);
        }
        if (ctx instanceof FunctionCallContext f) {
            return new Expr.FunctionCall(ident(f.identifier()), f.DISTINCT() != null, false,
                    f.expression().stream().map(this::expr).toList(), pos);
        }
        if (ctx instanceof DereferenceContext d) {
            if (d.identifier().size() > 2) {
                throw VersoException.at(ErrorCode.SCHEMA_QUALIFIED_NAME,
                        "names are never schema-qualified: '" + d.getText() + "'", pos);
            }
            return new Expr.ColumnRef(ident(d.identifier(0)), ident(d.identifier(1)), pos);
        }
        if (ctx instanceof ColumnReferenceContext c) {
            return new Expr.ColumnRef(null, ident(c.identifier()), pos);
        }
        return expr(((ParenthesizedContext) ctx).expression());
    }

    private Expr.Literal literal(LiteralContext ctx) {
        Pos pos = pos(ctx);
        if (ctx.number() != null) {
            return number(ctx.number(), ctx.MINUS() != null, pos);
        }
        if (ctx.NULL() != null) {
            return new Expr.Literal(LiteralKind.NULL, null, pos);
        }
        if (ctx.TRUE() != null || ctx.FALSE() != null) {
            return new Expr.Literal(LiteralKind.BOOLEAN, ctx.TRUE() != null ? "true" : "false", pos);
        }
        String text = unquote(ctx.STRING().getText(), '\'');
        if (ctx.DATE() != null) {
            return new Expr.Literal(LiteralKind.DATE, text, pos);
        }
        if (ctx.TIMESTAMP() != null) {
            return new Expr.Literal(LiteralKind.TIMESTAMP, text, pos);
        }
        return new Expr.Literal(LiteralKind.STRING, text, pos);
    }

    private static Expr.Literal number(NumberContext ctx, boolean negative, Pos pos) {
        LiteralKind kind = ctx.INTEGER_VALUE() != null ? LiteralKind.INTEGER : LiteralKind.DECIMAL;
        return new Expr.Literal(kind, (negative ? "-" : "") + ctx.getText(), pos);
    }

    // ---- names ---------------------------------------------------------------------------------

    private List<Ident> identList(IdentifierListContext ctx) {
        return ctx == null ? List.of() : ctx.identifier().stream().map(this::ident).toList();
    }

    Ident ident(IdentifierContext ctx) {
        String name = ctx instanceof QuotedIdentifierContext q
                ? unquote(q.QUOTED_IDENTIFIER().getText(), '"')
                : ctx.getText().toLowerCase(Locale.ROOT);
        Pos pos = pos(ctx);
        if (name.isEmpty() || name.indexOf('\0') >= 0) {
            throw VersoException.at(ErrorCode.SYNTAX_ERROR, "an identifier cannot be empty or hold a NUL character",
                    pos);
        }
        if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_IDENTIFIER_BYTES) {
            throw VersoException.at(ErrorCode.NAME_TOO_LONG,
                    "name '" + name + "' is longer than " + MAX_IDENTIFIER_BYTES + " bytes", pos);
        }
        return new Ident(name, pos);
    }

    private static String unquote(String text, char quote) {
        String doubled = String.valueOf(quote) + quote;
        return text.substring(1, text.length() - 1).replace(doubled, String.valueOf(quote));
    }

    private static Pos pos(ParserRuleContext ctx) {
        return pos(ctx.getStart());
    }

    private static Pos pos(Token token) {
        return new Pos(token.getLine(), token.getCharPositionInLine() + 1);
    }
}
