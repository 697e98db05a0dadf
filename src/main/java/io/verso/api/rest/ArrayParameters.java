package io.verso.api.rest;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.propertyeditors.StringArrayPropertyEditor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.support.WebBindingInitializer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * A lone query value stays one value: Spring would split {@code filter=k:in:1,2} at its commas when
 * converting it to a {@code String[]} parameter, which would change what filters and keys mean. The
 * editor is registered on every data binder by the adapter's binding initializer (after its defaults:
 * conversion service, validator) rather than by a controller's {@code @InitBinder}, for which Spring
 * builds and invokes a handler method on every request. Only {@link RowsController} takes arrays.
 */
@Configuration(proxyBeanMethods = false)
class ArrayParameters {

    @Bean
    static BeanPostProcessor keepCommasInArrayParameters() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (bean instanceof RequestMappingHandlerAdapter adapter) {
                    WebBindingInitializer defaults = adapter.getWebBindingInitializer();
                    adapter.setWebBindingInitializer(binder -> {
                        if (defaults != null) {
                            defaults.initBinder(binder);
                        }
                        binder.registerCustomEditor(String[].class, new StringArrayPropertyEditor(null));
                    });
                }
                return bean;
            }
        };
    }
}
