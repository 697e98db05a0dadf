package io.verso.pgwire;

import io.verso.config.StartupException;
import io.verso.security.Credentials;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The listener: a blocking server socket and one thread per connection, at most
 * {@code verso.pgwire.max-connections} of them; one more is told so (SQLSTATE 53300) and closed. It binds
 * {@code verso.pgwire.address}, else the service's {@code server.address}, else 127.0.0.1, so the PostgreSQL
 * port is never reachable from further than the HTTP port unless configured to be.
 */
@Component
public class PgWireServer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PgWireServer.class);

    private final PgWireProperties properties;
    private final Credentials credentials;
    private final StatementRequests requests;
    private final String address;
    private final java.util.Map<Socket, PgConnection> open = new ConcurrentHashMap<>();
    private final java.time.Duration checkInterval;
    private volatile java.util.concurrent.ScheduledExecutorService watcher;
    private final Semaphore places;
    private final org.springframework.beans.factory.ObjectProvider<org.springframework.boot.ssl.SslBundles> bundles;
    private volatile javax.net.ssl.SSLContext tls;
    private volatile ServerSocket server;
    private volatile ThreadPoolExecutor pool;

    PgWireServer(PgWireProperties properties, Credentials credentials, StatementRequests requests,
                 Environment environment, io.verso.feed.FeedProperties feed,
                 org.springframework.beans.factory.ObjectProvider<org.springframework.boot.ssl.SslBundles> bundles) {
        this.properties = properties;
        this.bundles = bundles;
        this.checkInterval = feed.checkInterval();
        this.credentials = credentials;
        this.requests = requests;
        String configured = properties.address();
        String serverAddress = environment.getProperty("server.address");
        this.address = configured != null && !configured.isBlank() ? configured
                : serverAddress != null && !serverAddress.isBlank() ? serverAddress : "127.0.0.1";
        this.places = new Semaphore(Math.max(1, properties.maxConnections()));
    }

    /** The port it listens on (the one taken when configured as 0), or -1 when it does not run. */
    public int port() {
        ServerSocket s = server;
        return s == null ? -1 : s.getLocalPort();
    }

    @Override
    public void start() {
        if (!properties.enabled()) {
            return;
        }
        tls = tls();
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(address), properties.port()), 128);
            server = socket;
        } catch (IOException e) {
            throw new StartupException("Cannot listen for PostgreSQL clients on " + address + ":" + properties.port()
                    + ": " + e.getMessage() + ".", "Set VERSO_PGWIRE_PORT to a free port, or "
                    + "VERSO_PGWIRE_ENABLED=false to run without the PostgreSQL protocol.", e);
        }
        AtomicInteger n = new AtomicInteger();
        int size = Math.max(1, properties.maxConnections());
        pool = new ThreadPoolExecutor(size, size, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "pgwire-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
        Thread acceptor = new Thread(this::accept, "pgwire-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        watcher = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pgwire-credentials");
            t.setDaemon(true);
            return t;
        });
        // Revoked keys and expired tokens end idle connections as they end open streams.
        watcher.scheduleWithFixedDelay(() -> open.values().forEach(connection -> {
            try {
                connection.endIfRevoked();
            } catch (RuntimeException e) {
                log.debug("pgwire credential check failed: {}", e.toString()); // checked again next round
            }
        }),
                checkInterval.toMillis(), checkInterval.toMillis(), TimeUnit.MILLISECONDS);
        log.info("PostgreSQL protocol listening on {}:{}{}", address, port(), tls == null ? "" : " (TLS offered)");
    }

    /** The TLS context of {@code verso.pgwire.ssl-bundle}, or null when none is configured. */
    private javax.net.ssl.SSLContext tls() {
        String name = properties.sslBundle();
        if (name == null || name.isBlank()) {
            return null;
        }
        org.springframework.boot.ssl.SslBundles registry = bundles.getIfAvailable();
        try {
            if (registry == null) {
                throw new IllegalStateException("no SSL bundles are configured");
            }
            return registry.getBundle(name).createSslContext();
        } catch (RuntimeException e) {
            throw new StartupException("The SSL bundle '" + name + "' of verso.pgwire.ssl-bundle cannot be used: "
                    + e.getMessage(), "Define it under spring.ssl.bundle.pem." + name + " (keystore.certificate and "
                    + "keystore.private-key) or spring.ssl.bundle.jks." + name + ", or unset VERSO_PGWIRE_SSL_BUNDLE.", e);
        }
    }

    private void accept() {
        ServerSocket s = server;
        while (s != null && !s.isClosed()) {
            Socket socket;
            try {
                socket = s.accept();
            } catch (IOException e) {
                if (!s.isClosed()) {
                    log.warn("pgwire accept failed: {}", e.toString());
                }
                continue;
            }
            if (!places.tryAcquire()) {
                refuse(socket);
                continue;
            }
            PgConnection connection = new PgConnection(socket, tls, properties, credentials, requests);
            open.put(socket, connection);
            try {
                pool.execute(() -> {
                    try {
                        connection.run();
                    } finally {
                        open.remove(socket);
                        places.release();
                    }
                });
            } catch (RuntimeException e) {
                open.remove(socket);
                places.release();
                refuse(socket);
            }
        }
    }

    /** Tells a connection over the limit why it is closed, without waiting on it. */
    private void refuse(Socket socket) {
        try (socket) {
            socket.setSoTimeout(1000);
            WireOutput out = new WireOutput(socket.getOutputStream());
            PgError.fatal("53300", "sorry, too many clients already: " + properties.maxConnections()
                    + " connections are open (verso.pgwire.max-connections)", io.verso.error.ErrorCode.OVERLOADED)
                    .write(out);
            out.flush();
        } catch (IOException ignored) {
            // It is being closed either way.
        }
    }

    @Override
    public void stop() {
        ServerSocket s = server;
        server = null;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // Closing.
            }
        }
        if (watcher != null) {
            watcher.shutdownNow();
        }
        for (Socket socket : open.keySet()) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closing.
            }
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    /** Stops before the web server and the database pool, whose work its connections use. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1024;
    }
}
