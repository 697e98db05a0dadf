package io.verso.api.console;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET /v1/openapi.yaml: the REST contract, the repository's openapi/verso.yaml as built into the jar,
 * so the contract a client reads is the one the running service was built and tested against.
 * Not itself an operation of the contract (the contract does not describe its own document).
 */
@RestController
class OpenApiController {

    private static final MediaType YAML = MediaType.parseMediaType("application/yaml");
    private final Resource contract = new ClassPathResource("openapi/verso.yaml");

    @GetMapping(path = "/v1/openapi.yaml", produces = "application/yaml")
    ResponseEntity<Resource> contract() {
        return ResponseEntity.ok().contentType(YAML).cacheControl(CacheControl.noCache()).body(contract);
    }
}
