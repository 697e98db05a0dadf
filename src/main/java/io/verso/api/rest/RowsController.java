package io.verso.api.rest;

import io.verso.surface.ReadService;
import io.verso.surface.Resources.KeyHistory;
import io.verso.surface.Resources.TableDiff;
import io.verso.surface.Resources.WriteReceipt;
import io.verso.surface.WriteService;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Rows of one table: operations listRows, writeRows, deleteRows, getRow, getKeyHistory and
 * diffTable of openapi/verso.yaml. Parameters arrive as text; the services check and point at them.
 * A lone array parameter value keeps its commas ({@link ArrayParameters}).
 */
@RestController
@RequestMapping(path = "/v1/tables/{table}", produces = MediaType.APPLICATION_JSON_VALUE)
class RowsController {

    private final ReadService reads;
    private final WriteService writes;
    private final ConditionalReads conditional;

    RowsController(ReadService reads, WriteService writes, ConditionalReads conditional) {
        this.reads = reads;
        this.writes = writes;
        this.conditional = conditional;
    }

    /** A page at a fixed commit is immutable, with its ETag ({@link ConditionalReads#page}). */
    @GetMapping("/rows")
    void listRows(@PathVariable String table,
                  @RequestParam(required = false) String[] filter,
                  @RequestParam(required = false) String[] order,
                  @RequestParam(required = false) Integer limit,
                  @RequestParam(required = false) String cursor,
                  @RequestParam(required = false) String asOfCommit,
                  @RequestParam(required = false) String asOfTime,
                  @RequestParam(required = false) String atLeastCommit,
                  @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
                  HttpServletRequest request, HttpServletResponse response) throws IOException {
        conditional.page(response, reads.listRead(table, list(filter), list(order), limit, cursor, asOfCommit,
                asOfTime, atLeastCommit), table, request.getQueryString(), ifNoneMatch);
    }

    @PostMapping(path = "/rows", consumes = MediaType.APPLICATION_JSON_VALUE)
    WriteReceipt writeRows(@PathVariable String table, @RequestBody(required = false) byte[] body) {
        return writes.write(table, body);
    }

    @PostMapping(path = "/rows/delete", consumes = MediaType.APPLICATION_JSON_VALUE)
    WriteReceipt deleteRows(@PathVariable String table, @RequestBody(required = false) byte[] body) {
        return writes.delete(table, body);
    }

    /** Answered as {@link OneKeyReadFilter} answers its plain form: with its ETag, from the cache, or 304. */
    @GetMapping("/row")
    void getRow(@PathVariable String table,
                @RequestParam String[] key,
                @RequestParam(required = false) String asOfCommit,
                @RequestParam(required = false) String asOfTime,
                @RequestParam(required = false) String atLeastCommit,
                @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
                HttpServletResponse response) throws IOException {
        conditional.row(response, table, list(key), asOfCommit, asOfTime, atLeastCommit, ifNoneMatch);
    }

    @GetMapping("/history")
    KeyHistory getKeyHistory(@PathVariable String table,
                             @RequestParam String[] key,
                             @RequestParam(required = false) String group,
                             @RequestParam(required = false) String asOfCommit,
                             @RequestParam(required = false) String asOfTime,
                             @RequestParam(required = false) String atLeastCommit) {
        return reads.history(table, list(key), group, asOfCommit, asOfTime, atLeastCommit);
    }

    @GetMapping("/diff")
    TableDiff diffTable(@PathVariable String table,
                        @RequestParam String from,
                        @RequestParam(required = false) String to,
                        @RequestParam(required = false) String[] key,
                        @RequestParam(required = false) String atLeastCommit) {
        return reads.diff(table, from, to, list(key), atLeastCommit);
    }

    private static List<String> list(String[] values) {
        return values == null ? null : List.of(values);
    }
}
