package io.verso.feed;

import io.verso.catalog.TableDef;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Caller;
import io.verso.security.Credentials;
import io.verso.security.VersoPrincipal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One round of the checks that keep a change stream open: its credential still holds and its caller may still
 * read its table. Many streams share a table and a caller, so each table is looked up once per round (a lookup
 * reads several catalog tables: done per caller and table, 100 lookups a second for 500 streams kept the hub
 * busy past the next commits), each credential is checked once, and each caller's grant once per table (grants
 * are cached by {@link io.verso.security.AccessControl}, so that costs no query).
 */
final class TrustRound {

    /** What a lookup answered: the definition, or why there is none. */
    private record Lookup(TableDef table, VersoException.UserError error) {
    }

    private final ChangeFeed feed;
    private final Credentials credentials;
    private final Map<String, Lookup> tables = new HashMap<>();
    private final Map<VersoPrincipal, Boolean> valid = new HashMap<>();
    private final Map<List<Object>, VersoException.UserError> refusals = new HashMap<>();

    TrustRound(ChangeFeed feed, Credentials credentials) {
        this.feed = feed;
        this.credentials = credentials;
    }

    /** Null when {@code principal} may still follow {@code table}; otherwise the error a new request would get. */
    VersoException.UserError refusal(VersoPrincipal principal, String table) {
        List<Object> key = List.of(principal, table);
        if (refusals.containsKey(key)) {
            return refusals.get(key);
        }
        VersoException.UserError refused = check(principal, table);
        refusals.put(key, refused);
        return refused;
    }

    private VersoException.UserError check(VersoPrincipal principal, String table) {
        if (!valid.computeIfAbsent(principal, credentials::valid)) {
            return revoked(principal, table);
        }
        Lookup lookup = tables.computeIfAbsent(table, this::lookUp);
        if (lookup.error() != null) {
            return lookup.error();
        }
        try {
            Caller.as(principal, () -> {
                feed.authorize(lookup.table(), table);
                return null;
            });
            return null;
        } catch (VersoException.UserError e) {
            return e;
        }
    }

    private Lookup lookUp(String table) {
        try {
            return new Lookup(feed.table(table), null);
        } catch (VersoException.UserError e) {
            return new Lookup(null, e);
        }
    }

    /** The error that ends a stream whose credential no longer holds. */
    static VersoException.UserError revoked(VersoPrincipal principal, String table) {
        return VersoException.user(ErrorCode.UNAUTHENTICATED, Credentials.invalidReason(principal)
                + ": the change stream of " + table + " ends");
    }
}
