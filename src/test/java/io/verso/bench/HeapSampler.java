package io.verso.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The service's heap, read from the service itself: {@code /actuator/metrics/jvm.memory.used?tag=area:heap}
 * polled every 250 ms during the run, its peak kept per phase, and the peak of
 * {@code jvm.gc.live.data.size} (the old generation after a collection: what the service really
 * holds, as opposed to garbage not yet collected).
 */
final class HeapSampler implements AutoCloseable {

    private final VersoClient client;
    private final Thread thread;
    private final Map<String, Double> peakByPhase = new LinkedHashMap<>();
    private volatile String phase = "start";
    private volatile boolean running = true;
    private double peakUsed;
    private double peakLive;
    private int samples;

    HeapSampler(VersoClient client) {
        this.client = client;
        this.thread = new Thread(this::poll, "heap-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    void phase(String name) {
        phase = name;
    }

    private void poll() {
        while (running) {
            Double used = client.metric("jvm.memory.used", "area:heap");
            Double live = client.metric("jvm.gc.live.data.size", null);
            synchronized (this) {
                if (used != null) {
                    samples++;
                    peakUsed = Math.max(peakUsed, used);
                    peakByPhase.merge(phase, used, Math::max);
                }
                if (live != null) {
                    peakLive = Math.max(peakLive, live);
                }
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    synchronized Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("samples", samples);
        m.put("peakUsedMiB", mib(peakUsed));
        m.put("peakLiveDataMiB", mib(peakLive));
        Double max = client.metric("jvm.memory.max", "area:heap");
        m.put("maxHeapMiB", max == null ? null : mib(max));
        Map<String, Object> phases = new LinkedHashMap<>();
        peakByPhase.forEach((k, v) -> phases.put(k, mib(v)));
        m.put("peakUsedMiBByPhase", phases);
        return m;
    }

    synchronized double peakUsedMiB() {
        return mib(peakUsed);
    }

    synchronized double peakLiveMiB() {
        return mib(peakLive);
    }

    synchronized int samples() {
        return samples;
    }

    private static double mib(double bytes) {
        return Math.round(bytes / (1024 * 1024) * 10) / 10.0;
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
