package io.verso.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one system did in one scenario: latencies (median and p99, milliseconds) of its operations,
 * and for writes the rows per second over the scenario's wall time.
 */
record Measure(int operations, double p50Ms, double p99Ms, Double rowsPerSecond, double wallSeconds) {

    static Measure of(long[] nanos, long wallNanos, Long rows) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double wall = wallNanos / 1e9;
        return new Measure(sorted.length, percentile(sorted, 0.50), percentile(sorted, 0.99),
                rows == null ? null : rows / wall, wall);
    }

    /** Nearest-rank percentile, in milliseconds. */
    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("operations", operations);
        m.put("p50Ms", round(p50Ms));
        m.put("p99Ms", round(p99Ms));
        if (rowsPerSecond != null) {
            m.put("rowsPerSecond", Math.round(rowsPerSecond));
        }
        m.put("wallSeconds", round(wallSeconds));
        return m;
    }

    static double round(double v) {
        return Double.isNaN(v) ? v : Math.round(v * 1000) / 1000.0;
    }
}
