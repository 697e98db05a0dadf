package io.verso.pgwire;

import io.verso.analyze.ServerSettings;
import io.verso.error.ErrorCode;
import io.verso.security.Credentials;
import io.verso.security.VersoPrincipal;
import java.io.IOException;
import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A connection's start: SSLRequest (TLS when offered) and GSSENCRequest ('N'), the startup packet, authentication
 * with Verso's credentials (the password is an API key or a JWT; taken only over TLS or from 127.0.0.1), and the
 * settings reported to the client. Ends just before the first ReadyForQuery, or with the client told why not.
 */
final class Handshake {

    private static final int SSL_REQUEST = 80_877_103;
    private static final int GSSENC_REQUEST = 80_877_104;
    private static final int CANCEL_REQUEST = 80_877_102;

    /** Settings a client cannot change, reported on startup; the rest of what SHOW answers. */
    private static final Map<String, String> SERVER_SETTINGS = serverSettings();

    private final SSLContext tls;
    private final PgWireProperties properties;
    private final Credentials credentials;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private Socket socket;
    private boolean secured;
    private WireInput in;
    private WireOutput out;

    Handshake(Socket socket, SSLContext tls, PgWireProperties properties, Credentials credentials) {
        this.socket = socket;
        this.tls = tls;
        this.properties = properties;
        this.credentials = credentials;
    }

    /**
     * The connection's principal once it is authenticated and told so (AuthenticationOk, ParameterStatus,
     * BackendKeyData); empty when it was refused (and told why) or only asked to cancel.
     */
    Optional<VersoPrincipal> run() throws IOException, ProtocolException {
        in = new WireInput(socket.getInputStream(), maxMessageBytes());
        out = new WireOutput(socket.getOutputStream());
        WireInput.Startup packet = in.startup();
        while (packet.code() == SSL_REQUEST || packet.code() == GSSENC_REQUEST) {
            if (packet.code() == SSL_REQUEST && tls != null && !secured) {
                out.raw('S');
                secure();
            } else {
                out.raw('N'); // no GSSAPI encryption; TLS only when verso.pgwire.ssl-bundle is set
            }
            packet = in.startup();
        }
        if (packet.code() == CANCEL_REQUEST) {
            return Optional.empty(); // requests run to their statement timeout; a cancel is acknowledged by closing
        }
        if (packet.code() >>> 16 != 3) {
            fatal(PgError.fatal("0A000", "unsupported frontend protocol " + (packet.code() >>> 16) + "."
                    + (packet.code() & 0xffff) + ": this server speaks protocol 3.0", null));
            return Optional.empty();
        }
        while (!packet.body().done()) {
            String name = packet.body().cstring();
            if (name.isEmpty()) {
                break;
            }
            settings.put(name.toLowerCase(Locale.ROOT), packet.body().cstring());
        }
        settings.putAll(SERVER_SETTINGS);
        settings.put("session_authorization", settings.getOrDefault("user", ""));
        settings.put("ssl", secured ? "on" : "off"); // this connection's, unlike PostgreSQL's server-wide setting
        Optional<VersoPrincipal> who = authenticate();
        if (who.isEmpty()) {
            return who;
        }
        out.begin('R').int32(0).end();
        for (String name : List.of("server_version", "server_encoding", "client_encoding", "DateStyle",
                "integer_datetimes", "standard_conforming_strings", "TimeZone", "IntervalStyle", "is_superuser",
                "application_name", "session_authorization")) {
            out.begin('S').cstring(name).cstring(settings.getOrDefault(name.toLowerCase(Locale.ROOT), "")).end();
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        out.begin('K').int32(random.nextInt(1, Integer.MAX_VALUE)).int32(random.nextInt()).end();
        return who;
    }

    /** The socket the connection goes on with: the TLS one when the client asked for TLS. */
    Socket socket() {
        return socket;
    }

    boolean secured() {
        return secured;
    }

    WireInput in() {
        return in;
    }

    /** Where to write to the client; null before the handshake began. */
    WireOutput out() {
        return out;
    }

    /** The settings by lower-case name: the client's startup parameters and the server's. */
    Map<String, String> settings() {
        return settings;
    }

    /** TLS over the connection's socket, from here on: the client sent SSLRequest and was answered 'S'. */
    private void secure() throws IOException {
        SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(socket,
                socket.getInetAddress().getHostAddress(), socket.getPort(), true);
        ssl.setUseClientMode(false);
        ssl.startHandshake();
        socket = ssl;
        secured = true;
        in = new WireInput(ssl.getInputStream(), maxMessageBytes());
        out = new WireOutput(ssl.getOutputStream());
    }

    /** The connection's principal: its password (an API key or a JWT) with security on; the service's with none. */
    private Optional<VersoPrincipal> authenticate() throws IOException, ProtocolException {
        if (!credentials.required()) {
            return credentials.authenticate(null, null);
        }
        if (!secured && !socket.getInetAddress().isLoopbackAddress()) {
            fatal(PgError.fatal("28000", "a password is taken only from 127.0.0.1 or over TLS: connect with "
                    + "sslmode=require" + (tls == null ? " once verso.pgwire.ssl-bundle is configured" : "")
                    + ", or through an SSH tunnel", ErrorCode.UNAUTHENTICATED));
            return Optional.empty();
        }
        out.begin('R').int32(3).end(); // AuthenticationCleartextPassword
        out.flush();
        WireInput.Message message = in.message();
        if (message.type() != 'p') {
            throw new ProtocolException("expected a password message, not '" + message.type() + "'");
        }
        String password = message.body().cstring();
        Optional<VersoPrincipal> who;
        try {
            who = password.isBlank() ? Optional.empty() : credentials.authenticate(null, "Bearer " + password);
        } catch (org.springframework.dao.DataAccessException e) {
            fatal(PgError.fatal("57P03", "the database is unavailable, so the password cannot be checked; "
                    + "retry shortly", ErrorCode.DATABASE_UNAVAILABLE));
            return Optional.empty();
        }
        if (who.isEmpty()) {
            fatal(PgError.fatal("28P01", "password authentication failed for user \"" + settings.getOrDefault("user", "")
                    + "\": the password is an API key or a bearer token (JWT), and this one is unknown, revoked "
                    + "or expired", ErrorCode.UNAUTHENTICATED));
        }
        return who;
    }

    private void fatal(PgError error) throws IOException {
        error.write(out);
        out.flush();
    }

    private int maxMessageBytes() {
        return (int) Math.min(Integer.MAX_VALUE - 8, properties.maxMessageBytes().toBytes());
    }

    private static Map<String, String> serverSettings() {
        Map<String, String> s = new LinkedHashMap<>(ServerSettings.all());
        s.put(SessionStatements.LAST_COMMIT, "");
        return s;
    }
}
