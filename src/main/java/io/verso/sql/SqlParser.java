package io.verso.sql;

import io.verso.error.ErrorCode;
import io.verso.error.Origin;
import io.verso.error.Refusals;
import io.verso.error.VersoException;
import io.verso.sql.ast.Statement;
import io.verso.sql.parser.VersoSqlLexer;
import io.verso.sql.parser.VersoSqlParser;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;

/**
 * Text to syntax tree. Syntax errors carry line and column counted over the whole request text,
 * so a client can point at the offending token. A text too heavy to parse (nesting, a read's literals)
 * is refused on its characters first ({@link TextWeight}), before the lexer holds a token per token.
 */
public final class SqlParser {

    private SqlParser() {
    }

    /** A parsed request: its statements in order and the number of {@code ?} placeholders. */
    public record Script(List<Statement> statements, int parameterCount) {
    }

    public static Script parse(String text) {
        if (text == null || text.isBlank()) {
            throw VersoException.user(ErrorCode.EMPTY_STATEMENT, "the statement text is empty");
        }
        TextWeight.check(text);
        VersoSqlLexer lexer = new VersoSqlLexer(CharStreams.fromString(text));
        lexer.removeErrorListeners();
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        if (tokens.getTokens().stream().allMatch(t -> t.getChannel() != Token.DEFAULT_CHANNEL
                || t.getType() == Token.EOF || t.getType() == VersoSqlLexer.SEMI)) {
            throw VersoException.user(ErrorCode.EMPTY_STATEMENT, "the statement text holds no statement");
        }
        VersoSqlParser parser = new VersoSqlParser(tokens);
        parser.removeErrorListeners();
        parser.addErrorListener(ThrowingListener.INSTANCE);
        VersoSqlParser.ScriptContext tree;
        try {
            // SLL is enough for nearly every statement and much faster; fall back to LL on failure.
            parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
            tree = parseScript(parser);
        } catch (VersoException.UserError sllFailure) {
            tokens.seek(0);
            parser.reset();
            parser.getInterpreter().setPredictionMode(PredictionMode.LL);
            tree = parseScript(parser);
        }
        AstBuilder builder = new AstBuilder(tokens);
        List<Statement> statements;
        try {
            statements = tree.statement().stream().map(builder::statement).toList();
        } catch (StackOverflowError e) {
            throw Refusals.statementNestsTooDeeply();
        }
        return new Script(statements, builder.parameterCount());
    }

    private static VersoSqlParser.ScriptContext parseScript(VersoSqlParser parser) {
        try {
            return parser.script();
        } catch (StackOverflowError e) {
            // Recursive descent over a statement nested thousands of levels deep.
            throw VersoException.user(ErrorCode.SYNTAX_ERROR, "the statement nests too deeply to parse");
        }
    }

    private static final class ThrowingListener extends BaseErrorListener {
        static final ThrowingListener INSTANCE = new ThrowingListener();

        @Override
        public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int charPosition,
                                String msg, RecognitionException e) {
            String near = offendingSymbol instanceof Token token
                    ? (token.getType() == Token.EOF ? "end of input" : "'" + token.getText() + "'")
                    : "input";
            throw new VersoException.UserError(ErrorCode.SYNTAX_ERROR,
                    "syntax error at line " + line + ", column " + (charPosition + 1) + " near " + near + ": " + msg,
                    new Origin.Text(line, charPosition + 1));
        }
    }

}
