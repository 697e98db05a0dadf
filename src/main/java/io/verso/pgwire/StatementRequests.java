package io.verso.pgwire;

import io.verso.catalog.ViewDef;
import io.verso.config.VersoProperties;
import io.verso.catalog.Views;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementEngine;
import io.verso.error.VersoException;
import io.verso.security.Admission;
import io.verso.security.Caller;
import io.verso.security.StatementAdmission;
import io.verso.security.VersoPrincipal;
import io.verso.sql.ScriptCache;
import io.verso.sql.SqlParser;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Protocol requests as engine requests, exactly as {@code /v1/sql} makes them: the text parsed (through a
 * cache of parsed texts), admitted by what its statements do, executed for the connection's principal. The
 * statements of one Sync, each from its own Parse, run as one request (one transaction, one commit): their
 * texts joined, and an error's position traced back to the statement it falls in.
 */
@Component
class StatementRequests {

    /** One statement to run: its text with {@code ?} placeholders and their values in order. */
    record Call(String text, List<Object> params) {
    }

    /** A request refused: the error, and which call (and 1-based position in its text) it points at. */
    static final class Failed extends Exception {
        final VersoException error;
        final int call;
        final int position;

        Failed(VersoException error, int call, int position) {
            super(error.getMessage(), null, false, false);
            this.error = error;
            this.call = call;
            this.position = position;
        }

        PgError pgError() {
            return PgError.of(error, position);
        }
    }

    private static final String SEPARATOR = ";\n";

    private final StatementEngine engine;
    private final StatementAdmission admission;
    private final Views views;
    private final int maxStatements;
    private final ScriptCache scripts = new ScriptCache(1_000_000);

    StatementRequests(StatementEngine engine, StatementAdmission admission, Views views, VersoProperties properties) {
        this.engine = engine;
        this.admission = admission;
        this.views = views;
        this.maxStatements = properties.maxStatements();
    }

    /** The most statements one request may hold (verso.max-statements). */
    int maxStatements() {
        return maxStatements;
    }

    /** Every view, by name: which of them a caller may read is for a read of each to say. */
    List<ViewDef> views() {
        return views.names().stream().flatMap(name -> views.find(name).stream()).toList();
    }

    /** Parses a text alone (a Parse message), for its syntax errors and its statement count. */
    SqlParser.Script parse(String text) {
        return scripts.parse(text);
    }

    /** Runs {@code calls} as one request of {@code principal}, connected from {@code address} (its rate limit when security is off). */
    ExecutionResult run(VersoPrincipal principal, String address, List<Call> calls) throws Failed {
        StringBuilder text = new StringBuilder();
        List<Object> params = new ArrayList<>();
        int[] starts = new int[calls.size()];
        for (int i = 0; i < calls.size(); i++) {
            if (i > 0) {
                text.append(SEPARATOR);
            }
            starts[i] = text.length();
            text.append(calls.get(i).text());
            params.addAll(calls.get(i).params());
        }
        String sql = text.toString();
        try {
            return Caller.as(principal, () -> admission.run(sql.length(), address, () -> {
                SqlParser.Script script = scripts.parse(sql);
                Admission.admit(() -> engine.light(script));
                return engine.execute(script, params, null);
            }));
        } catch (VersoException e) {
            int offset = e instanceof VersoException.UserError u && u.line() > 0
                    ? offset(sql, u.line(), u.column()) : -1;
            int call = 0;
            while (offset >= 0 && call + 1 < starts.length && starts[call + 1] <= offset) {
                call++;
            }
            throw new Failed(e, call, offset < 0 ? 0 : offset - starts[call] + 1);
        }
    }

    /**
     * Statements built here rather than parsed (COPY's rows, straight into column arrays), run as one request,
     * admitted as a {@code /v1/sql} body of {@code bytes} would be.
     */
    ExecutionResult run(VersoPrincipal principal, String address, List<io.verso.sql.ast.Statement> statements,
                        long bytes) throws Failed {
        try {
            return Caller.as(principal, () -> admission.run(bytes, address, () -> {
                Admission.admit(() -> engine.light(new SqlParser.Script(statements, 0)));
                return engine.execute(statements, List.of(), null);
            }));
        } catch (VersoException e) {
            throw new Failed(e, 0, 0);
        }
    }

    /** The 0-based offset of a 1-based line and column. */
    static int offset(String text, int line, int column) {
        int at = 0;
        for (int l = 1; l < line && at >= 0; l++) {
            at = text.indexOf('\n', at);
            at = at < 0 ? -1 : at + 1;
        }
        return at < 0 ? -1 : Math.min(text.length(), at + column - 1);
    }
}
