package io.verso.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of the report: a scenario measured on Verso (over HTTP), on PostgreSQL directly and,
 * where it applies, on MariaDB. Throughput scenarios compare rows/s, latency scenarios p50 and p99.
 */
record Figure(String section, String scenario, boolean throughput, Measure verso, Measure postgres, Measure mariadb,
              String note) {

    /** Verso / PostgreSQL: rows/s over rows/s, or p99 over p99 (above 1 is slower for latency, faster for rows/s). */
    Double ratioPostgres(boolean p99) {
        return ratio(postgres, p99);
    }

    Double ratioMariadb(boolean p99) {
        return ratio(mariadb, p99);
    }

    private Double ratio(Measure other, boolean p99) {
        if (verso == null || other == null) {
            return null;
        }
        if (throughput) {
            return verso.rowsPerSecond() / other.rowsPerSecond();
        }
        return p99 ? verso.p99Ms() / other.p99Ms() : verso.p50Ms() / other.p50Ms();
    }

    String cell(Measure m) {
        if (m == null) {
            return "—";
        }
        if (throughput) {
            return String.format("%,.0f rows/s (batch p50 %.1f / p99 %.1f ms)", m.rowsPerSecond(), m.p50Ms(), m.p99Ms());
        }
        return String.format("%s / %s ms", ms(m.p50Ms()), ms(m.p99Ms()));
    }

    String ratioCell(boolean mariadbSide) {
        Double p50 = mariadbSide ? ratioMariadb(false) : ratioPostgres(false);
        if (p50 == null) {
            return "—";
        }
        if (throughput) {
            return String.format("%.2f×", p50);
        }
        Double p99 = mariadbSide ? ratioMariadb(true) : ratioPostgres(true);
        return String.format("%.1f× / %.1f×", p50, p99);
    }

    static String ms(double v) {
        return v >= 100 ? String.format("%,.0f", v) : v >= 10 ? String.format("%.1f", v) : String.format("%.2f", v);
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("section", section);
        m.put("scenario", scenario);
        m.put("unit", throughput ? "rows/s" : "ms");
        m.put("verso", verso == null ? null : verso.json());
        m.put("postgres", postgres == null ? null : postgres.json());
        m.put("mariadb", mariadb == null ? null : mariadb.json());
        Map<String, Object> ratios = new LinkedHashMap<>();
        if (throughput) {
            ratios.put("versoOverPostgres", round(ratioPostgres(false)));
            ratios.put("versoOverMariadb", round(ratioMariadb(false)));
        } else {
            ratios.put("versoOverPostgresP50", round(ratioPostgres(false)));
            ratios.put("versoOverPostgresP99", round(ratioPostgres(true)));
            ratios.put("versoOverMariadbP50", round(ratioMariadb(false)));
            ratios.put("versoOverMariadbP99", round(ratioMariadb(true)));
        }
        m.put("ratios", ratios);
        m.put("note", note);
        return m;
    }

    private static Double round(Double v) {
        return v == null ? null : Math.round(v * 1000) / 1000.0;
    }
}
