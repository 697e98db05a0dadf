package io.verso.surface;

import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementEngine;
import io.verso.error.VersoException;
import io.verso.sql.ast.Statement;
import java.util.List;
import org.springframework.stereotype.Component;

/** Runs statements a surface built on the engine, in one transaction, and points its errors at the request. */
@Component
class Statements {

    private final StatementEngine engine;

    Statements(StatementEngine engine) {
        this.engine = engine;
    }

    /**
     * Statements built from the request, whose nodes carry the origins of its fields; an error tied
     * to no field (one PostgreSQL reported) names {@code fallbackPointer}.
     */
    ExecutionResult run(List<Statement> statements, List<Object> params, String fallbackPointer) {
        try {
            return engine.execute(statements, params, null);
        } catch (VersoException.UserError e) {
            if (e.origin() != null) {
                throw e;
            }
            throw VersoException.pointing(e.code(), e.getMessage(), fallbackPointer);
        }
    }
}
