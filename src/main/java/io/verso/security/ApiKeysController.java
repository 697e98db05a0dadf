package io.verso.security;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** API keys for administrators (the filter chain admits only the admin role to /v1/admin). */
@RestController
@RequestMapping(path = "/v1/admin/api-keys", produces = MediaType.APPLICATION_JSON_VALUE)
class ApiKeysController {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ApiKeys keys;

    ApiKeysController(ApiKeys keys) {
        this.keys = keys;
    }

    /** {@code {"name": "ingest", "roles": ["writer"]}}: the answer holds the key, shown this once. */
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    ApiKeys.Created create(@RequestBody String body) {
        JsonNode request;
        try {
            request = JSON.readTree(body);
        } catch (JacksonException e) {
            throw VersoException.pointing(ErrorCode.INVALID_REQUEST, "the request body is not valid JSON", "/");
        }
        if (request == null || !request.isObject() || !request.path("name").isString()) {
            throw VersoException.pointing(ErrorCode.INVALID_REQUEST, "\"name\" must be a string", "/name");
        }
        JsonNode roles = request.path("roles");
        if (!roles.isArray()) {
            throw VersoException.pointing(ErrorCode.INVALID_REQUEST, "\"roles\" must be an array of role names",
                    "/roles");
        }
        List<String> names = new ArrayList<>();
        roles.forEach(r -> names.add(r.isString() ? r.asString() : null));
        return keys.create(request.get("name").asString(), names, Caller.current().name());
    }

    @GetMapping
    Map<String, Object> list() {
        return Map.of("keys", keys.list());
    }

    @DeleteMapping("/{id}")
    Map<String, Object> revoke(@PathVariable String id) {
        if (!keys.revoke(id)) {
            throw VersoException.pointing(ErrorCode.UNKNOWN_KEY, "no active API key " + id, "id");
        }
        return Map.of("id", id, "revoked", true);
    }
}
