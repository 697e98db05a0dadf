package io.verso.api.rest;

import io.verso.engine.ClientCommit;
import io.verso.engine.StatementEngine;
import io.verso.security.AccessControl;
import io.verso.security.Caller;
import io.verso.security.VersoPrincipal;
import io.verso.surface.ReadService;
import io.verso.surface.ReadService.RowRead;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * HTTP caching of the one-key read (docs/rest.md, "Caching"). An answer pinned to a commit never changes:
 * it carries a strong ETag and {@code Cache-Control: immutable} (private when the caller is authenticated)
 * and is kept in {@link PinnedAnswers}. A current answer carries a weak ETag made of the latest commit that
 * changed its key's row and the catalog version, so that a conditional GET of a row unchanged since is
 * answered 304 however much else of its table was written meanwhile: after one statement that reads the key's
 * last change, not its row, when an earlier read of the same shape kept its plan; else after the read itself,
 * without rendering the row. Both ETags hold a digest of what else the answer depends on: the table and
 * key as asked, the AS OF asked, and the caller's roles (a grant moves the catalog version).
 */
@Component
class ConditionalReads {

    /** A year, the longest max-age HTTP caches are asked to honour (RFC 9111). */
    static final String PINNED = "max-age=31536000, immutable";
    static final String CURRENT = "no-cache";
    /** A digest per request thread: looking one up by name for every answer was a fifth of making its ETag. */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every Java runtime has SHA-256
        }
    });

    private final ReadService reads;
    private final PinnedAnswers pinned;
    private final AccessControl access;
    private final JsonMapper json;

    ConditionalReads(ReadService reads, PinnedAnswers pinned, AccessControl access, JsonMapper json) {
        this.reads = reads;
        this.pinned = pinned;
        this.access = access;
        this.json = json;
    }

    /** Answers {@code GET /v1/tables/{table}/row}: from the cache, 304, or read; throws what the read throws. */
    void row(HttpServletResponse response, String table, List<String> key, String asOfCommit, String asOfTime,
             String atLeastCommit, String ifNoneMatch) throws IOException {
        VersoPrincipal principal = Caller.current();
        long seen = Math.max(ClientCommit.minCommit(), parsed(atLeastCommit));
        boolean asOf = asOfCommit != null || asOfTime != null;
        PinnedAnswers.Key cacheKey = asOf ? new PinnedAnswers.Key(table, key, asOfCommit, asOfTime,
                principal.roles(), principal.admin(), access.grants(principal)) : null;
        if (asOf) {
            PinnedAnswers.Answer kept = pinned.find(cacheKey, seen);
            if (kept != null) {
                // The answer's read told its caller of a commit (Verso-Commit): so is this one's.
                ClientCommit.seen(kept.seen());
                send(response, principal, kept.etag(), PINNED, ifNoneMatch, kept.body());
                return;
            }
        } else if (ifNoneMatch != null && ifNoneMatch.contains("W/\"c")) {
            StatementEngine.KeyState state = reads.rowState(table, key, seen);
            if (state != null) {
                String etag = currentTag(state.lastChanged(), state.catalogVersion(), table, key, principal);
                if (matches(ifNoneMatch, etag)) {
                    ClientCommit.seen(state.readCommit());
                    send(response, principal, etag, CURRENT, ifNoneMatch, null);
                    return;
                }
            }
        }
        long epoch = pinned.epoch();
        RowRead read = reads.rowRead(table, key, asOfCommit, asOfTime, atLeastCommit);
        long commit = Long.parseLong(read.row().readCommit());
        if (read.fixed() && read.catalogVersion() != null) {
            String etag = "\"p" + commit + "." + read.catalogVersion() + "." + digest(table, key, asOfCommit, asOfTime,
                    principal) + "\"";
            byte[] body = json.writeValueAsBytes(read.row());
            if (asOf) {
                pinned.keep(cacheKey, new PinnedAnswers.Answer(body, etag, commit, read.catalogVersion(),
                        ClientCommit.seen()), epoch, commit);
            }
            send(response, principal, etag, PINNED, ifNoneMatch, body);
        } else if (!asOf && read.lastChanged() != null && read.catalogVersion() != null) {
            String etag = currentTag(read.lastChanged(), read.catalogVersion(), table, key, principal);
            // Unchanged since the caller's copy (it had no kept plan to ask first): the row is not rendered.
            boolean unchanged = ifNoneMatch != null && matches(ifNoneMatch, etag);
            byte[] body = unchanged ? null : json.writeValueAsBytes(read.row());
            send(response, principal, etag, CURRENT, ifNoneMatch, body);
        } else {
            send(response, principal, null, null, ifNoneMatch, json.writeValueAsBytes(read.row()));
        }
    }

    /**
     * Answers {@code GET /v1/tables/{table}/rows}: a page read at a fixed commit (AS OF, a cursor's) is
     * immutable, with a strong ETag over the query as asked; 304 when If-None-Match names it (the page is
     * read all the same: pages are not kept). A page of current rows has neither.
     */
    void page(HttpServletResponse response, ReadService.PageRead read, String table, String query,
              String ifNoneMatch) throws IOException {
        VersoPrincipal principal = Caller.current();
        byte[] body = json.writeValueAsBytes(read.page());
        String etag = null;
        if (read.fixed() && read.catalogVersion() != null) {
            etag = "\"p" + read.page().readCommit() + "." + read.catalogVersion() + "."
                    + digest(table, List.of(query == null ? "" : query), null, null, principal) + "\"";
        }
        send(response, principal, etag, PINNED, ifNoneMatch, body);
    }

    /**
     * 200 with {@code body}, or 304 without one when {@code ifNoneMatch} names {@code etag}; with the ETag and
     * Cache-Control when there are (private for an authenticated caller: the answer is the caller's).
     */
    private static void send(HttpServletResponse response, VersoPrincipal principal, String etag,
                             String cacheControl, String ifNoneMatch, byte[] body) throws IOException {
        if (etag != null) {
            response.setHeader("ETag", etag);
            response.setHeader("Cache-Control", (principal.name() != null ? "private, " : "") + cacheControl);
        }
        if (etag != null && ifNoneMatch != null && matches(ifNoneMatch, etag)) {
            response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            response.flushBuffer();
            return;
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private static String currentTag(long lastChanged, long catalogVersion, String table, List<String> key,
                                     VersoPrincipal principal) {
        return "W/\"c" + lastChanged + "." + catalogVersion + "." + digest(table, key, null, null, principal) + "\"";
    }

    /** If-None-Match's weak comparison (RFC 9110 13.1.2): any listed tag, or *, equal to {@code etag} but for W/. */
    static boolean matches(String ifNoneMatch, String etag) {
        String opaque = opaque(etag);
        for (String tag : ifNoneMatch.split(",")) {
            String t = tag.trim();
            if (t.equals("*") || opaque(t).equals(opaque)) {
                return true;
            }
        }
        return false;
    }

    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }

    /** What the answer depends on besides the commits and the catalog version, as 16 URL-safe characters. */
    private static String digest(String table, List<String> key, String asOfCommit, String asOfTime,
                                 VersoPrincipal principal) {
        StringBuilder text = new StringBuilder(table);
        key.forEach(k -> text.append('\0').append(k.length()).append(':').append(k));
        text.append('\1').append(asOfCommit).append('\1').append(asOfTime).append('\1').append(principal.admin());
        Set<String> roles = principal.roles();
        (roles.size() < 2 ? roles : new TreeSet<>(roles)).forEach(r -> text.append('\0').append(r));
        byte[] hash = SHA_256.get().digest(text.toString().getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 16);
    }

    /** atLeastCommit as a number for the cache's check, -1 when absent or not one (the read refuses it then). */
    private static long parsed(String commit) {
        try {
            return commit == null ? -1 : Long.parseLong(commit.trim());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE; // not from the cache: the read answers it with its error
        }
    }
}
