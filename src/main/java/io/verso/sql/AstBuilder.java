package io.verso.sql;

import io.verso.catalog.IndexScope;
import io.verso.error.ErrorCode;
import io.verso.error.Refusals;
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
import io.verso.sql.ast.Query;
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
            AsOf before = c.commitRef() != null ? commitRef(c.commitRef(), pos(c.commitRef()))
                    : c.valueExpression() != null ? new AsOf.SystemTime(AsOf.SystemTimeKind.AS_OF,
                            value(c.valueExpression()), null, pos(c.valueExpression())) : null;
            return new Statement.DeleteHistory(ident(c.identifier()), before, pos(c));
        }
        if (ctx.transactionControl() != null) {
            TransactionControlContext c = ctx.transactionControl();
            return new Statement.TransactionControl(c instanceof StartTransactionContext ? Statement.TransactionAction.START
                    : c instanceof CommitTransactionContext ? Statement.TransactionAction.COMMIT
                    : Statement.TransactionAction.ROLLBACK, pos(c));
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
        if (ctx.explain() != null) {
            ExplainContext c = ctx.explain();
            Statement explained = statement(c.statement());
            if (explained instanceof Statement.Explain) {
                throw VersoException.at(ErrorCode.NOT_SUPPORTED, "EXPLAIN explains a statement, not another EXPLAIN",
                        explained.pos());
            }
            return new Statement.Explain(explained, c.ANALYZE() != null, pos(c));
        }
        if (ctx.upsert() != null) {
            UpsertContext c = ctx.upsert();
            return new Statement.InsertRows(true, ident(c.identifier(0)), identList(c.identifierList()),
                    c.valuesClause() == null ? List.of() : values(c.valuesClause()),
                    c.query() == null ? null : query(c.query()), c.group == null ? null : ident(c.group), pos(c));
        }
        if (ctx.insert() != null) {
            InsertContext c = ctx.insert();
            return new Statement.InsertRows(false, ident(c.identifier()), identList(c.identifierList()),
                    c.valuesClause() == null ? List.of() : values(c.valuesClause()),
                    c.query() == null ? null : query(c.query()), null, pos(c));
        }
        if (ctx.createView() != null) {
            CreateViewContext c = ctx.createView();
            QueryContext q = c.query();
            String text = q.getStart().getInputStream().getText(
                    org.antlr.v4.runtime.misc.Interval.of(q.getStart().getStartIndex(), q.getStop().getStopIndex()));
            return new Statement.CreateView(ident(c.name), c.EXISTS() != null,
                    c.columnAliases() == null ? List.of() : identList(c.columnAliases().identifierList()),
                    query(q), text, pos(c));
        }
        if (ctx.createDerived() != null) {
            CreateDerivedContext c = ctx.createDerived();
            QueryContext q = c.query();
            String text = q.getStart().getInputStream().getText(
                    org.antlr.v4.runtime.misc.Interval.of(q.getStart().getStartIndex(), q.getStop().getStopIndex()));
            return new Statement.CreateDerived(ident(c.name),
                    c.identifierList() == null ? List.of() : identList(c.identifierList()), query(q), text, pos(c));
        }
        if (ctx.showDerived() != null) return new Statement.ShowDerived(pos(ctx));
        if (ctx.dropView() != null) {
            DropViewContext c = ctx.dropView();
            return new Statement.DropView(ident(c.identifier()), c.EXISTS() != null, pos(c));
        }
        if (ctx.update() != null) {
            UpdateContext c = ctx.update();
            return new Statement.Update(ident(c.identifier()), c.setItem().stream().map(this::setItem).toList(),
                    c.where == null ? null : expr(c.where), pos(c));
        }
        if (ctx.delete() != null) {
            DeleteContext c = ctx.delete();
            return new Statement.Delete(ident(c.identifier()), c.where == null ? null : expr(c.where),
                    c.assignment().stream().map(this::assignment).toList(), pos(c));
        }
        if (ctx.accessStatement() != null) return access(ctx.accessStatement());
        return new Statement.Select(query(ctx.select().query()), pos(ctx.select()));
    }

    private Statement access(AccessStatementContext ctx) {
        if (ctx instanceof CreateRoleContext c) return new Statement.CreateRole(ident(c.identifier()), pos(c));
        if (ctx instanceof DropRoleContext c) {
            return new Statement.DropRole(ident(c.identifier()), c.EXISTS() != null, pos(c));
        }
        if (ctx instanceof GrantContext c) return grant(false, c.privilege(), c.grantTarget(), c.identifierList(), pos(c));
        if (ctx instanceof RevokeContext c) return grant(true, c.privilege(), c.grantTarget(), c.identifierList(), pos(c));
        ShowGrantsContext c = (ShowGrantsContext) ctx;
        return new Statement.ShowGrants(c.identifier() == null ? null : ident(c.identifier()), pos(c));
    }

    private Statement grant(boolean revoke, PrivilegeContext privilege, GrantTargetContext target,
                            IdentifierListContext roles, Pos pos) {
        String name = privilege.getText().toUpperCase(Locale.ROOT);
        List<Ident> tables = target instanceof TablesTargetContext t ? identList(t.identifierList()) : List.of();
        return new Statement.Grant(revoke, name.equals("ALL") ? null : name, tables, identList(roles), pos);
    }

    // ---- DDL -----------------------------------------------------------------------------------

    private Statement createTable(CreateTableContext ctx) {
        List<ColumnDefinition> columns = new ArrayList<>();
        List<Ident> primaryKey = new ArrayList<>();
        List<GroupDefinition> groups = new ArrayList<>();
        List<List<Ident>> unique = new ArrayList<>();
        List<Statement.Check> checks = new ArrayList<>();
        boolean keySeen = false;
        Statement.SystemVersioning period = null;
        for (TableElementContext element : ctx.tableElement()) {
            if (element instanceof ColumnElementContext c) {
                ColumnDefinition column = columnDefinition(c.columnDefinition());
                columns.add(column);
                if (column.unique()) {
                    unique.add(List.of(column.name()));
                }
                for (ColumnConstraintContext k : c.columnDefinition().columnConstraint()) {
                    if (k instanceof CheckConstraintContext check) {
                        checks.add(check(check.checkName, column.name(), check.expression(), check));
                    }
                }
                if (c.columnDefinition().columnConstraint().stream().anyMatch(k -> k instanceof PrimaryKeyConstraintContext)) {
                    if (keySeen) {
                        throw Refusals.primaryKeyTwice(pos(c));
                    }
                    keySeen = true;
                    primaryKey.add(ident(c.columnDefinition().identifier()));
                }
            } else if (element instanceof PrimaryKeyElementContext c) {
                if (keySeen) {
                    throw Refusals.primaryKeyTwice(pos(c));
                }
                keySeen = true;
                primaryKey.addAll(identList(c.identifierList()));
            } else if (element instanceof GroupElementContext c) {
                groups.add(new GroupDefinition(ident(c.name), identList(c.identifierList()),
                        ordering(c.orderingClause()), pos(c)));
            } else if (element instanceof UniqueElementContext c) {
                unique.add(identList(c.identifierList()));
            } else if (element instanceof CheckElementContext c) {
                checks.add(check(c.checkName, null, c.expression(), c));
            } else if (element instanceof PeriodElementContext c) {
                if (period != null) {
                    throw VersoException.at(ErrorCode.INVALID_DEFINITION, "PERIOD FOR SYSTEM_TIME is declared twice",
                            pos(c));
                }
                period = new Statement.SystemVersioning(ident(c.start), ident(c.end), pos(c));
            } else if (element instanceof ApplicationPeriodElementContext c) {
                throw VersoException.at(ErrorCode.NOT_SUPPORTED, "application-time periods (PERIOD FOR "
                        + ident(c.identifier(0)) + ") are not supported: SYSTEM_TIME is the only period", pos(c));
            }
        }
        Statement.SystemVersioning versioning = null;
        if (ctx.SYSTEM() != null) {
            versioning = period != null ? period : new Statement.SystemVersioning(null, null, pos(ctx.SYSTEM().getSymbol()));
        } else if (period != null) {
            throw VersoException.at(ErrorCode.INVALID_DEFINITION, "PERIOD FOR SYSTEM_TIME needs WITH SYSTEM VERSIONING",
                    period.pos());
        }
        Statement.Mode mode = ctx.tableMode == null ? null : Statement.Mode.valueOf(ctx.tableMode.getText().toUpperCase(Locale.ROOT));
        return new Statement.CreateTable(ident(ctx.name), ctx.EXISTS() != null, columns, primaryKey, groups, mode,
                ordering(ctx.orderingClause()), unique, checks, versioning, pos(ctx));
    }

    /** A CHECK with the text of its expression as written, which the catalog keeps and SHOW CREATE TABLE shows. */
    private Statement.Check check(IdentifierContext name, Ident column, ExpressionContext expression,
                                  ParserRuleContext at) {
        String text = expression.getStart().getInputStream().getText(org.antlr.v4.runtime.misc.Interval.of(
                expression.getStart().getStartIndex(), expression.getStop().getStopIndex()));
        return new Statement.Check(name == null ? null : ident(name), column, expr(expression), text, pos(at));
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
        boolean unique = false;
        Expr.Literal defaultValue = null;
        Statement.RowBound rowBound = null;
        for (ColumnConstraintContext constraint : ctx.columnConstraint()) {
            if (constraint instanceof GeneratedConstraintContext g) {
                rowBound = g.rowBound.getType() == VersoSqlParser.START ? Statement.RowBound.START : Statement.RowBound.END;
            }
            if (constraint instanceof NotNullConstraintContext) {
                notNull = true;
            } else if (constraint instanceof DefaultConstraintContext d) {
                defaultValue = literal(d.literal());
            } else if (constraint instanceof UniqueConstraintContext) {
                unique = true;
            }
        }
        return new ColumnDefinition(ident(ctx.identifier()), typeSpec(ctx.typeName()), notNull, defaultValue, unique,
                rowBound, pos(ctx));
    }

    private TypeSpec typeSpec(TypeNameContext ctx) {
        if (ctx instanceof DoubleTypeContext) {
            return new TypeSpec("double precision", null, null, pos(ctx));
        }
        if (ctx instanceof VaryingTypeContext v) {
            return new TypeSpec("varchar", v.INTEGER_VALUE() == null ? null : smallInt(v.INTEGER_VALUE().getSymbol()),
                    null, pos(ctx));
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
        if (action instanceof AddSystemVersioningContext || action instanceof DropSystemVersioningContext) {
            return new Statement.AlterSystemVersioning(table, action instanceof AddSystemVersioningContext, pos);
        }
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
                ctx.indexColumn().stream().map(c -> ident(c.identifier())).toList(), scope, ctx.UNIQUE() != null,
                ctx.indexColumn().stream().map(c -> c.ordering != null && c.ordering.getType() == VersoSqlParser.DESC)
                        .toList(), pos(ctx));
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
        if (ctx.DEFAULT() != null) {
            return new Expr.Default(pos(ctx));
        }
        if (ctx.expression() != null) {
            return expr(ctx.expression());
        }
        Expr parameter = new Expr.Parameter(parameterIndexByToken.get(ctx.QUESTION().getSymbol().getTokenIndex()),
                pos(ctx.QUESTION().getSymbol()));
        return ctx.MINUS() == null ? parameter : new Expr.Unary(Expr.UnaryOp.MINUS, parameter, pos(ctx));
    }

    private Assignment setItem(SetItemContext ctx) {
        if (ctx.assignment() != null) {
            return assignment(ctx.assignment());
        }
        return new Assignment(ident(ctx.identifier()), new Expr.Default(pos(ctx.DEFAULT().getSymbol())));
    }

    private Assignment assignment(AssignmentContext ctx) {
        return new Assignment(ident(ctx.identifier()), expr(ctx.expression()));
    }

    // ---- reads ---------------------------------------------------------------------------------

    Query query(QueryContext ctx) {
        boolean recursive = ctx.with() != null && ctx.with().RECURSIVE() != null;
        List<Query.Cte> with = ctx.with() == null ? List.of() : ctx.with().cte().stream()
                .map(c -> new Query.Cte(ident(c.name), c.columnAliases() == null ? List.of()
                        : identList(c.columnAliases().identifierList()), query(c.query()), recursive, pos(c)))
                .toList();
        return new Query(with, body(ctx.queryExpression()), sortItems(ctx.sortItem()), asOf(ctx.asOf()),
                ctx.limit == null ? null : expr(ctx.limit), ctx.offset == null ? null : expr(ctx.offset), pos(ctx));
    }

    private List<Query.SortItem> sortItems(List<SortItemContext> items) {
        return items.stream()
                .map(s -> new Query.SortItem(expr(s.expression()),
                        s.ordering != null && s.ordering.getType() == VersoSqlParser.DESC,
                        s.nullOrdering == null ? null : s.nullOrdering.getType() == VersoSqlParser.FIRST))
                .toList();
    }

    private Query.Body body(QueryExpressionContext ctx) {
        if (ctx instanceof SetOperationContext s) {
            Query.SetOpKind kind = switch (s.op.getType()) {
                case VersoSqlParser.UNION -> Query.SetOpKind.UNION;
                case VersoSqlParser.INTERSECT -> Query.SetOpKind.INTERSECT;
                default -> Query.SetOpKind.EXCEPT;
            };
            return new Query.SetOp(kind, s.quantifier != null && s.quantifier.getType() == VersoSqlParser.ALL,
                    body(s.left), body(s.right), pos(s.op));
        }
        QueryPrimaryContext primary = ((QueryTermDefaultContext) ctx).queryPrimary();
        if (primary instanceof NestedQueryContext n) {
            return new Query.Nested(query(n.query()), pos(n));
        }
        return block(((BlockContext) primary).querySpecification());
    }

    private Query.Block block(QuerySpecificationContext ctx) {
        List<Query.WindowDef> windows = ctx.windowDefinition().stream()
                .map(w -> new Query.WindowDef(ident(w.name), windowSpec(w.windowSpec()), pos(w))).toList();
        return new Query.Block(ctx.quantifier != null && ctx.quantifier.getType() == VersoSqlParser.DISTINCT,
                ctx.selectItem().stream().map(this::selectItem).toList(),
                ctx.fromItem().stream().map(this::fromItem).toList(),
                ctx.where == null ? null : expr(ctx.where),
                ctx.groupBy.stream().map(this::expr).toList(),
                ctx.having == null ? null : expr(ctx.having), windows, pos(ctx));
    }

    private Query.WindowSpec windowSpec(WindowSpecContext ctx) {
        Query.Frame frame = null;
        if (ctx.windowFrame() != null) {
            WindowFrameContext f = ctx.windowFrame();
            frame = new Query.Frame(f.unit.getType() == VersoSqlParser.ROWS ? Query.FrameUnit.ROWS : Query.FrameUnit.RANGE,
                    frameBound(f.start), f.end == null ? null : frameBound(f.end));
        }
        return new Query.WindowSpec(ctx.base == null ? null : ident(ctx.base),
                ctx.partition.stream().map(this::expr).toList(), sortItems(ctx.sortItem()), frame, pos(ctx));
    }

    private Query.FrameBound frameBound(FrameBoundContext ctx) {
        if (ctx instanceof CurrentRowBoundContext) {
            return new Query.FrameBound(Query.BoundKind.CURRENT_ROW, null);
        }
        if (ctx instanceof UnboundedFrameContext u) {
            return new Query.FrameBound(u.boundType.getType() == VersoSqlParser.PRECEDING
                    ? Query.BoundKind.UNBOUNDED_PRECEDING : Query.BoundKind.UNBOUNDED_FOLLOWING, null);
        }
        BoundedFrameContext b = (BoundedFrameContext) ctx;
        return new Query.FrameBound(b.boundType.getType() == VersoSqlParser.PRECEDING
                ? Query.BoundKind.PRECEDING : Query.BoundKind.FOLLOWING, value(b.valueExpression()));
    }

    private Query.SelectItem selectItem(SelectItemContext ctx) {
        if (ctx instanceof SelectAllContext) {
            return new Query.SelectItem.All(pos(ctx));
        }
        if (ctx instanceof SelectAllOfContext a) {
            return new Query.SelectItem.AllOf(ident(a.qualifier), pos(ctx));
        }
        SelectExpressionContext e = (SelectExpressionContext) ctx;
        return new Query.SelectItem.Item(expr(e.expression()), e.alias == null ? null : ident(e.alias), pos(ctx));
    }

    private Query.FromItem fromItem(FromItemContext ctx) {
        if (ctx instanceof CrossJoinContext c) {
            return new Query.Join(Query.JoinType.CROSS, fromItem(c.left), fromItem(c.right), null, List.of(),
                    pos(c.CROSS().getSymbol()));
        }
        if (ctx instanceof QualifiedJoinContext j) {
            JoinTypeContext t = j.joinType();
            Query.JoinType type = t.LEFT() != null ? Query.JoinType.LEFT : t.RIGHT() != null ? Query.JoinType.RIGHT
                    : t.FULL() != null ? Query.JoinType.FULL : Query.JoinType.INNER;
            JoinCriteriaContext criteria = j.joinCriteria();
            return new Query.Join(type, fromItem(j.left), fromItem(j.right),
                    criteria.ON() != null ? expr(criteria.expression()) : null,
                    criteria.USING() != null ? identList(criteria.identifierList()) : List.of(),
                    pos(j.JOIN().getSymbol()));
        }
        FromPrimaryContext primary = ((FromDefaultContext) ctx).fromPrimary();
        if (primary instanceof ParenthesizedFromContext p) {
            return fromItem(p.fromItem());
        }
        if (primary instanceof FunctionTableContext f) {
            FunctionNameContext name = f.functionName();
            Ident function = name.identifier() != null ? ident(name.identifier())
                    : new Ident(name.getText().toLowerCase(Locale.ROOT), pos(name));
            return new Query.FunctionTable(new Expr.FunctionCall(function, false, false,
                    f.expression().stream().map(this::expr).toList(), pos(f)), f.alias == null ? null : ident(f.alias),
                    f.columnAliases() == null ? List.of() : identList(f.columnAliases().identifierList()), pos(f));
        }
        if (primary instanceof DerivedTableContext d) {
            return new Query.Derived(query(d.query()), relationAsOf(d.systemTime(), d.asOf()), ident(d.alias),
                    d.columnAliases() == null ? List.of() : identList(d.columnAliases().identifierList()), pos(d));
        }
        RelationContext r = (RelationContext) primary;
        RelationPrimaryContext rp = r.relationPrimary();
        boolean history = rp instanceof HistoryRelationContext;
        boolean changes = rp instanceof ChangesRelationContext;
        QualifiedNameContext name = history ? ((HistoryRelationContext) rp).qualifiedName()
                : changes ? ((ChangesRelationContext) rp).qualifiedName()
                : ((TableRelationContext) rp).qualifiedName();
        Ident schema = null;
        Ident table;
        if (!history && !changes && name.identifier().size() == 2
                && Query.TableRef.SYSTEM_SCHEMAS.contains(ident(name.identifier(0)).name())) {
            schema = ident(name.identifier(0));
            table = ident(name.identifier(1));
        } else {
            table = tableName(name);
        }
        return new Query.TableRef(schema, table, history, changes, relationAsOf(r.systemTime(), r.asOf()),
                r.alias == null ? null : ident(r.alias),
                r.columnAliases() == null ? List.of() : identList(r.columnAliases().identifierList()), pos(r));
    }

    /** A relation's or derived table's own FOR SYSTEM_TIME or AS OF: one of them, once. */
    private AsOf relationAsOf(SystemTimeContext systemTime, List<AsOfContext> clauses) {
        AsOf asOf = asOf(clauses);
        if (systemTime != null) {
            if (asOf != null) {
                throw VersoException.at(ErrorCode.AS_OF_DUPLICATE, "FOR SYSTEM_TIME and AS OF are given in the same place",
                        asOf.pos());
            }
            asOf = systemTime(systemTime);
        }
        return asOf;
    }

    private Ident tableName(QualifiedNameContext ctx) {
        if (ctx.identifier().size() > 1) {
            throw VersoException.at(ErrorCode.SCHEMA_QUALIFIED_NAME,
                    "table names are never schema-qualified (only those of the system schemas "
                            + String.join(" and ", Query.TableRef.SYSTEM_SCHEMAS) + "): '" + ctx.getText() + "'", pos(ctx));
        }
        return ident(ctx.identifier(0));
    }

    private AsOf asOf(List<AsOfContext> clauses) {
        if (clauses.isEmpty()) {
            return null;
        }
        if (clauses.size() > 1) {
            throw VersoException.at(ErrorCode.AS_OF_DUPLICATE, "AS OF is given twice in the same place",
                    pos(clauses.get(1)));
        }
        AsOfContext clause = clauses.get(0);
        if (clause instanceof AsOfTimestampContext t) {
            return new AsOf.AtTimestamp(value(t.valueExpression()), pos(clause));
        }
        return commitRef(((AsOfCommitContext) clause).commitRef(), pos(clause));
    }

    private AsOf systemTime(SystemTimeContext ctx) {
        Pos pos = pos(ctx);
        if (ctx instanceof SystemTimeAsOfContext a) {
            return new AsOf.SystemTime(AsOf.SystemTimeKind.AS_OF, value(a.valueExpression()), null, pos);
        }
        if (ctx instanceof SystemTimeFromToContext f) {
            return new AsOf.SystemTime(AsOf.SystemTimeKind.FROM_TO, value(f.from), value(f.to), pos);
        }
        if (ctx instanceof SystemTimeBetweenContext b) {
            return new AsOf.SystemTime(AsOf.SystemTimeKind.BETWEEN, value(b.from), value(b.to), pos);
        }
        if (ctx instanceof SystemTimeTransactionContext t) {
            return new AsOf.SystemTime(AsOf.SystemTimeKind.TRANSACTION, value(t.valueExpression()), null, pos);
        }
        return new AsOf.SystemTime(AsOf.SystemTimeKind.ALL, null, null, pos);
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
            throw Refusals.asOfBeyondLatest(text, pos);
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
        if (predicate instanceof QuantifiedComparisonContext q) {
            return new Expr.Quantified(comparison(q.comparisonOperator()), q.quantifier.getType() == VersoSqlParser.ALL,
                    value, query(q.query()), pos);
        }
        if (predicate instanceof InSubqueryContext in) {
            return new Expr.InSubquery(in.NOT() != null, value, query(in.query()), pos);
        }
        if (predicate instanceof DistinctFromContext d) {
            return new Expr.DistinctFrom(d.NOT() != null, value, value(d.right), pos);
        }
        if (predicate instanceof BooleanTestContext t) {
            return new Expr.BooleanTest(t.NOT() != null, value, t.value.getType() == VersoSqlParser.TRUE, pos);
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
                case VersoSqlParser.ARROW -> Expr.BinaryOp.JSON_GET;
                case VersoSqlParser.DARROW -> Expr.BinaryOp.JSON_GET_TEXT;
                case VersoSqlParser.HASH_ARROW -> Expr.BinaryOp.JSON_PATH;
                case VersoSqlParser.HASH_DARROW -> Expr.BinaryOp.JSON_PATH_TEXT;
                case VersoSqlParser.CONTAINS -> Expr.BinaryOp.JSON_CONTAINS;
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
            return new Expr.Literal(typedKind(t.kind), unquote(t.STRING().getText(), '\''), pos);
        }
        if (ctx instanceof ParameterContext p) {
            return new Expr.Parameter(parameterIndexByToken.get(p.QUESTION().getSymbol().getTokenIndex()), pos);
        }
        if (ctx instanceof CastContext c) {
            return new Expr.Cast(expr(c.expression()), typeSpec(c.typeName()), pos);
        }
        if (ctx instanceof SubscriptContext sub) {
            return new Expr.Special(Expr.SpecialForm.SUBSCRIPT, null, List.of(primary(sub.primaryExpression()),
                    expr(sub.index)), pos(sub.LBRACKET().getSymbol()));
        }
        if (ctx instanceof CastOperatorContext c) {
            return new Expr.Cast(primary(c.primaryExpression()), typeSpec(c.typeName()), pos(c.DOUBLE_COLON().getSymbol()));
        }
        if (ctx instanceof ExistsContext e) {
            return new Expr.Exists(query(e.query()), pos);
        }
        if (ctx instanceof ScalarSubqueryContext q) {
            return new Expr.Subquery(query(q.query()), pos);
        }
        if (ctx instanceof ExtractContext e) {
            return new Expr.Special(Expr.SpecialForm.EXTRACT, ident(e.field).name(), List.of(value(e.valueExpression())),
                    pos);
        }
        if (ctx instanceof PositionContext p) {
            return new Expr.Special(Expr.SpecialForm.POSITION, null, List.of(value(p.needle), value(p.haystack)), pos);
        }
        if (ctx instanceof SubstringFromContext sf) {
            List<Expr> args = new ArrayList<>(List.of(value(sf.valueExpression(0)), value(sf.from)));
            if (sf.forLength != null) {
                args.add(value(sf.forLength));
            }
            return new Expr.Special(Expr.SpecialForm.SUBSTRING, null, args, pos);
        }
        if (ctx instanceof TrimFromContext tf) {
            Expr.SpecialForm form = tf.side == null || tf.side.getType() == VersoSqlParser.BOTH ? Expr.SpecialForm.TRIM_BOTH
                    : tf.side.getType() == VersoSqlParser.LEADING ? Expr.SpecialForm.TRIM_LEADING
                    : Expr.SpecialForm.TRIM_TRAILING;
            List<Expr> args = new ArrayList<>();
            args.add(value(tf.valueExpression(tf.valueExpression().size() - 1)));
            if (tf.chars != null) {
                args.add(value(tf.chars));
            }
            return new Expr.Special(form, null, args, pos);
        }
        if (ctx instanceof CaseExpressionContext c) {
            List<Expr.When> whens = c.whenClause().stream()
                    .map(w -> new Expr.When(expr(w.condition), expr(w.result))).toList();
            return new Expr.Case(c.operand == null ? null : expr(c.operand), whens,
                    c.elseExpression == null ? null : expr(c.elseExpression), pos);
        }
        if (ctx instanceof CountStarContext c) {
            return new Expr.FunctionCall(ident(c.identifier()), false, true, List.of(), List.of(), List.of(),
                    c.filter() == null ? null : expr(c.filter().expression()), over(c.over()), pos);
        }
        if (ctx instanceof FunctionCallContext f) {
            FunctionNameContext name = f.functionName();
            Ident function = name.identifier() != null ? ident(name.identifier())
                    : new Ident(name.getText().toLowerCase(Locale.ROOT), pos(name));
            return new Expr.FunctionCall(function,
                    f.quantifier != null && f.quantifier.getType() == VersoSqlParser.DISTINCT, false,
                    f.expression().stream().map(this::expr).toList(), sortItems(f.argOrder), sortItems(f.withinGroup),
                    f.filter() == null ? null : expr(f.filter().expression()), over(f.over()), pos);
        }
        if (ctx instanceof DereferenceContext d) {
            if (d.identifier().size() > 2) {
                throw VersoException.at(ErrorCode.SCHEMA_QUALIFIED_NAME,
                        "names are never schema-qualified: '" + d.getText() + "'", pos);
            }
            return new Expr.ColumnRef(ident(d.identifier(0)), ident(d.identifier(1)), pos);
        }
        if (ctx instanceof ColumnReferenceContext c) {
            // current_date and current_timestamp are SQL keywords written without parentheses.
            if (c.identifier() instanceof UnquotedIdentifierContext) {
                String name = c.getText().toLowerCase(Locale.ROOT);
                if (name.equals("current_date") || name.equals("current_timestamp") || name.equals("current_user")
                        || name.equals("session_user") || name.equals("user")) {
                    return new Expr.FunctionCall(new Ident(name, pos), false, false, List.of(), pos);
                }
            }
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
        if (ctx.TIMESTAMPTZ() != null) {
            return new Expr.Literal(LiteralKind.TIMESTAMPTZ, text, pos);
        }
        if (ctx.INTERVAL() != null) {
            return new Expr.Literal(LiteralKind.INTERVAL, text, pos);
        }
        return new Expr.Literal(LiteralKind.STRING, text, pos);
    }

    private static LiteralKind typedKind(Token kind) {
        return switch (kind.getType()) {
            case VersoSqlParser.DATE -> LiteralKind.DATE;
            case VersoSqlParser.TIMESTAMPTZ -> LiteralKind.TIMESTAMPTZ;
            case VersoSqlParser.INTERVAL -> LiteralKind.INTERVAL;
            default -> LiteralKind.TIMESTAMP;
        };
    }

    private Expr.Over over(OverContext ctx) {
        if (ctx == null) {
            return null;
        }
        return ctx.windowName != null ? new Expr.Over(null, ident(ctx.windowName))
                : new Expr.Over(windowSpec(ctx.windowSpec()), null);
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
