package io.verso.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.verso.analyze.AsOfResolver;
import io.verso.error.VersoException;
import io.verso.plan.Planner;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Statement;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A read compiled with {@link ParamSlots} may be kept and run with other parameters (engine.KeptReads) only if
 * filling its slots gives, for any parameters of the same classes, exactly what compiling with those parameters
 * gives; and a read whose SQL a parameter's value shaped must say it cannot be kept for any values, and fill alike
 * for any parameters that hold the values it looked at. Checked on every SELECT of the golden files and on reads
 * that bind parameters in every place the compiler has one, with the golden catalog.
 */
class ParamSlotsTests {

    /** Reads with parameters in every kind of place; the first ones' SQL depends on a value, so none is kept. */
    private static final List<String> SHAPED_BY_A_VALUE = List.of(
            "SELECT * FROM items WHERE id = ? LIMIT ?",
            "SELECT * FROM items WHERE id = ? LIMIT 5 OFFSET ?",
            "SELECT * FROM items AS OF COMMIT ? WHERE id = ?",
            "SELECT name || ? FROM items GROUP BY name || ?");

    private static final List<String> READS = List.of(
            "SELECT * FROM items WHERE id = CAST(? AS BIGINT)",
            "SELECT * FROM balances WHERE chain_id = CAST(? AS BIGINT) AND address = CAST(? AS TEXT) AND token = ?",
            "SELECT id, name || ? || name, CAST(? AS TEXT), concat(?, name) FROM items WHERE id = ?",
            "SELECT id FROM items WHERE name LIKE ? OR name IN (?, ?, 'x') OR price BETWEEN ? AND ?",
            "SELECT CASE WHEN price > ? THEN ? ELSE name END, coalesce(price, ?) FROM items WHERE ix = ?",
            "SELECT id FROM items WHERE id IN (SELECT id FROM items WHERE price > ?) AND name <> ?",
            "SELECT name, count(*) FROM items WHERE price > ? GROUP BY name HAVING count(*) > ?",
            "SELECT id, row_number() OVER (PARTITION BY name ORDER BY price) FROM items WHERE ix < ?",
            "SELECT ? + 1, - ?, ? * price FROM items",
            "SELECT * FROM events WHERE at > CAST(? AS TIMESTAMPTZ) AND kind = ?",
            "WITH x AS (SELECT id, price FROM items WHERE price > ?) SELECT * FROM x WHERE id = ?");

    @Test
    void aKeptReadFilledWithOtherParametersIsWhatTheyCompileTo() throws Exception {
        List<String> reads = new ArrayList<>(READS);
        reads.addAll(SHAPED_BY_A_VALUE);
        for (Path file : GoldenCompilerTests.files()) {
            String content = Files.readString(file, StandardCharsets.UTF_8);
            String statement = content.substring(0, Math.max(0, content.indexOf(GoldenCompilerTests.MARK))).strip();
            if (statement.startsWith("SELECT") || statement.startsWith("WITH")) {
                reads.add(statement);
            }
        }
        // Parameters of each class a surface sends, two values each: the first compile's and another one's.
        List<IntFunction<Object>> first = List.of(i -> i + 1, i -> String.valueOf(i + 1),
                i -> new BigDecimal((i + 1) + ".5"), i -> JsonNodeFactory.instance.stringNode("s" + i), i -> (long) i);
        List<IntFunction<Object>> other = List.of(i -> 1000 - i, i -> "other " + i, i -> new BigDecimal("-7.25"),
                i -> JsonNodeFactory.instance.stringNode("o" + i), i -> (long) i << 40);
        int kept = 0;
        int keptForValues = 0;
        int compared = 0;
        for (String text : reads) {
            for (Statement statement : SqlParser.parse(text).statements()) {
                if (!(statement instanceof Statement.Select select)) {
                    continue;
                }
                int count = SqlParser.parse(text).parameterCount();
                for (int kind = 0; kind < first.size(); kind++) {
                    List<Object> a = params(count, first.get(kind));
                    List<Object> b = params(count, other.get(kind));
                    ParamSlots slots = new ParamSlots(a);
                    CompiledSql template;
                    try {
                        template = Planner.read(select, GoldenCompilerTests.PLANNED, new AsOfResolver(slots, 100), slots)
                                .query();
                    } catch (VersoException refused) {
                        assertThatThrownBy(() -> compiled(select, a)).as(text).isInstanceOf(VersoException.class);
                        continue;
                    }
                    compared++;
                    assertThat(typed(ParamSlots.fill(template, a))).as(text).isEqualTo(typed(compiled(select, a)));
                    if (slots.keepable()) {
                        kept++;
                        assertThat(SHAPED_BY_A_VALUE).as(text + " is shaped by a value").doesNotContain(text);
                        assertThat(typed(ParamSlots.fill(template, b))).as(text + " with " + b)
                                .isEqualTo(typed(compiled(select, b)));
                    } else {
                        // Kept for the values it looked at: any parameters holding those there fill it alike.
                        List<Object> c = new ArrayList<>(b);
                        for (int i : slots.looked()) {
                            c.set(i, a.get(i));
                        }
                        keptForValues++;
                        assertThat(typed(ParamSlots.fill(template, c))).as(text + " with " + c)
                                .isEqualTo(typed(compiled(select, c)));
                    }
                }
            }
        }
        assertThat(compared).as("reads compiled both ways").isGreaterThan(100);
        assertThat(kept).as("reads that could be kept").isGreaterThan(60);
        assertThat(keptForValues).as("reads kept for the values they looked at").isGreaterThanOrEqualTo(
                SHAPED_BY_A_VALUE.size());
        for (String text : SHAPED_BY_A_VALUE) {
            Statement.Select select = (Statement.Select) SqlParser.parse(text).statements().get(0);
            ParamSlots slots = new ParamSlots(params(SqlParser.parse(text).parameterCount(), i -> i + 1));
            Planner.read(select, GoldenCompilerTests.PLANNED, new AsOfResolver(slots, 100), slots);
            assertThat(slots.keepable()).as(text).isFalse();
            assertThat(slots.looked()).as(text).isNotEmpty();
        }
    }

    /** The text and each bind with its class: a String and typed text are sent differently. */
    private static List<String> typed(CompiledSql sql) {
        List<String> out = new ArrayList<>(List.of(sql.sql()));
        sql.binds().forEach(v -> out.add(v == null ? "null" : v.getClass().getSimpleName() + " " + v));
        return out;
    }

    private static CompiledSql compiled(Statement.Select select, List<Object> params) {
        return Planner.read(select, GoldenCompilerTests.PLANNED, new AsOfResolver(params, 100), params).query();
    }

    private static List<Object> params(int count, IntFunction<Object> value) {
        List<Object> params = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            params.add(value.apply(i));
        }
        return params;
    }
}
