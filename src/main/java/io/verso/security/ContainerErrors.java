package io.verso.security;

import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.catalina.core.StandardHost;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * Errors raised below Spring MVC answer problem details too: the servlet container's error dispatch
 * (and a client asking for /error itself) through {@link ProblemErrors}, and the errors Tomcat answers
 * before the application sees the request through {@link ProblemErrorReportValve}.
 */
@Configuration(proxyBeanMethods = false)
class ContainerErrors {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }

    /**
     * Spring Security's firewall refuses a request it finds unsafe (a header value with a character it does
     * not allow, a path with an encoded slash or "..") when a filter first reads the part: answered here,
     * inside the request-id filter, naming the header and never echoing its value (it may be an API key).
     */
    @Bean
    RequestRejectedHandler problemForRejectedRequests() {
        return (request, response, rejected) -> {
            String message = String.valueOf(rejected.getMessage());
            Matcher header = REJECTED_HEADER.matcher(message);
            Problem.of(ErrorCode.INVALID_REQUEST, header.find()
                    ? "the request header '" + header.group(1).strip() + "' holds a character that is not allowed in "
                    + "a header " + (message.contains("header name") ? "name" : "value")
                    + " (a control character or an unassigned one): send it as printable ASCII"
                    : message.contains("header") ? "a request header holds a character that is not allowed in a header"
                    // The firewall's words on a path name the sequence it refused, never the caller's data.
                    : message).write(request, response);
        };
    }

    /** The header StrictHttpFirewall names: {@code header: "X-API-Key " has a value}, {@code header name "…"}. */
    private static final Pattern REJECTED_HEADER =
            Pattern.compile("header(?: name)?:? \"([!#$%&'*+.^_`|~0-9A-Za-z -]{1,64})\"");

    /** Replaces Boot's BasicErrorController: one problem per container error, never a 500 for /error itself. */
    @Controller
    static class ProblemErrors implements ErrorController {

        @RequestMapping("/error")
        void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
            Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
            int code = status instanceof Integer s ? s : 404;
            Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
            Problem problem;
            if (code == 404) {
                problem = Problem.ofStatus(404, status == null ? "there is no error to show here"
                        : "no resource at " + uri, null);
            } else if (code == 405) {
                problem = Problem.notAllowed(request.getMethod(), String.valueOf(uri), response.getHeader("Allow"));
            } else {
                problem = Problem.ofStatus(code, code >= 500 ? "internal error"
                        : "the request was refused (HTTP " + code + ")", null);
            }
            problem.write(request, response);
        }
    }
}
