package io.verso.api.rest;

import io.verso.error.VersoException;
import io.verso.feed.ChangeFeed;
import io.verso.feed.FeedCursor;
import io.verso.feed.FeedStreams;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * A table's change feed: operation listChanges of openapi/verso.yaml, as JSON pages or, with
 * {@code Accept: text/event-stream}, followed live (one event per commit, its id the commit).
 */
@RestController
@RequestMapping(path = "/v1/tables")
class FeedController {

    /** One change as JSON: commit sequences as strings, like everywhere else on the surface. */
    record ChangeItem(String commit, String op, Map<String, Object> key, Map<String, Object> row, Object before) {
        static ChangeItem of(ChangeFeed.Change c) {
            return new ChangeItem(Long.toString(c.commit()), c.op(), c.key(), c.row(), c.before());
        }
    }

    record ChangePage(String table, String readCommit, List<ChangeItem> changes, String next, boolean more) {
    }

    record CommitEvent(String commit, List<ChangeItem> changes) {
    }

    private final ChangeFeed feed;
    private final FeedStreams streams;

    FeedController(ChangeFeed feed, FeedStreams streams) {
        this.feed = feed;
        this.streams = streams;
    }

    @GetMapping(path = "/{table}/changes", produces = MediaType.APPLICATION_JSON_VALUE)
    ChangePage listChanges(@PathVariable String table, @RequestParam(required = false) String after,
                           @RequestParam(required = false) Integer limit,
                           @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        ChangeFeed.Page page = feed.page(table, FeedCursor.after(after, lastEventId),
                limit == null ? ChangeFeed.DEFAULT_LIMIT : limit);
        return new ChangePage(page.table(), Long.toString(page.readCommit()),
                page.changes().stream().map(ChangeItem::of).toList(), Long.toString(page.next()), page.more());
    }

    @GetMapping(path = "/{table}/changes", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter streamChanges(@PathVariable String table, @RequestParam(required = false) String after,
                             @RequestParam(required = false) Integer limit,
                             @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        // The first page is read here, so a bad table or cursor is a problem response, not a broken stream.
        ChangeFeed.Page first = feed.page(table, FeedCursor.after(after, lastEventId),
                limit == null ? ChangeFeed.DEFAULT_LIMIT : limit);
        SseEmitter emitter = new SseEmitter(0L);
        streams.follow(first.table(), first, new FeedStreams.Sink() {
            @Override
            public void commit(FeedStreams.CommitChanges changes) throws IOException {
                emitter.send(SseEmitter.event().id(Long.toString(changes.commit())).name("commit")
                        .data(new CommitEvent(Long.toString(changes.commit()),
                                changes.changes().stream().map(ChangeItem::of).toList()), MediaType.APPLICATION_JSON));
            }

            @Override
            public void heartbeat() throws IOException {
                emitter.send(SseEmitter.event().comment("caught up"));
            }

            @Override
            public void end() {
                emitter.complete();
            }

            @Override
            public void failed(RuntimeException error) {
                try {
                    String code = error instanceof VersoException v ? v.code().name() : "INTERNAL_ERROR";
                    emitter.send(SseEmitter.event().name("error").data(Map.of("code", code,
                            "detail", String.valueOf(error.getMessage())), MediaType.APPLICATION_JSON));
                } catch (IOException | RuntimeException ignored) {
                    // The client is gone as well.
                }
                emitter.complete();
            }
        });
        return emitter;
    }
}
