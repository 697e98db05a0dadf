package io.verso.analyze;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * A deep copy of a syntax tree: every record node anew, lists copied, leaves (names, numbers, enums) shared.
 * The analyzer binds names in FROM by node identity, so a CTE read under another AS OF than its definition's
 * is analysed as a copy of its definition, as is a view's stored body read a second time in one statement.
 * Reflective, so a node
 * kind added to the syntax tree is copied with no change here.
 */
final class AstCopy {

    private AstCopy() {
    }

    @SuppressWarnings("unchecked")
    static <T> T of(T node) {
        return (T) copy(node);
    }

    private static Object copy(Object value) {
        if (value instanceof List<?> list) {
            List<Object> copied = new ArrayList<>(list.size());
            for (Object element : list) {
                copied.add(copy(element));
            }
            return java.util.Collections.unmodifiableList(copied);
        }
        if (value == null || !value.getClass().isRecord()) {
            return value;
        }
        RecordComponent[] components = value.getClass().getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] values = new Object[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                values[i] = copy(components[i].getAccessor().invoke(value));
            }
            Constructor<?> canonical = value.getClass().getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return canonical.newInstance(values);
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
            throw new IllegalStateException("cannot copy " + value.getClass().getName(), e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("cannot copy " + value.getClass().getName(), e.getCause());
        }
    }
}
