package io.verso.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The spec's ordering rule, small and obviously correct: per key and group, the winner at commit n
 * is the greatest version written at or before n under (ordering values, commit, position). The
 * property tests compare every read of the service with this model.
 */
final class OrderingModel {

    /** One group of a table: its payload column and ordering columns (kind INT, TS or TSTZ). */
    record Group(String name, String payload, List<String> ordering, List<String> kinds) {
    }

    /** A version of one group of one key; {@code ordering} compared numerically, rendered by {@link #render}. */
    record Version(int key, int group, long[] ordering, long commit, int pos, Integer payload, boolean deleted) {
    }

    static final Comparator<Version> ORDER = (a, b) -> {
        int c = Arrays.compare(a.ordering(), b.ordering());
        if (c != 0) {
            return c;
        }
        c = Long.compare(a.commit(), b.commit());
        return c != 0 ? c : Integer.compare(a.pos(), b.pos());
    };

    final List<Group> groups;
    final List<Version> versions = new ArrayList<>();

    OrderingModel(List<Group> groups) {
        this.groups = groups;
    }

    Optional<Version> winner(int key, int group, long atCommit) {
        return versions.stream()
                .filter(v -> v.key() == key && v.group() == group && v.commit() <= atCommit)
                .max(ORDER);
    }

    /** Rows at commit n: key, then each group's payload and ordering values (NULL where no live winner). */
    List<List<String>> rowsAt(long n) {
        List<List<String>> rows = new ArrayList<>();
        versions.stream().map(Version::key).distinct().sorted().forEach(key -> {
            List<String> row = new ArrayList<>();
            row.add(String.valueOf(key));
            boolean live = false;
            for (int g = 0; g < groups.size(); g++) {
                Optional<Version> w = winner(key, g, n);
                boolean groupLive = w.isPresent() && !w.get().deleted();
                live |= groupLive;
                row.add(groupLive ? String.valueOf(w.get().payload()) : null);
                for (int o = 0; o < groups.get(g).ordering().size(); o++) {
                    row.add(groupLive ? render(groups.get(g).kinds().get(o), w.get().ordering()[o]) : null);
                }
            }
            if (live) {
                rows.add(row);
            }
        });
        return rows;
    }

    /** History rows: key, group, payload, commit, current-from, current-to, deleted. */
    List<List<String>> history() {
        List<List<String>> rows = new ArrayList<>();
        for (Version v : versions) {
            boolean wasWinner = winner(v.key(), v.group(), v.commit()).filter(w -> w == v).isPresent();
            Long to = null;
            if (wasWinner) {
                to = versions.stream()
                        .filter(w -> w.key() == v.key() && w.group() == v.group() && ORDER.compare(w, v) > 0)
                        .map(Version::commit).min(Long::compare).orElse(null);
            }
            rows.add(Arrays.asList(String.valueOf(v.key()), groups.get(v.group()).name(),
                    v.payload() == null ? null : String.valueOf(v.payload()), String.valueOf(v.commit()),
                    wasWinner ? String.valueOf(v.commit()) : null, to == null ? null : String.valueOf(to),
                    String.valueOf(v.deleted())));
        }
        rows.sort(Comparator.comparing((List<String> r) -> r.toString()));
        return rows;
    }

    static String render(String kind, long value) {
        return switch (kind) {
            case "INT" -> String.valueOf(value);
            case "TS" -> String.format("2026-01-01T00:00:%02d", value);
            default -> String.format("2026-01-01T00:00:%02dZ", value);
        };
    }

    static String literal(String kind, long value) {
        return switch (kind) {
            case "INT" -> String.valueOf(value);
            case "TS" -> String.format("2026-01-01 00:00:%02d", value);
            default -> String.format("2026-01-01 00:00:%02d+00", value);
        };
    }
}
