package io.verso.bench;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The benchmark's settings: {@code --name=value} arguments, else {@code -Dbench.name=value}, else
 * the defaults of the issue (100,000 keys × 10 versions in batches of 1,000).
 */
record BenchConfig(int keys, int versions, int batch, long seed, String url, String pgUrl, String pgSchema,
                   String mariadbUrl, int keyReads, int tableReads, int diffReads, int diffSpan, int[] clients,
                   int concurrentBatches, int concurrentReads, int scaleDivisor, String out, String serviceOpts,
                   String servicePid, String jar, Set<String> scenarios, String bareUrl, String barePid,
                   Set<String> surfaces, String versoDbUrl) {

    /** The scenario groups {@code --scenarios=} may name; ingest always runs (the others read what it wrote). */
    static final List<String> SCENARIOS = List.of("reads", "groups", "writers", "keyreads", "scale", "replace");

    /**
     * The surfaces the main ingest runs through ({@code --surfaces=}): REST always (the read scenarios read its
     * table), {@code /v1/sql} and GraphQL unless left out, as a scale run does to spend its time on one.
     */
    static final List<String> SURFACES = List.of("rest", "sql", "gql");

    static BenchConfig parse(String... args) {
        Map<String, String> given = new HashMap<>();
        for (String arg : args) {
            String a = arg.startsWith("--") ? arg.substring(2) : arg;
            int eq = a.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("arguments are --name=value, not " + arg);
            }
            given.put(a.substring(0, eq), a.substring(eq + 1));
        }
        Lookup v = name -> given.getOrDefault(name, System.getProperty("bench." + name));
        return new BenchConfig(
                integer(v.get("keys"), 100_000),
                integer(v.get("versions"), 10),
                integer(v.get("batch"), 1_000),
                Long.parseLong(or(v.get("seed"), "20261001")),
                or(v.get("url"), "http://127.0.0.1:8080"),
                or(v.get("pg"), "jdbc:postgresql://127.0.0.1:5432/verso_bench_direct?user=postgres"),
                or(v.get("pgSchema"), "baseline"),
                or(v.get("mariadb"), "jdbc:mariadb://127.0.0.1:3306/test?user=root"),
                integer(v.get("keyReads"), 2_000),
                integer(v.get("tableReads"), 10),
                integer(v.get("diffReads"), 10),
                integer(v.get("diffSpan"), 10),
                Arrays.stream(or(v.get("clients"), "1,4,16").split(",")).mapToInt(Integer::parseInt).toArray(),
                integer(v.get("concurrentBatches"), 200),
                integer(v.get("concurrentReads"), 4_000),
                integer(v.get("scaleDivisor"), 10),
                or(v.get("out"), "target/bench"),
                or(v.get("serviceOpts"), System.getenv().getOrDefault("BENCH_SERVICE_OPTS", "")),
                or(v.get("servicePid"), ""),
                or(v.get("jar"), ""),
                scenarios(or(v.get("scenarios"), "all")),
                or(v.get("bare"), ""),
                or(v.get("barePid"), ""),
                surfaces(or(v.get("surfaces"), "all")),
                or(v.get("versoDb"), ""));
    }

    /** Whether a group of scenarios runs: all by default, else those named in {@code --scenarios=a,b}. */
    boolean runs(String group) {
        return scenarios.contains(group);
    }

    private static Set<String> scenarios(String given) {
        if (given.equals("all")) {
            return Set.copyOf(SCENARIOS);
        }
        Set<String> named = new LinkedHashSet<>(Arrays.asList(given.split(",")));
        for (String name : named) {
            if (!SCENARIOS.contains(name)) {
                throw new IllegalArgumentException("--scenarios names some of " + SCENARIOS + " (or all), not " + name);
            }
        }
        return named;
    }

    private static Set<String> surfaces(String given) {
        if (given.equals("all")) {
            return Set.copyOf(SURFACES);
        }
        Set<String> named = new LinkedHashSet<>(Arrays.asList(given.split(",")));
        if (!named.contains("rest") || !SURFACES.containsAll(named)) {
            throw new IllegalArgumentException("--surfaces names rest and any of " + SURFACES + " (or all), not " + given);
        }
        return named;
    }

    interface Lookup {
        String get(String name);
    }

    private static int integer(String value, int otherwise) {
        return value == null || value.isEmpty() ? otherwise : Integer.parseInt(value.replace("_", "").replace(",", ""));
    }

    private static String or(String value, String otherwise) {
        return value == null ? otherwise : value;
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("keys", keys);
        m.put("versions", versions);
        m.put("batch", batch);
        m.put("seed", seed);
        m.put("url", url);
        m.put("pg", pgUrl);
        m.put("pgSchema", pgSchema);
        m.put("mariadb", mariadbUrl.isEmpty() ? null : mariadbUrl);
        m.put("keyReads", keyReads);
        m.put("tableReads", tableReads);
        m.put("diffReads", diffReads);
        m.put("diffSpan", diffSpan);
        m.put("clients", clients);
        m.put("concurrentBatches", concurrentBatches);
        m.put("concurrentReads", concurrentReads);
        m.put("scaleDivisor", scaleDivisor);
        m.put("serviceOpts", serviceOpts);
        m.put("scenarios", scenarios);
        m.put("surfaces", surfaces);
        return m;
    }
}
