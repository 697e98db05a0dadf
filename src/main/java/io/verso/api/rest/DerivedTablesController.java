package io.verso.api.rest;

import io.verso.surface.DerivedBuilds;
import io.verso.surface.Resources.DerivedBuild;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;

/**
 * Derived tables: operations createDerivedTable and getDerivedBuild of openapi/verso.yaml. A build
 * that ends within the wait answers 201 (Location: the table); a longer one 202 with Location: its
 * build resource, to be asked again (RFC 7240 {@code Prefer: respond-async} / {@code wait=n}
 * choose the wait).
 */
@RestController
class DerivedTablesController {

    private final DerivedBuilds builds;

    DerivedTablesController(DerivedBuilds builds) {
        this.builds = builds;
    }

    @PostMapping(path = "/v1/derived-tables", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<DerivedBuild> createDerivedTable(@RequestBody(required = false) String body,
                                                    @RequestHeader(name = "Prefer", required = false) String prefer) {
        boolean respondAsync = false;
        Duration wait = null;
        if (prefer != null) {
            for (String preference : prefer.split(",")) {
                String token = preference.strip().toLowerCase(Locale.ROOT);
                if (token.equals("respond-async")) {
                    respondAsync = true;
                } else if (token.matches("wait\\s*=\\s*\\d{1,6}")) {
                    wait = Duration.ofSeconds(Long.parseLong(token.substring(token.indexOf('=') + 1).strip()));
                }
            }
        }
        DerivedBuilds.Started started = builds.start(body, respondAsync, wait);
        DerivedBuild build = started.build();
        if (started.finished()) {
            return ResponseEntity.created(URI.create("/v1/tables/" + UriUtils.encodePathSegment(build.table(),
                    java.nio.charset.StandardCharsets.UTF_8))).body(build);
        }
        ResponseEntity.BodyBuilder accepted = ResponseEntity.status(HttpStatus.ACCEPTED)
                .location(URI.create("/v1/derived-builds/" + build.id())).header("Retry-After", "1");
        if (respondAsync) {
            accepted.header("Preference-Applied", "respond-async");
        }
        return accepted.body(build);
    }

    @GetMapping(path = "/v1/derived-builds/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    DerivedBuild getDerivedBuild(@PathVariable String id) {
        return builds.status(id);
    }
}
