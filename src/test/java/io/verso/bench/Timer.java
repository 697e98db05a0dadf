package io.verso.bench;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.ArrayList;
import java.util.List;

/** Runs operations on a number of client threads and times each one and the whole. */
final class Timer {

    interface Op {
        /** Runs operation i; returns the rows it wrote or read (for rows/s), or 0. */
        long run(int i) throws Exception;
    }

    private Timer() {
    }

    /** {@code count} operations, handed out in order to {@code clients} threads. */
    static Measure run(int clients, int count, boolean throughput, Op op) throws Exception {
        long[] nanos = new long[count];
        AtomicInteger next = new AtomicInteger();
        long[] rows = new long[clients];
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                futures.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                        long t0 = System.nanoTime();
                        rows[client] += op.run(i);
                        nanos[i] = System.nanoTime() - t0;
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long wall = System.nanoTime() - start;
        long total = 0;
        for (long r : rows) {
            total += r;
        }
        return Measure.of(nanos, wall, throughput ? total : null);
    }

    /** Warms a code path up without measuring it. */
    static void warm(int count, Op op) throws Exception {
        for (int i = 0; i < count; i++) {
            op.run(i);
        }
    }
}
