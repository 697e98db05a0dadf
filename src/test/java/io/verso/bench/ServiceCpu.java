package io.verso.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The service process's CPU time (user + system, every thread) from {@code /proc/<pid>/stat}, to state
 * what a scenario cost the service per operation: a rate depends on what else runs on the machine, the
 * CPU spent per read much less. Unknown (no pid, not Linux) reads as -1.
 */
final class ServiceCpu {

    /** USER_HZ: the unit of utime and stime in /proc/<pid>/stat on every Linux this runs on. */
    private static final double TICKS_PER_SECOND = 100;

    private final Path stat;

    ServiceCpu(String pid) {
        this.stat = pid == null || pid.isEmpty() ? null : Path.of("/proc", pid, "stat");
    }

    /** CPU seconds the service has used so far, or -1 when unknown. */
    double seconds() {
        if (stat == null) {
            return -1;
        }
        try {
            String line = Files.readString(stat);
            // Fields after the command name (which may hold spaces) in parentheses; utime and stime are 14 and 15.
            String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
