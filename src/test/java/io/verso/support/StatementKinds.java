package io.verso.support;

import io.verso.sql.ast.Statement;
import java.util.ArrayList;
import java.util.List;

/** Every kind of statement the syntax tree has: the records under {@link Statement}, through sealed sub-interfaces. */
public final class StatementKinds {

    private StatementKinds() {
    }

    public static List<Class<?>> all() {
        return under(Statement.class);
    }

    private static List<Class<?>> under(Class<?> sealed) {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> permitted : sealed.getPermittedSubclasses()) {
            if (permitted.isSealed()) {
                out.addAll(under(permitted));
            } else {
                out.add(permitted);
            }
        }
        return out;
    }
}
