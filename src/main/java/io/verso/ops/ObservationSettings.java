package io.verso.ops;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.observation.SecurityObservationSettings;

/**
 * Which requests are observed: every HTTP request once ({@code http_server_requests_seconds}), not
 * each of Spring Security's filters and authorization decisions as well. Those observations (a timer
 * and a long task timer per filter chain half and per decision, looked up by their tags on every
 * request) cost more CPU than a one-key read's own work, and no documented metric comes from them.
 */
@Configuration(proxyBeanMethods = false)
class ObservationSettings {

    @Bean
    SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }
}
