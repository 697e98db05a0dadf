package io.verso.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/** JDBC connections reused across the benchmark's client threads: as many as clients ran at once. */
final class Pool implements AutoCloseable {

    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final Supplier<Connection> connect;
    private final ConcurrentLinkedQueue<Connection> idle = new ConcurrentLinkedQueue<>();
    private final List<Connection> all = new ArrayList<>();

    Pool(Supplier<Connection> connect) {
        this.connect = connect;
    }

    <T> T with(Work<T> work) throws SQLException {
        Connection c = idle.poll();
        if (c == null) {
            c = connect.get();
            synchronized (all) {
                all.add(c);
            }
        }
        try {
            return work.run(c);
        } finally {
            idle.add(c);
        }
    }

    @Override
    public void close() {
        synchronized (all) {
            for (Connection c : all) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // closing at the end of the run
                }
            }
            all.clear();
        }
    }
}
