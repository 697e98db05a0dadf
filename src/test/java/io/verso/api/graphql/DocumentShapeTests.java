package io.verso.api.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import graphql.language.AstPrinter;
import graphql.language.Document;
import graphql.language.FloatValue;
import graphql.language.IntValue;
import graphql.language.Node;
import graphql.language.StringValue;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.Parser;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link DocumentShape} against graphql-java's own parser: the literals it takes out are the document's int, float
 * and string values, in order and with their values; documents it calls of one shape parse to the same tree but
 * for those values; and a document it is unsure of is left whole.
 */
class DocumentShapeTests {

    @Test
    void aKeyWrittenIntoTheDocumentIsTakenOut() {
        DocumentShape one = DocumentShape.of("{ t_by_key(k: 1, at: \"12\") { a b } }");
        DocumentShape other = DocumentShape.of("{ t_by_key(k: -204, at: \"\") { a b } }");
        assertThat(one.masked()).isTrue();
        assertThat(one.text()).isEqualTo(other.text());
        assertThat(one.literals()).containsExactly(new DocumentShape.Literal('I', "1"),
                new DocumentShape.Literal('S', "12"));
        assertThat(other.literals()).containsExactly(new DocumentShape.Literal('I', "-204"),
                new DocumentShape.Literal('S', ""));
        // Another kind of literal is another shape.
        assertThat(DocumentShape.of("{ t_by_key(k: 1.5, at: \"12\") { a b } }").text()).isNotEqualTo(one.text());
        assertThat(DocumentShape.of("{ t_by_key(k: \"1\", at: \"12\") { a b } }").text()).isNotEqualTo(one.text());
    }

    @Test
    void whatItIsUnsureOfIsItsOwnShape() {
        for (String document : List.of("{ t(k: \"a\\\"b\") { a } }", "{ t(k: \"\"\"block\"\"\") { a } }",
                "{ t(k: 01) { a } }", "{ t(k: 1a) { a } }", "{ t(k: 1.) { a } }", "{ t(k: 1e) { a } }",
                "{ t(k: 1.5.5) { a } }", "{ t(k: \"open) { a } }", "{ t(k: \"tab\there\") { a } }",
                "{ t(k: 1) { a } } %", "{ t(k: \u0001I) { a } }", "{ t(k: -) { a } }")) {
            DocumentShape shape = DocumentShape.of(document);
            assertThat(shape.masked()).as(document).isFalse();
            assertThat(shape.text()).isEqualTo(document);
            assertThat(shape.literals()).isEmpty();
        }
    }

    @Test
    void itsLiteralsAreGraphqlJavasOnRandomDocuments() {
        Random random = new Random(26);
        int compared = 0;
        for (int i = 0; i < 5_000; i++) {
            StringBuilder document = new StringBuilder("query Q($v: Int = ").append(value(random, 1)).append(")")
                    .append(ignored(random)).append("{ t_by_key(");
            int arguments = 1 + random.nextInt(4);
            for (int a = 0; a < arguments; a++) {
                document.append(ignored(random)).append("a").append(a).append(ignored(random)).append(":")
                        .append(ignored(random)).append(value(random, 2)).append(ignored(random));
            }
            document.append(")").append(random.nextBoolean() ? " @d(x: " + value(random, 1) + ")" : "")
                    .append(" { a } }");
            String text = document.toString();
            Document parsed;
            try {
                parsed = Parser.parse(text);
            } catch (InvalidSyntaxException invalid) {
                continue;
            }
            DocumentShape shape = DocumentShape.of(text);
            List<DocumentShape.Literal> expected = literals(parsed);
            if (!shape.masked()) {
                continue; // a string with an escape, in these documents
            }
            compared++;
            // The shape keeps a number's text, graphql-java its value: compare the values.
            assertThat(shape.literals().stream().map(DocumentShapeTests::valued).toList()).as(text).isEqualTo(expected);
            // Another document of the same shape parses to the same tree but for its literals' values.
            StringBuilder twin = new StringBuilder();
            String[] parts2 = shape.text().split("\u0001", -1);
            twin.append(parts2[0]);
            for (int p = 1; p < parts2.length; p++) {
                char kind = parts2[p].charAt(0);
                twin.append(kind == 'I' ? "7" : kind == 'F' ? "7.25e1" : "\"x\"").append(parts2[p].substring(1));
            }
            Document other = Parser.parse(twin.toString());
            assertThat(DocumentShape.of(twin.toString()).text()).isEqualTo(shape.text());
            assertThat(withoutValues(AstPrinter.printAstCompact(other)))
                    .isEqualTo(withoutValues(AstPrinter.printAstCompact(parsed)));
        }
        assertThat(compared).isGreaterThan(1_000);
    }

