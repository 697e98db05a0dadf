package io.verso.api.rest;

import io.verso.surface.Resources.TableCreated;
import io.verso.surface.Resources.TableDescription;
import io.verso.surface.Resources.TableDropped;
import io.verso.surface.Resources.TableList;
import io.verso.surface.TableService;
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

/** Tables: operations listTables, createTable, describeTable and dropTable of openapi/verso.yaml. */
@RestController
@RequestMapping(path = "/v1/tables", produces = MediaType.APPLICATION_JSON_VALUE)
class TablesController {

    private final TableService tables;

    TablesController(TableService tables) {
        this.tables = tables;
    }

    @GetMapping
    TableList listTables() {
        return tables.list();
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    TableCreated createTable(@RequestBody(required = false) String body) {
        return tables.create(body);
    }

    @GetMapping("/{table}")
    TableDescription describeTable(@PathVariable String table) {
        return tables.describe(table);
    }

    @DeleteMapping("/{table}")
    TableDropped dropTable(@PathVariable String table) {
        return tables.drop(table);
    }
}
