package io.verso.replica;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The application's DataSource when replicas are configured: the primary pool, except on a thread
 * that {@link ReplicaRouter} has pointed at a replica for one read transaction. The transaction
 * manager takes its connection here when the transaction begins and binds it for the whole
 * transaction, so every query of the request (the catalog's included) runs on that one server.
 * Everything else (unwrap to the Hikari pool for metrics, health, Flyway) sees the primary.
 */
public class RoutingDataSource extends DelegatingDataSource {

    private static final ThreadLocal<DataSource> TARGET = new ThreadLocal<>();

    public RoutingDataSource(DataSource primary) {
        super(primary);
    }

    /** Points this thread's next connections at {@code replica}; null: back to the primary. */
    static void use(DataSource replica) {
        if (replica == null) {
            TARGET.remove();
        } else {
            TARGET.set(replica);
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        DataSource target = TARGET.get();
        return target != null ? target.getConnection() : super.getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        DataSource target = TARGET.get();
        return target != null ? target.getConnection(username, password) : super.getConnection(username, password);
    }
}
