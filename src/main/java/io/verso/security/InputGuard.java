package io.verso.security;

import io.verso.config.VersoProperties;
import io.verso.error.ErrorCode;
import io.verso.error.Problem;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Map;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Text that PostgreSQL would store changed or refuse deep inside a statement is refused at the door,
 * naming where it is: invalid UTF-8 in a body, and a lone UTF-16 surrogate or a NUL character in the
 * path, a query parameter, or any string (or field name) of a JSON body — as JSON escapes
 * ({@code "\ud800"}) they decode to text PostgreSQL's UTF-8 cannot hold, which pgjdbc would send as
 * {@code ?}. Bodies are read within {@code verso.max-request-bytes}.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 20)
class InputGuard extends OncePerRequestFilter {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final VersoProperties limits;

    InputGuard(VersoProperties limits) {
        this.limits = limits;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String bad = badText(request.getRequestURI()) ? "the path" : null;
        for (Enumeration<String> names = request.getParameterNames(); bad == null && names.hasMoreElements(); ) {
            String name = names.nextElement();
            if (badText(name)) {
                bad = "a query parameter name";
            }
            for (String value : request.getParameterValues(name)) {
                if (bad == null && badText(value)) {
                    bad = "query parameter '" + name + "'";
                }
            }
        }
        if (bad != null) {
            Problem.of(ErrorCode.INVALID_VALUE, bad + " holds a NUL character, a lone UTF-16 surrogate "
                    + "or bytes that are not UTF-8").write(request, response);
            return;
        }
        String type = request.getContentType();
        if (type == null || !type.toLowerCase().contains("json")
                || !("POST".equals(request.getMethod()) || "PUT".equals(request.getMethod()))) {
            chain.doFilter(request, response);
            return;
        }
        byte[] body = BodyRequest.read(request, limits.maxRequestBytes());
        if (body == null) {
            Problem.tooLarge(limits.maxRequestBytes()).write(request, response);
            return;
        }
        Problem refused = refusal(body);
        if (refused != null) {
            refused.write(request, response);
            return;
        }
        chain.doFilter(BodyRequest.with(request, body), response);
    }

    /** Why a JSON body is refused (not UTF-8, or a string in it holding a NUL or a lone surrogate), or null. */
    static Problem refusal(byte[] body) {
        // One pass over the bytes: ASCII needs no decoding to be valid, and only a \\u escape can smuggle a
        // surrogate or a NUL into a JSON string (a multi-byte UTF-8 sequence holds no ASCII byte).
        boolean ascii = true;
        boolean escape = false;
        for (int i = 0; i < body.length; i++) {
            byte b = body[i];
            if (b < 0) {
                ascii = false;
            } else if (b == '\\' && i + 1 < body.length && (body[i + 1] == 'u' || body[i + 1] == 'U')) {
                escape = true;
            }
        }
        if (!ascii) {
            try {
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body));
            } catch (CharacterCodingException e) {
                return Problem.of(ErrorCode.INVALID_REQUEST, "the request body is not valid UTF-8");
            }
        }
        if (escape) {
            String pointer = null;
            try {
                pointer = find(JSON.readTree(body), "");
            } catch (JacksonException e) {
                // Not JSON: the endpoint says so in its own words.
            }
            if (pointer != null) {
                return Problem.of(ErrorCode.INVALID_VALUE, "the string at " + (pointer.isEmpty() ? "/" : pointer)
                        + " holds a NUL character or a lone UTF-16 surrogate, which cannot be stored as text",
                        pointer.isEmpty() ? "/" : pointer);
            }
        }
        return null;
    }

    /** The JSON pointer of the first string holding a NUL or a lone surrogate, or null. */
    private static String find(JsonNode node, String at) {
        if (node == null) {
            return null;
        }
        if (node.isString()) {
            return badText(node.asString()) ? at : null;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String found = find(node.get(i), at + "/" + i);
                if (found != null) {
                    return found;
                }
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String path = at + "/" + field.getKey().replace("~", "~0").replace("/", "~1");
                if (badText(field.getKey())) {
                    return path;
                }
                String found = find(field.getValue(), path);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** NUL, a lone surrogate, or U+FFFD (how the container reports bytes that were not UTF-8). */
    static boolean badText(String text) {
        if (text == null) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0 || c == '\uFFFD') {
                return true;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return true;
            }
            if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
