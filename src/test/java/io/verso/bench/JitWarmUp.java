package io.verso.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Warms a JVM up until its JIT has settled: rounds of a workload until the JIT compilers' time (from the
 * process's own {@code jstat -compiler}, beside its {@code java}) grows by less than {@link #SETTLED} of a
 * round's wall time. One round is not enough: C2 compiled for 87 s of CPU over a service's first five minutes
 * of benchmark load, and a first run after a start read at half the rate of the third. Without a pid (or a
 * jstat that answers), it runs {@code fallbackRounds} rounds.
 */
final class JitWarmUp {

    /** A round in which compilation took less than this share of its wall time counts as settled. */
    private static final double SETTLED = 0.02;
    private static final int MAX_ROUNDS = 40;

    /** What a warm-up took: its rounds, wall seconds, and the JIT's seconds over it (-1 when unknown). */
    record Result(int rounds, double seconds, double compileSeconds) {
        @Override
        public String toString() {
            return String.format("%d round(s), %.1f s%s", rounds, seconds, compileSeconds < 0 ? ""
                    : String.format(", JIT compiling %.1f s of it, settled under %.0f%% of a round", compileSeconds,
                    SETTLED * 100));
        }
    }

    interface Round {
        void run() throws Exception;
    }

    private final Path jstat;
    private final String pid;

    JitWarmUp(String pid) {
        this.pid = pid == null || pid.isEmpty() ? null : pid;
        Path found = null;
        if (this.pid != null) {
            try {
                found = Path.of("/proc", this.pid, "exe").toRealPath().resolveSibling("jstat");
            } catch (IOException e) {
                found = null;
            }
        }
        this.jstat = found != null && Files.isExecutable(found) ? found : null;
    }

    /** Runs {@code round} until the JIT settles (at least two rounds), or {@code fallbackRounds} when unknown. */
    Result run(Round round, int fallbackRounds) throws Exception {
        long start = System.nanoTime();
        double first = compileSeconds();
        double before = first;
        double now = first;
        int rounds = 0;
        while (rounds < MAX_ROUNDS) {
            long roundStart = System.nanoTime();
            round.run();
            rounds++;
            double wall = (System.nanoTime() - roundStart) / 1e9;
            now = compileSeconds();
            boolean known = now >= 0 && before >= 0;
            if (known ? rounds >= 2 && now - before < SETTLED * wall : rounds >= fallbackRounds) {
                break;
            }
            before = now;
        }
        return new Result(rounds, (System.nanoTime() - start) / 1e9, first < 0 || now < 0 ? -1 : now - first);
    }

    /** The JIT compilers' total time so far, in seconds, or -1 when it cannot be read. */
    double compileSeconds() {
        if (jstat == null) {
            return -1;
        }
        try {
            Process p = new ProcessBuilder(jstat.toString(), "-compiler", pid).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return -1;
            }
            // Compiled Failed Invalid   Time   FailedType FailedMethod: the second line's fourth field.
            String[] lines = out.strip().split("\n");
            return Double.parseDouble(lines[lines.length - 1].trim().split("\\s+")[3]);
        } catch (IOException | RuntimeException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
