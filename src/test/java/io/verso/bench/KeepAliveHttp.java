package io.verso.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * GETs (and POSTs of a small body) over one kept-alive HTTP/1.1 connection per client thread, written and read by hand: the
 * benchmark's read scenarios drive the service as lean as the baselines are driven by their JDBC
 * drivers. (The JDK's HttpClient spent about a quarter of a millisecond of its own per request on this
 * machine, and capped 16 clients at ~0.6× the rate a raw connection reached against the same service:
 * the figures measured the client.) Enough HTTP for the service's answers: a status line, headers, a
 * body by Content-Length or chunked.
 */
final class KeepAliveHttp {

    /** A response's status and the size of its body. */
    record Answer(int status, long bytes) {
    }

    private final String host;
    private final int port;
    private final String apiKey;
    private final ThreadLocal<Connection> connections = new ThreadLocal<>();

    KeepAliveHttp(String base, String apiKey) {
        URI uri = URI.create(base);
        this.host = uri.getHost();
        this.port = uri.getPort() < 0 ? 80 : uri.getPort();
        this.apiKey = apiKey;
    }

    /** GET {@code pathAndQuery} (already encoded); a connection the server closed is opened again once. */
    Answer get(String pathAndQuery) throws IOException {
        return get(pathAndQuery, "");
    }

    /** The same with more request headers, each ending in CRLF (If-None-Match, for conditional reads). */
    Answer get(String pathAndQuery, String headers) throws IOException {
        return exchange(head("GET", pathAndQuery, headers).getBytes(StandardCharsets.UTF_8));
    }

    /** POST of a JSON {@code body} to {@code path} (a GraphQL query). */
    Answer post(String path, String body) throws IOException {
        byte[] json = body.getBytes(StandardCharsets.UTF_8);
        byte[] head = head("POST", path, "Content-Type: application/json\r\nContent-Length: " + json.length + "\r\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] request = new byte[head.length + json.length];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(json, 0, request, head.length, json.length);
        return exchange(request);
    }

    private String head(String method, String pathAndQuery, String headers) {
        return method + " " + pathAndQuery + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n"
                + (apiKey == null || apiKey.isEmpty() ? "" : "X-API-Key: " + apiKey + "\r\n") + headers + "\r\n";
    }

    private Answer exchange(byte[] request) throws IOException {
        Connection open = connections.get();
        if (open != null) {
            try {
                return open.exchange(request);
            } catch (IOException e) {
                open.close(); // e.g. the server's keep-alive limit: once more on a new connection
            }
        }
        Connection fresh = new Connection(new Socket(host, port));
        connections.set(fresh);
        return fresh.exchange(request);
    }

    private static final class Connection {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final StringBuilder line = new StringBuilder(128);

        Connection(Socket socket) throws IOException {
            socket.setTcpNoDelay(true);
            this.socket = socket;
            this.out = new BufferedOutputStream(socket.getOutputStream());
            this.in = new BufferedInputStream(socket.getInputStream(), 65536);
        }

        Answer exchange(byte[] request) throws IOException {
            out.write(request);
            out.flush();
            int status = Integer.parseInt(readLine().substring(9, 12));
            long length = -1;
            boolean chunked = false;
            boolean closes = false;
            for (String header = readLine(); !header.isEmpty(); header = readLine()) {
                if (header.regionMatches(true, 0, "content-length:", 0, 15)) {
                    length = Long.parseLong(header.substring(15).trim());
                } else if (header.regionMatches(true, 0, "transfer-encoding:", 0, 18)) {
                    chunked = header.toLowerCase().contains("chunked");
                } else if (header.regionMatches(true, 0, "connection:", 0, 11)) {
                    closes = header.toLowerCase().contains("close");
                }
            }
            long bytes = 0;
            if (status == 304 || status == 204) {
                // No body, whatever the headers say (RFC 9110 15.4.5).
            } else if (chunked) {
                for (long size = Long.parseLong(readLine().trim(), 16); size > 0;
                     size = Long.parseLong(readLine().trim(), 16)) {
                    in.skipNBytes(size);
                    bytes += size;
                    readLine();
                }
                readLine(); // the empty line after the last chunk (no trailers from the service)
            } else if (length >= 0) {
                in.skipNBytes(length);
                bytes = length;
            } else {
                throw new IOException("a response without Content-Length or chunked encoding");
            }
            if (closes) {
                close();
            }
            return new Answer(status, bytes);
        }

        private String readLine() throws IOException {
            line.setLength(0);
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new EOFException("the connection closed mid-response");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a connection already broken
            }
        }
    }
}
