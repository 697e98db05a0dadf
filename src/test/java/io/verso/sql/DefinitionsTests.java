package io.verso.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Query;
import org.junit.jupiter.api.Test;

/** A stored definition is parsed once per text, to the tree the parser gives it; a text that fails is not kept. */
class DefinitionsTests {

    @Test
    void aStoredQueryIsParsedOnce() {
        String text = "SELECT k, v FROM definitions_query_once WHERE v > 1";
        long before = Definitions.parsed();
        Query first = Definitions.query(text);
        assertThat(Definitions.query(text)).isSameAs(first);
        assertThat(Definitions.parsed() - before).isEqualTo(1);
        assertThat(first).isEqualTo(SqlParser.parse(text).statements().get(0) instanceof io.verso.sql.ast.Statement.Select s
                ? s.query() : null);
    }

    @Test
    void aStoredExpressionIsParsedOnceAsTheItemOfASelect() {
        String text = "price > 0 AND definitions_expression_once IS NOT NULL";
        long before = Definitions.parsed();
        Expr first = Definitions.expression(text);
        assertThat(Definitions.expression(text)).isSameAs(first);
        assertThat(Definitions.parsed() - before).isEqualTo(1);
        assertThat(first).isInstanceOf(Expr.Binary.class);
    }

    @Test
    void aTextThatNoLongerParsesFailsAtEveryUse() {
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> Definitions.query("SELEC 1 FROM t")).isInstanceOfSatisfying(VersoException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.SYNTAX_ERROR));
        }
    }
}
