package io.verso.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Query;
import io.verso.sql.ast.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The read grammar's shapes, and that deep nesting parses in linear time or is refused with a code. */
class QueryParserTests {

    private static Query query(String text) {
        return ((Statement.Select) SqlParser.parse(text).statements().get(0)).query();
    }

    @Test
    void trailingClausesOfASetOperationBelongToTheWholeOperation() {
        Query q = query("SELECT a FROM t UNION ALL SELECT b FROM u INTERSECT SELECT c FROM v ORDER BY 1 AS OF COMMIT 3 LIMIT 2");
        assertThat(q.body()).isInstanceOf(Query.SetOp.class);
        Query.SetOp union = (Query.SetOp) q.body();
        assertThat(union.kind()).isEqualTo(Query.SetOpKind.UNION);
        assertThat(union.all()).isTrue();
        // INTERSECT binds tighter than UNION.
        assertThat(((Query.SetOp) union.right()).kind()).isEqualTo(Query.SetOpKind.INTERSECT);
        assertThat(q.asOf()).isNotNull();
        assertThat(q.orderBy()).hasSize(1);
    }

    @Test
    void parenthesesOpenSubqueriesOnlyBeforeSelectOrWith() {
        Query q = query("SELECT (SELECT 1), ((1 + 2)), x IN (SELECT 1), y IN ((1), 2) FROM (a JOIN b ON TRUE), (SELECT 1) AS d");
        Query.Block block = (Query.Block) q.body();
        assertThat(((Query.SelectItem.Item) block.items().get(0)).expr()).isInstanceOf(Expr.Subquery.class);
        assertThat(((Query.SelectItem.Item) block.items().get(1)).expr()).isInstanceOf(Expr.Binary.class);
        assertThat(((Query.SelectItem.Item) block.items().get(2)).expr()).isInstanceOf(Expr.InSubquery.class);
        assertThat(((Query.SelectItem.Item) block.items().get(3)).expr()).isInstanceOf(Expr.InList.class);
        assertThat(block.from().get(0)).isInstanceOf(Query.Join.class);
        assertThat(block.from().get(1)).isInstanceOf(Query.Derived.class);
    }

    @Test
    void deepNestingIsRefusedQuicklyWithACode() {
        long started = System.nanoTime();
        query("SELECT k FROM t WHERE " + "(".repeat(150) + "k = 1" + ")".repeat(150));
        assertThatThrownBy(() -> SqlParser.parse("SELECT k FROM t WHERE " + "(".repeat(20_000) + "k = 1"
                + ")".repeat(20_000))).isInstanceOfSatisfying(VersoException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.NESTING_TOO_DEEP));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
        assertThatThrownBy(() -> SqlParser.parse("SELECT " + "1 + ".repeat(40_000) + "1"))
                .isInstanceOfSatisfying(VersoException.class, e -> assertThat(e.code())
                        .isIn(ErrorCode.STATEMENT_TOO_LARGE, ErrorCode.SYNTAX_ERROR));
    }
}
