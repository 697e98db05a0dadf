package io.verso.api.rest;

import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementEngine;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Admission;
import io.verso.sql.ScriptCache;
import io.verso.sql.SqlParser;
import io.verso.surface.JsonScalars;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code POST /v1/sql}: statements in, rows and receipts out. */
@RestController
class SqlController {

    /** Numbers keep their exact value: floats as BigDecimal, integers of any size. */
    private static final JsonMapper REQUEST_JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    /** The same, reading one value after another from a streaming parser. */
    private static final JsonMapper VALUES = REQUEST_JSON.rebuild()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private final StatementEngine engine;
    /** Clients repeat their parameterised texts (batch UPSERTs, reads by key): each is parsed once. */
    private final ScriptCache scripts = new ScriptCache(1_000_000);

    SqlController(StatementEngine engine) {
        this.engine = engine;
    }

    @PostMapping(path = "/v1/sql", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> execute(@RequestBody byte[] body,
                                @RequestHeader(name = "Verso-Actor", required = false) String actor) {
        Request request = streamed(body);
        if (request == null) {
            request = tree(new String(body, StandardCharsets.UTF_8));
        }
        SqlParser.Script script = scripts.parse(request.sql());
        // Admitted by what the statements do (security.AdmissionFilter): a one-key read or small write is light.
        Admission.admit(() -> engine.light(script));
        return render(engine.execute(script, request.params(), actor));
    }

    /** The statement text and its parameters' values. */
    private record Request(String sql, List<Object> params) {
    }

    /**
     * The request read in one pass of a streaming parser, straight from the bytes (the parameters of a
     * large batch are most of the body); null for anything but a well-formed object with a string
     * {@code sql} and an array or null {@code params}: {@link #tree} then reads it, and refuses it in the
     * words it always has.
     */
    private static Request streamed(byte[] body) {
        try (JsonParser p = VALUES.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String sql = null;
            List<Object> params = new ArrayList<>();
            for (String name = p.nextName(); name != null; name = p.nextName()) {
                JsonToken token = p.nextToken();
                if (name.equals("sql")) {
                    sql = token == JsonToken.VALUE_STRING ? p.getString() : null;
                    p.skipChildren();
                } else if (name.equals("params")) {
                    // A later "params" replaces an earlier one, as in a tree.
                    params = new ArrayList<>();
                    if (token == JsonToken.START_ARRAY) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            params.add(JsonValues.read(p, VALUES));
                        }
                    } else if (token != JsonToken.VALUE_NULL) {
                        return null;
                    }
                } else {
                    p.skipChildren();
                }
            }
            return sql != null && p.nextToken() == null ? new Request(sql, params) : null;
        } catch (JacksonException | NumberFormatException e) {
            return null;
        }
    }

    private static Request tree(String body) {
        JsonNode request;
        try {
            request = REQUEST_JSON.readTree(body);
        } catch (JacksonException e) {
            throw VersoException.pointing(ErrorCode.INVALID_REQUEST, JsonScalars.notJson(e), "/");
        } catch (NumberFormatException e) {
            throw VersoException.pointing(ErrorCode.INVALID_REQUEST, JsonScalars.outOfRange(e), "/");
        }
        if (request == null || !request.isObject()) {
            throw VersoException.pointing(ErrorCode.INVALID_REQUEST,
                    "the request body must be a JSON object with a \"sql\" string", "/");
        }
        JsonNode sql = request.get("sql");
        if (sql == null || !sql.isString()) {
            throw VersoException.pointing(ErrorCode.INVALID_REQUEST, "\"sql\" must be a string", "/sql");
        }
        JsonNode params = request.get("params");
        if (params != null && !params.isNull() && !params.isArray()) {
            throw VersoException.pointing(ErrorCode.INVALID_REQUEST, "\"params\" must be an array", "/params");
        }
        List<Object> values = new ArrayList<>();
        if (params != null && params.isArray()) {
            params.forEach(p -> values.add(JsonValues.toJava(p)));
        }
        return new Request(sql.asString(), values);
    }

    private static Map<String, Object> render(ExecutionResult result) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("commit", result.commit() == null ? null : result.commit().toString());
        out.put("readCommit", String.valueOf(result.readCommit()));
        out.put("results", result.results().stream().map(SqlController::render).toList());
        return out;
    }

    private static Map<String, Object> render(StatementResult result) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (result instanceof StatementResult.Rows rows) {
            out.put("statement", rows.statement());
            out.put("columns", rows.columns());
            out.put("rows", rows.rows());
            out.put("rowCount", rows.rows().size());
            if (rows.asOfCommit() != null) {
                out.put("asOfCommit", rows.asOfCommit().toString());
            }
        } else if (result instanceof StatementResult.Written w) {
            out.put("statement", w.statement());
            out.put("table", w.table());
            out.put("rows", w.rows());
            out.put("versions", w.versions());
            out.put("current", w.current());
            out.put("lost", w.lost());
        } else if (result instanceof StatementResult.Changed c) {
            out.put("statement", c.statement());
            out.put("table", c.table());
            out.put("changed", c.changed());
            if (c.count() != null) {
                out.put("count", c.count());
            }
        }
        return out;
    }
}
