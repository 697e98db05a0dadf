package io.verso.surface;

import io.verso.catalog.ColumnDef;
import io.verso.engine.StatementResult;
import java.util.List;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JacksonSerializable;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.jsontype.TypeSerializer;

/**
 * The outcome of each row of a write, in request order, as openapi/verso.yaml's KeyOutcome objects
 * ({@code {"index": 0, "key": {...}, "outcome": "CURRENT"}}), written straight from the key texts and
 * outcomes the engine reports, each key value in its column's JSON form: the receipt of a thousand rows
 * builds no map per key and no object per outcome.
 */
public final class KeyOutcomes extends JacksonSerializable.Base {

    private final List<ColumnDef> keyColumns;
    private final List<StatementResult.Written> statements;

    /** The rows of {@code statements}, one after another, keyed by {@code keyColumns}. */
    KeyOutcomes(List<ColumnDef> keyColumns, List<StatementResult.Written> statements) {
        this.keyColumns = keyColumns;
        this.statements = statements;
    }

    @Override
    public void serialize(JsonGenerator generator, SerializationContext context) {
        generator.writeStartArray();
        int index = 0;
        for (StatementResult.Written written : statements) {
            for (int r = 0; r < written.rows(); r++) {
                generator.writeStartObject();
                generator.writeNumberProperty("index", index++);
                generator.writeName("key");
                writeKey(generator, context, written.keys().get(r));
                generator.writeStringProperty("outcome", written.rowCurrent()[r] ? "CURRENT" : "LOST");
                generator.writeEndObject();
            }
        }
        generator.writeEndArray();
    }

    private void writeKey(JsonGenerator generator, SerializationContext context, String[] texts) {
        generator.writeStartObject();
        for (int k = 0; texts != null && k < keyColumns.size() && k < texts.length; k++) {
            generator.writeName(keyColumns.get(k).name());
            Object value = JsonForms.fromKeyText(keyColumns.get(k), texts[k]);
            if (value instanceof String text) {
                generator.writeString(text);
            } else {
                context.writeValue(generator, value);
            }
        }
        generator.writeEndObject();
    }

    @Override
    public void serializeWithType(JsonGenerator generator, SerializationContext context, TypeSerializer types) {
        serialize(generator, context);
    }
}
