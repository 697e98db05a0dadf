package io.verso.compile;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A request's parameters as the compiler sees them when its statement may be kept and run again with the
 * parameters of later requests (engine.KeptReads). Where a parameter is bound just as it is, the compiler binds a
 * {@link Slot} in its place, which {@link #fill} replaces with the parameter of each request that runs the
 * statement. Any other look at a value ({@link #get}: a LIMIT's count, an AS OF commit, two binds compared) may
 * have shaped the statement, so it is recorded: the statement can then be kept only for those values
 * ({@link #looked}). A decision on a value's class alone ({@link #isText}, {@link #isString}) is allowed: a kept
 * statement is found by its parameters' classes.
 */
public final class ParamSlots extends AbstractList<Object> {

    /** Where a bind of parameter {@code index} stands; {@code text}: sent typed text ({@link CompiledSql.TextBind}). */
    public record Slot(int index, boolean text) {
    }

    private final List<Object> params;
    private final BitSet valuesSeen = new BitSet();

    public ParamSlots(List<Object> params) {
        this.params = params;
    }

    /** A parameter's value, which the statement may then depend on: the statement can no longer be kept. */
    @Override
    public Object get(int index) {
        valuesSeen.set(index);
        return params.get(index);
    }

    @Override
    public int size() {
        return params.size();
    }

    /**
     * Whether parameter {@code index} is bound as a string ({@link ExprCompiler#parameter}): a String or a JSON
     * value is, whatever it holds; nothing else is. So it is decided by the value's class.
     */
    boolean isText(int index) {
        return ExprCompiler.parameter(params.get(index)) instanceof String;
    }

    /** Whether parameter {@code index} was given as a String: decided by the value's class. */
    boolean isString(int index) {
        return params.get(index) instanceof String;
    }

    /** Whether the compiled statement depends on no parameter's value, only on where each is bound. */
    public boolean keepable() {
        return valuesSeen.isEmpty();
    }

    /**
     * The parameters whose values were looked at, in order: the statement is what compiling gives for any
     * parameters of the same classes that hold these same values at these places (an AS OF commit, a LIMIT).
     */
    public int[] looked() {
        return valuesSeen.stream().toArray();
    }

    /**
     * {@code compiled} with each slot replaced by its parameter among {@code params}, as the compiler would have
     * bound it: through {@link ExprCompiler#parameter}, and as typed text where the slot says so.
     */
    public static CompiledSql fill(CompiledSql compiled, List<Object> params) {
        List<Object> binds = null;
        for (int i = 0; i < compiled.binds().size(); i++) {
            if (compiled.binds().get(i) instanceof Slot slot) {
                if (binds == null) {
                    binds = new ArrayList<>(compiled.binds());
                }
                Object value = ExprCompiler.parameter(params.get(slot.index()));
                binds.set(i, slot.text() ? new CompiledSql.TextBind((String) value) : value);
            }
        }
        return binds == null ? compiled : new CompiledSql(compiled.sql(), java.util.Collections.unmodifiableList(binds));
    }
}