    /** A value: a literal, a variable, a list, an object, an enum, a boolean or null. */
    private static String value(Random random, int depth) {
        return switch (random.nextInt(depth > 0 ? 10 : 7)) {
            case 0, 1, 2, 3 -> literal(random);
            case 4 -> "$v";
            case 5 -> random.nextBoolean() ? "true" : "null";
            case 6 -> "RED";
            case 7 -> "[" + value(random, depth - 1) + ignored(random) + value(random, depth - 1) + "]";
            case 8 -> "{x:" + ignored(random) + value(random, depth - 1) + "}";
            default -> "\"esc\\naped\"";
        };
    }

    /** What the grammar ignores between tokens: at least one of it. */
    private static String ignored(Random random) {
        String[] ignored = {" ", ",", "\n", "\t", "\r\n", "# 12 \"c\" -3.5\n", "\uFEFF", " ,, "};
        return ignored[random.nextInt(ignored.length)];
    }

    private static String literal(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> Integer.toString(random.nextInt(2000) - 1000);
            case 1 -> "-0";
            case 2 -> random.nextInt(100) + "." + random.nextInt(100);
            case 3 -> random.nextInt(9) + "e" + (random.nextBoolean() ? "-" : "+") + random.nextInt(9);
            case 4 -> "\"s" + random.nextInt(100) + " é𝄞#\"";
            default -> "\"\"";
        };
    }

    /** graphql-java's int, float and string values of {@code document}, in document order. */
    private static List<DocumentShape.Literal> literals(Document document) {
        List<Node<?>> values = new ArrayList<>();
        collect(document, values);
        values.sort((x, y) -> {
            int line = Integer.compare(x.getSourceLocation().getLine(), y.getSourceLocation().getLine());
            return line != 0 ? line : Integer.compare(x.getSourceLocation().getColumn(), y.getSourceLocation().getColumn());
        });
        List<DocumentShape.Literal> literals = new ArrayList<>();
        for (Node<?> value : values) {
            if (value instanceof IntValue i) {
                literals.add(new DocumentShape.Literal('I', i.getValue().toString()));
            } else if (value instanceof FloatValue f) {
                literals.add(new DocumentShape.Literal('F', f.getValue().toString()));
            } else if (value instanceof StringValue s) {
                literals.add(new DocumentShape.Literal('S', s.getValue()));
            }
        }
        return literals;
    }

    private static DocumentShape.Literal valued(DocumentShape.Literal literal) {
        return switch (literal.kind()) {
            case 'I' -> new DocumentShape.Literal('I', new BigInteger(literal.value()).toString());
            case 'F' -> new DocumentShape.Literal('F', new BigDecimal(literal.value()).toString());
            default -> literal;
        };
    }

    private static void collect(Node<?> node, List<Node<?>> values) {
        if (node instanceof IntValue || node instanceof FloatValue || node instanceof StringValue) {
            values.add(node);
        }
        for (Node<?> child : node.getChildren()) {
            collect(child, values);
        }
    }

    private static String withoutValues(String printed) {
        return printed.replaceAll("\"[^\"]*\"|-?[0-9][0-9.eE+-]*", "V");
    }
}
