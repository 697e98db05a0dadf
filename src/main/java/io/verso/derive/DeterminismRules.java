package io.verso.derive;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.ast.Pos;
import io.verso.sql.parser.VersoSqlLexer;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Token;

/**
 * What a derived table's query may not say, because its answer would not be a function of the
 * sources' state at a commit: AS OF (any form), FOR SYSTEM_TIME, functions whose value depends
 * on the clock or chance, and the system relations (information_schema's, pg_catalog's). Checked on the tokens, so every place such a clause can stand is covered.
 */
final class DeterminismRules {

    private static final Set<String> CLOCK_OR_CHANCE = Set.of("now", "random", "current_date", "current_timestamp",
            "current_time", "localtime", "localtimestamp", "clock_timestamp", "statement_timestamp",
            "transaction_timestamp", "timeofday", "gen_random_uuid", "setseed");

    private static final List<String> SYSTEM_SCHEMAS = io.verso.sql.ast.Query.TableRef.SYSTEM_SCHEMAS;

    private DeterminismRules() {
    }

    static void check(String query, Pos start) {
        List<? extends Token> tokens = new VersoSqlLexer(CharStreams.fromString(query)).getAllTokens().stream()
                .filter(t -> t.getChannel() == Token.DEFAULT_CHANNEL).toList();
        for (int i = 0; i < tokens.size(); i++) {
            Token token = tokens.get(i);
            String text = token.getText().toLowerCase(Locale.ROOT);
            String next = i + 1 < tokens.size() ? tokens.get(i + 1).getText().toLowerCase(Locale.ROOT) : "";
            String refused = null;
            if (text.equals("as") && next.equals("of")) {
                refused = "AS OF: a derived table reads its sources at each commit itself";
            } else if (text.equals("for") && next.equals("system_time")) {
                refused = "FOR SYSTEM_TIME: a derived table reads its sources at each commit itself";
            } else if (SYSTEM_SCHEMAS.contains(text) && token.getType() != VersoSqlLexer.STRING && next.equals(".")) {
                refused = text + ": its relations list the catalog as each caller may see it, not the sources";
            } else if (CLOCK_OR_CHANCE.contains(text) && token.getType() != VersoSqlLexer.QUOTED_IDENTIFIER
                    && token.getType() != VersoSqlLexer.STRING && (next.equals("(") || text.startsWith("current_")
                    || text.startsWith("local"))) {
                refused = text + "(): its value depends on when or where the query runs, not on the sources";
            }
            if (refused != null) {
                throw VersoException.at(ErrorCode.DERIVED_QUERY_NOT_ALLOWED, "a derived table's query cannot use "
                        + refused, position(start, token));
            }
        }
    }

    /** The token's position in the request text, the query starting at {@code start}. */
    private static Pos position(Pos start, Token token) {
        return token.getLine() == 1 ? new Pos(start.line(), start.column() + token.getCharPositionInLine())
                : new Pos(start.line() + token.getLine() - 1, token.getCharPositionInLine() + 1);
    }
}
