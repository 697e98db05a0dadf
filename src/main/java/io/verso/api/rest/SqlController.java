package io.verso.api.rest;

import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementEngine;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Admission;
import io.verso.sql.ScriptCache;
import io.verso.sql.SqlParser;
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

    private final StatementEngine engine;
    /** Clients repeat their parameterised texts (batch UPSERTs, reads by key): each is parsed once. */
    private final ScriptCache scripts = new ScriptCache(1_000_000);

    SqlController(StatementEngine engine) {
        this.engine = engine;
    }

    @PostMapping(path = "/v1/sql", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> execute(@RequestBody String body,
                                @RequestHeader(name = "Verso-Actor", required = false) String actor) {
        JsonNode request;
        try {
            request = REQUEST_JSON.readTree(body);
        } catch (JacksonException e) {
            throw VersoException.pointing(ErrorCode.INVALID_REQUEST, "the request body is not valid JSON: "
                    + e.getOriginalMessage(), "/");
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
        SqlParser.Script script = scripts.parse(sql.asString());
        // Admitted by what the statements do (security.AdmissionFilter): a one-key read or small write is light.
        Admission.admit(engine.light(script));
        return render(engine.execute(script, values, actor));
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
