package io.verso.pgwire;

import io.verso.engine.StatementResult;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/** A statement's result as messages: RowDescription, DataRows and its CommandComplete tag. */
final class ResultMessages {

    private ResultMessages() {
    }

    /** The format of column {@code i}: Bind's result format codes (none: text; one: every column's). */
    static int format(int[] formats, int i) {
        return formats.length == 0 ? 0 : formats.length == 1 ? formats[0] : i < formats.length ? formats[i] : 0;
    }

    static void rowDescription(WireOutput out, List<StatementResult.Column> columns, int[] formats) throws IOException {
        out.begin('T').int16(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            int oid = PgTypes.oid(columns.get(i).type());
            out.cstring(columns.get(i).name()).int32(0).int16(0).int32(oid).int16(PgTypes.length(oid)).int32(-1)
                    .int16(format(formats, i));
        }
        out.end();
    }

    /** Rows {@code from} (inclusive) to {@code to} (exclusive) of a result. */
    static void dataRows(WireOutput out, StatementResult.Rows result, int from, int to, int[] formats)
            throws IOException {
        List<StatementResult.Column> columns = result.columns();
        int[] oids = new int[columns.size()];
        for (int i = 0; i < oids.length; i++) {
            oids[i] = PgTypes.oid(columns.get(i).type());
        }
        for (int r = from; r < to; r++) {
            List<Object> row = result.rows().get(r);
            out.begin('D').int16(row.size());
            for (int i = 0; i < row.size(); i++) {
                Object value = row.get(i);
                out.value(format(formats, i) == 1 ? PgTypes.binary(value, oids[i]) : PgTypes.text(value, oids[i]));
            }
            out.end();
        }
    }

    /** The CommandComplete tag of a result, {@code rows} being the rows this Execute sent of a read. */
    static String tag(StatementResult result, int rows) {
        if (result instanceof StatementResult.Rows r) {
            String statement = r.statement().toUpperCase(Locale.ROOT);
            return statement.startsWith("SHOW") ? "SHOW" : statement.startsWith("EXPLAIN") ? "EXPLAIN"
                    : statement.startsWith("DESC") ? "DESCRIBE" : "SELECT " + rows;
        }
        if (result instanceof StatementResult.Written w) {
            String statement = w.statement().toUpperCase(Locale.ROOT);
            // UPSERT reports as INSERT, the tag drivers read an update count from.
            return statement.startsWith("INSERT") || statement.startsWith("UPSERT") ? "INSERT 0 " + w.rows()
                    : statement.split(" ")[0] + " " + w.rows();
        }
        StatementResult.Changed c = (StatementResult.Changed) result;
        return c.statement().equals("START TRANSACTION") ? "BEGIN" : c.statement();
    }

    static void complete(WireOutput out, String tag) throws IOException {
        out.begin('C').cstring(tag).end();
    }
}
