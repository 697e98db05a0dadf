package io.verso.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.verso.analyze.DdlAnalyzer;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.Origin;
import io.verso.error.VersoException;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import io.verso.surface.Filter;
import io.verso.surface.ReadBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The resource layer builds the syntax trees a parse of the same statement text gives: each tree
 * {@link ReadBuilder} makes for REST, GraphQL and the change feed, formatted as text, parses back to
 * the same tree (positions aside) with as many {@code ?} as the builder bound values. So the surfaces
 * are exactly /v1/sql without the text, and a bad value fails at its origin with the column's code.
 */
class ReadBuilderRoundTripTests {

    private static final TableDef BALANCES = DdlAnalyzer.createTable((Statement.CreateTable) SqlParser.parse("""
            CREATE TABLE balances (chain_id BIGINT, address TEXT, token VARCHAR(10), amount NUMERIC(38,0),
              label TEXT, ix BIGINT, score DOUBLE PRECISION, PRIMARY KEY (chain_id, address, token))
              VERSIONED VALID BY (ix)""").statements().get(0), 1);

    private static final Pos AT = Pos.pointer("test");

    private static ColumnDef column(String name) {
        return BALANCES.column(name).orElseThrow();
    }

    private static void roundTrips(Statement built, ReadBuilder b) {
        String text = StatementRoundTripTests.format(built);
        SqlParser.Script parsed = SqlParser.parse(text);
        assertThat(parsed.statements()).hasSize(1);
        assertThat(parsed.statements().get(0)).as(text).usingRecursiveComparison().ignoringFieldsOfTypes(Pos.class)
                .isEqualTo(built);
        assertThat(parsed.parameterCount()).as(text).isEqualTo(b.params().size());
    }

    @Test
    void aFilteredPageOfRowsWithAKeysetAndAsOf() {
        ReadBuilder b = new ReadBuilder();
        Filter filter = new Filter.All(List.of(
                new Filter.Compare(column("chain_id"), Filter.Op.EQ, List.of("1"), AT),
                new Filter.Compare(column("amount"), Filter.Op.GE, List.of("100"), AT),
                new Filter.Compare(column("token"), Filter.Op.IN, List.of("eth", "usdc"), AT),
                new Filter.Any(List.of(new Filter.Compare(column("label"), Filter.Op.IS_NULL, List.of(), AT),
                        new Filter.Not(new Filter.Compare(column("label"), Filter.Op.ILIKE, List.of("cold%"), AT), AT)),
                        AT)), AT);
        List<ReadBuilder.Sort> sorts = ReadBuilder.withTieBreak(BALANCES,
                List.of(new ReadBuilder.Sort(column("score"), true, null)));
        assertThat(sorts).extracting(s -> s.column().name()).containsExactly("score", "chain_id", "address", "token");
        var where = ReadBuilder.and(b.where(filter), b.after(sorts, java.util.Arrays.asList(null, "1", "0x9c", "eth"),
                AT), AT);
        Statement select = ReadBuilder.select(List.of(), "balances", ReadBuilder.Source.ROWS, AT, where,
                ReadBuilder.orderBy(sorts, AT), 101L, null, b.asOf(7L, AT), AT);
        roundTrips(select, b);
        assertThat(b.params()).startsWith("1", "100", "eth", "usdc").endsWith(7L);
    }

    @Test
    void aKeysHistoryInTheOrderOfEverySurface() {
        ReadBuilder b = new ReadBuilder();
        var where = b.keyEquals(BALANCES, List.of("1", "0x9c", "eth"), List.of(AT, AT, AT));
        Statement select = ReadBuilder.select(List.of(), "balances", ReadBuilder.Source.HISTORY, AT, where,
                ReadBuilder.orderByNames(ReadBuilder.HISTORY_ORDER, AT), 10L, 20L, null, AT);
        roundTrips(select, b);
    }

    @Test
    void anAggregateAndTheChangeFeedsRead() {
        ReadBuilder b = new ReadBuilder();
        Statement aggregate = ReadBuilder.select(List.of(ReadBuilder.countStar(AT),
                ReadBuilder.call("min", column("amount"), AT), ReadBuilder.call("sum", column("amount"), AT)),
                "balances", ReadBuilder.Source.ROWS, AT,
                b.where(new Filter.Any(List.of(), AT)), List.of(), null, null, null, AT);
        roundTrips(aggregate, b);

        ReadBuilder c = new ReadBuilder();
        Statement changes = ReadBuilder.select(List.of(), "balances", ReadBuilder.Source.CHANGES, AT,
                new io.verso.sql.ast.Expr.Binary(io.verso.sql.ast.Expr.BinaryOp.GT, ReadBuilder.column("_commit", AT),
                        c.param(5L, AT), AT),
                ReadBuilder.orderByNames(List.of("_commit", "chain_id", "address", "token"), AT), 1001L, null, null, AT);
        roundTrips(changes, c);
    }

    @Test
    void aValueTheColumnCannotHoldFailsAtItsOriginWithTheColumnsCode() {
        Pos where = Pos.of(new Origin.Argument("where.chain_id.eq"));
        assertThatThrownBy(() -> new ReadBuilder().where(
                new Filter.Compare(column("chain_id"), Filter.Op.EQ, List.of("soon"), where)))
                .isInstanceOfSatisfying(VersoException.UserError.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_VALUE);
                    assertThat(e.origin()).isEqualTo(new Origin.Argument("where.chain_id.eq"));
                });
    }

    @Test
    void pageSizesFollowOneRuleOnEverySurface() {
        assertThat(ReadBuilder.limit(null, 100, 1000, AT)).isEqualTo(100);
        assertThat(ReadBuilder.limit(1000, 100, 1000, AT)).isEqualTo(1000);
        for (int bad : new int[] {0, -1, 1001}) {
            assertThatThrownBy(() -> ReadBuilder.limit(bad, 100, 1000, AT))
                    .isInstanceOfSatisfying(VersoException.UserError.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_LIMIT));
        }
        assertThatThrownBy(() -> ReadBuilder.offset(-1, AT)).isInstanceOfSatisfying(VersoException.UserError.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_LIMIT));
    }
}
