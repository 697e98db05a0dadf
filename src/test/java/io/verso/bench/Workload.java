package io.verso.bench;

import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The benchmark's writes, reproducible from a seed: {@code keys} balances, each with
 * {@code versions} versions ordered by (balance_index, balance_version), every third one a
 * correction (same index, higher version). All keys × versions writes are shuffled globally, so
 * most versions arrive after a greater one (about 71% lose on arrival at 10 versions), and are
 * cut into batches in that order. Values are computed from (key, version), never stored: a million
 * writes cost four megabytes.
 */
final class Workload {

    static final String[] TOKENS = {"USDC", "USDT", "DAI", "WETH", "WBTC"};
    static final String[] COLUMNS = {"chain_id", "address", "token", "amount", "updated_at", "balance_index",
            "balance_version"};
    private static final LocalDateTime EPOCH = LocalDateTime.of(2026, 1, 1, 0, 0);

    final int keys;
    final int versions;
    final int batchSize;
    final long seed;
    /** Arrival order: write w is key {@code order[w] / versions}, version {@code order[w] % versions}. */
    private final int[] order;

    Workload(int keys, int versions, int batchSize, long seed) {
        this.keys = keys;
        this.versions = versions;
        this.batchSize = batchSize;
        this.seed = seed;
        order = new int[Math.multiplyExact(keys, versions)];
        Arrays.setAll(order, i -> i);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = order.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }

    int writes() {
        return order.length;
    }

    int batches() {
        return (order.length + batchSize - 1) / batchSize;
    }

    /** The writes of batch b, each encoded as key * versions + version. */
    int[] batch(int b) {
        int from = b * batchSize;
        return Arrays.copyOfRange(order, from, Math.min(order.length, from + batchSize));
    }

    int key(int write) {
        return write / versions;
    }

    int version(int write) {
        return write % versions;
    }

    // ---- values of a write -------------------------------------------------------------------------

    /** A tenth of the keys are on each of chains 1..10: {@code chain_id = 1} selects a tenth. */
    static long chainId(int key) {
        return 1 + key % 10;
    }

    String address(int key) {
        return String.format("0x%016x%08x", mix(seed ^ key), key);
    }

    static String token(int key) {
        return TOKENS[(key / 10) % TOKENS.length];
    }

    /** Every third version corrects the one before it: same balance_index, balance_version 2. */
    static long balanceIndex(int version) {
        return 100L * (version - (version % 3 == 2 ? 1 : 0) + 1);
    }

    static long balanceVersion(int version) {
        return version % 3 == 2 ? 2 : 1;
    }

    String amount(int key, int version) {
        return Long.toString(Math.floorMod(mix(seed * 31 + (long) key * versions + version), 1_000_000_000_000_000L));
    }

    /**
     * The attribute group {@code meta}'s ordering value of a write, where a scenario writes every group: a
     * rotation of the versions per key, so that meta's winner is, for most keys, another version than the
     * default group's and arrives at another time.
     */
    int labelSeq(int key, int version) {
        return (version + key) % versions;
    }

    /** The version whose meta wins (the greatest label_seq). */
    int labelWinner(int key) {
        return Math.floorMod(versions - 1 - key, versions);
    }

    /** The label a write carries: its version and label_seq, so that the winner's label names the version. */
    static String label(int version, int labelSeq) {
        return "v" + version + "-s" + labelSeq;
    }

    static LocalDateTime updatedAt(int version) {
        return EPOCH.plusSeconds(balanceIndex(version));
    }

    /** The version that wins under (balance_index, balance_version): the greatest pair. */
    int winner() {
        int best = 0;
        for (int v = 1; v < versions; v++) {
            if (balanceIndex(v) > balanceIndex(best)
                    || balanceIndex(v) == balanceIndex(best) && balanceVersion(v) > balanceVersion(best)) {
                best = v;
            }
        }
        return best;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
