package io.verso.pgwire;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code verso.pgwire.*}: the PostgreSQL protocol listener (docs/pgwire.md).
 *
 * @param enabled          whether the listener runs
 * @param port             its TCP port ({@code VERSO_PGWIRE_PORT}); 0 takes a free one (tests)
 * @param address          the address it binds; empty: {@code server.address}, else 127.0.0.1, so it never
 *                         listens beyond the machine unless told to
 * @param maxConnections   connections open at once; one more is refused with SQLSTATE 53300
 * @param startupTimeout   longest a new connection may take to start up and authenticate (half-open and
 *                         silent clients are closed then)
 * @param idleTimeout      longest a connection may stay silent between messages before it is closed
 * @param maxMessageBytes  largest message accepted; a longer announced length closes the connection
 * @param sslBundle        the Spring Boot SSL bundle ({@code spring.ssl.bundle.*}) of the server's certificate
 *                         and key; set, SSLRequest is answered with TLS (psql's {@code sslmode=require}); empty: no TLS
 */
@ConfigurationProperties("verso.pgwire")
public record PgWireProperties(@DefaultValue("true") boolean enabled,
                               @DefaultValue("5433") int port,
                               @DefaultValue("") String address,
                               @DefaultValue("64") int maxConnections,
                               @DefaultValue("10s") Duration startupTimeout,
                               @DefaultValue("30m") Duration idleTimeout,
                               @DefaultValue("16MB") DataSize maxMessageBytes,
                               @DefaultValue("") String sslBundle) {
}
