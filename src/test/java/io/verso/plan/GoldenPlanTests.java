package io.verso.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.analyze.AsOfResolver;
import io.verso.sql.SqlParser;
import io.verso.sql.ast.Statement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Statement in, plan out, as EXPLAIN prints it: one file per case under src/test/resources/golden-plans,
 * the statement above {@code -- plan}, the printed plan below, made by the real {@link Planner} and
 * {@link PlanPrinter} (not a copy of the engine's dispatch). A change is a reviewed diff: run with
 * {@code -Dgolden.update=true} to rewrite the files. Pure: the in-memory {@link PlanCatalog}, latest
 * commit 100, the i-th parameter bound to i.
 */
class GoldenPlanTests {

    private static final Path DIR = Path.of("src/test/resources/golden-plans");
    private static final String MARK = "-- plan";
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");

    static String plan(String text) {
        SqlParser.Script script = SqlParser.parse(text);
        List<Object> params = new ArrayList<>();
        for (int i = 0; i < script.parameterCount(); i++) {
            params.add(i + 1);
        }
        List<String> out = new ArrayList<>();
        for (Statement statement : script.statements()) {
            Statement planned = statement instanceof Statement.Explain e ? e.statement() : statement;
            out.addAll(PlanPrinter.print(Planner.plan(planned, new PlanCatalog(), new AsOfResolver(params, 100),
                    params)));
        }
        return String.join("\n", out);
    }

    @TestFactory
    Stream<DynamicTest> everyGoldenPlanMatches() throws IOException {
        List<Path> files;
        try (Stream<Path> listed = Files.list(DIR)) {
            files = listed.filter(p -> p.toString().endsWith(".sql")).sorted().toList();
        }
        assertThat(files).as("golden plan files").hasSizeGreaterThan(8);
        return files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
            String content = Files.readString(file, StandardCharsets.UTF_8);
            int mark = content.indexOf(MARK);
            String statement = (mark < 0 ? content : content.substring(0, mark)).strip();
            String actual = plan(statement);
            if (UPDATE || mark < 0) {
                Files.writeString(file, statement + "\n" + MARK + "\n" + actual + "\n", StandardCharsets.UTF_8);
                return;
            }
            assertThat(actual).as(file.toString()).isEqualTo(content.substring(mark + MARK.length()).strip());
        }));
    }
}
