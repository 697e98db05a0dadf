package io.verso.surface;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.verso.analyze.DdlAnalyzer;
import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Statement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One filter vocabulary, {@link Filter.Op}: REST's filters take every word of it (where it applies to the
 * column's type), GraphQL's comparison inputs are generated from it (CrossSurfaceTests), and the OpenAPI
 * contract and the console's help list exactly its words.
 */
class FilterVocabularyTests {

    private static final TableDef T = ((java.util.function.Supplier<TableDef>) () -> DdlAnalyzer.createTable(
            (Statement.CreateTable) SqlParser.parse("CREATE TABLE t (k INT PRIMARY KEY, name TEXT, ok BOOLEAN, "
                    + "body JSONB)").statements().get(0), 1)).get();

    private static Set<String> words() {
        return new LinkedHashSet<>(Arrays.stream(Filter.Op.values()).map(Filter.Op::word).toList());
    }

    @Test
    void restTakesEveryWordWhereItAppliesAndRefusesItElsewhere() {
        for (Filter.Op op : Filter.Op.values()) {
            String value = switch (op) {
                case IS_NULL, NOT_NULL -> "";
                default -> ":a";
            };
            Filter.Compare parsed = (Filter.Compare) Filters.parse(T, "name:" + op.word() + value, 0);
            assertThat(parsed.op()).isEqualTo(op);
        }
        for (String refused : List.of("k:like:1", "ok:lt:true", "body:eq:1", "ok:in:true")) {
            VersoException.UserError e = catchThrowableOfType(VersoException.UserError.class,
                    () -> Filters.parse(T, refused, 0));
            assertThat(e).as(refused).isNotNull();
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PARAMETER);
            assertThat(e.getMessage()).contains("does not apply");
        }
        VersoException.UserError unknown = catchThrowableOfType(VersoException.UserError.class,
                () -> Filters.parse(T, "name:regex:a", 0));
        assertThat(unknown.getMessage()).contains(Filter.Op.words());
    }

    @Test
    void theContractListsTheWords() throws IOException {
        String contract = Files.readString(Path.of("openapi/verso.yaml"));
        int at = contract.indexOf("`op` is one of");
        assertThat(at).isPositive();
        String description = contract.substring(at + "`op`".length(), contract.indexOf("Filters are ANDed.", at));
        Set<String> listed = new LinkedHashSet<>();
        Matcher m = Pattern.compile("`([a-zA-Z]\\w*)`").matcher(description);
        while (m.find()) {
            listed.add(m.group(1));
        }
        assertThat(listed).isEqualTo(words());
    }

    @Test
    void theConsoleListsTheWords() throws IOException {
        String tables = Files.readString(Path.of("console/src/console/tables.jsx"));
        Matcher m = Pattern.compile("column:op:value, ops ([a-zA-Z ]+);").matcher(tables);
        assertThat(m.find()).isTrue();
        assertThat(new LinkedHashSet<>(List.of(m.group(1).trim().split(" ")))).isEqualTo(words());
    }
}
