package io.verso.surface;

import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementEngine;
import io.verso.error.VersoException;
import org.springframework.stereotype.Component;

/** Runs a {@link Script} on the engine, in one transaction, and points its errors at the request. */
@Component
class Statements {

    private final StatementEngine engine;

    Statements(StatementEngine engine) {
        this.engine = engine;
    }

    ExecutionResult run(Script script, String fallbackPointer) {
        try {
            return engine.execute(script.text(), script.params());
        } catch (VersoException.UserError e) {
            if (e.pointer() != null && e.line() <= 0) {
                throw e;
            }
            // The position is in text the client never saw: name the input it came from instead.
            throw new VersoException.UserError(e.code(), e.getMessage(), 0, 0, script.pointerAt(e, fallbackPointer));
        }
    }
}
