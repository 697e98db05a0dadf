package io.verso.api.rest;

import io.verso.surface.CommitService;
import io.verso.surface.Resources.Commit;
import io.verso.surface.Resources.CommitPage;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The commit log: operations listCommits, getLatestCommit and getCommit of openapi/verso.yaml. */
@RestController
@RequestMapping(path = "/v1/commits", produces = MediaType.APPLICATION_JSON_VALUE)
class CommitsController {

    private final CommitService commits;

    CommitsController(CommitService commits) {
        this.commits = commits;
    }

    @GetMapping
    CommitPage listCommits(@RequestParam(required = false) String after,
                           @RequestParam(required = false) Integer limit) {
        return commits.after(after, limit);
    }

    @GetMapping("/latest")
    Commit getLatestCommit() {
        return commits.latest();
    }

    @GetMapping("/{commit}")
    Commit getCommit(@PathVariable String commit) {
        return commits.get(commit);
    }
}
