package io.verso.security;

import java.util.function.Predicate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's {@link StrictHttpFirewall} with its default rules, only its character checks of header
 * names, header values and parameter names written as loops over the code points instead of its regular
 * expressions ({@code [\p{IsAssigned}&&[^\p{IsControl}]]*}, and the same allowing a tab in a value). The
 * firewall checks every header a filter reads, on every request: the expressions were 3.4% of the Java CPU
 * of a one-key read (docs/benchmark.md), a matcher allocated per header. What they allow and refuse is unchanged
 * ({@code FirewallRulesTests} compares both on random text), and so is the refusal, which
 * {@link ContainerErrors} renders.
 */
@Configuration(proxyBeanMethods = false)
class FirewallRules {

    /** A header or parameter name: every code point assigned, none a control character. */
    static final Predicate<String> NAME = text -> allowed(text, false);

    /** A header value: the same, but a tab is allowed. */
    static final Predicate<String> HEADER_VALUE = text -> allowed(text, true);

    @Bean
    WebSecurityCustomizer strictFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(NAME);
        firewall.setAllowedHeaderValues(HEADER_VALUE);
        firewall.setAllowedParameterNames(NAME);
        return web -> web.httpFirewall(firewall);
    }

    static boolean allowed(String text, boolean tab) {
        for (int i = 0; i < text.length(); ) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                i++;
                continue;
            }
            int point = text.codePointAt(i);
            int type = Character.getType(point);
            if (type == Character.UNASSIGNED || type == Character.CONTROL && !(tab && point == '\t')) {
                return false;
            }
            i += Character.charCount(point);
        }
        return true;
    }
}
