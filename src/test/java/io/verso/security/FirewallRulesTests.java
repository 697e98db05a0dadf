package io.verso.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The firewall's character checks written as loops allow and refuse exactly what Spring Security's own
 * expressions do (copied here from StrictHttpFirewall 7.0), on text mixing printable ASCII with control
 * characters, tabs, unassigned code points, surrogate pairs and lone surrogates.
 */
class FirewallRulesTests {

    private static final Pattern NAME = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");
    private static final Pattern HEADER_VALUE = Pattern.compile("[\\p{IsAssigned}&&[[^\\p{IsControl}]||\\t]]*");

    @Property(tries = 3000)
    void namesAndValuesAreJudgedAsStrictHttpFirewallJudgesThem(@ForAll("text") String text) {
        assertThat(FirewallRules.NAME.test(text)).as(escaped(text)).isEqualTo(NAME.matcher(text).matches());
        assertThat(FirewallRules.HEADER_VALUE.test(text)).as(escaped(text))
                .isEqualTo(HEADER_VALUE.matcher(text).matches());
    }

    @Test
    void whatEachRuleRefuses() {
        assertThat(FirewallRules.NAME.test("X-API-Key")).isTrue();
        assertThat(FirewallRules.HEADER_VALUE.test("vk_secret part, é ü 日本")).isTrue();
        assertThat(FirewallRules.HEADER_VALUE.test("a\tb")).isTrue();
        assertThat(FirewallRules.NAME.test("a\tb")).isFalse();
        assertThat(FirewallRules.HEADER_VALUE.test("vk_secret\u007fpart")).isFalse();
        assertThat(FirewallRules.HEADER_VALUE.test("a\u0000")).isFalse();
        assertThat(FirewallRules.HEADER_VALUE.test("a\u0085")).isFalse();
        assertThat(FirewallRules.HEADER_VALUE.test("\u0378")).isFalse();
        assertThat(FirewallRules.HEADER_VALUE.test("\ud83d\ude00")).isTrue();
        assertThat(FirewallRules.HEADER_VALUE.test("")).isTrue();
    }

    @Provide
    Arbitrary<String> text() {
        Arbitrary<String> piece = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.chars().range(' ', '~').map(String::valueOf)),
                Tuple.of(1, Arbitraries.chars().range('\u0000', '\u001f').map(String::valueOf)),
                Tuple.of(1, Arbitraries.of("\t", "\u007f", "\u0085", "\u009f", "\u00a0", "\u00e9")),
                Tuple.of(1, Arbitraries.integers().between(0x80, 0x10ffff).map(Character::toString)),
                Tuple.of(1, Arbitraries.chars().range('\ud800', '\udfff').map(String::valueOf)));
        return piece.list().ofMaxSize(12).map(pieces -> String.join("", pieces));
    }

    private static String escaped(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(p -> out.append(p >= 0x20 && p < 0x7f ? Character.toString(p)
                : String.format("\\u{%x}", p)));
        return out.toString();
    }
}
