package io.verso.pgwire;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The protocol by hand, for what no driver sends on purpose: broken frames, and messages in orders a test
 * chooses (Execute with a row limit, Describe of a statement alone).
 */
final class RawPgClient implements AutoCloseable {

    /** A message the server sent: its type and body. */
    record Reply(char type, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** A field of an ErrorResponse ('C' for the SQLSTATE, 'M' for the message), or null. */
        String field(char code) {
            int i = 0;
            while (i < body.length && body[i] != 0) {
                int end = i + 1;
                while (body[end] != 0) {
                    end++;
                }
                if (body[i] == code) {
                    return new String(body, i + 1, end - i - 1, StandardCharsets.UTF_8);
                }
                i = end + 1;
            }
            return null;
        }
    }

    final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawPgClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Starts up and authenticates with {@code password}, up to the first ReadyForQuery. */
    RawPgClient login(String password) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(int32(196_608));
        b.writeBytes(cstring("user"));
        b.writeBytes(cstring("raw"));
        b.write(0);
        out.write(int32(b.size() + 4));
        b.writeTo(out);
        Reply auth = read();
        if (auth.type() == 'R' && auth.body()[3] == 3) {
            send('p', cstring(password));
        }
        untilReady();
        return this;
    }

    void send(char type, byte[]... parts) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            b.writeBytes(part);
        }
        out.write(type);
        out.write(int32(b.size() + 4));
        b.writeTo(out);
        out.flush();
    }

    void raw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    Reply read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException();
        }
        byte[] body = new byte[in.readInt() - 4];
        in.readFully(body);
        return new Reply((char) type, body);
    }

    List<Reply> untilReady() throws IOException {
        List<Reply> replies = new ArrayList<>();
        Reply r;
        do {
            r = read();
            replies.add(r);
        } while (r.type() != 'Z');
        return replies;
    }

    /** Whether the server closed the connection (after any messages it sent first). */
    boolean closedByServer() throws IOException {
        try {
            while (true) {
                read();
            }
        } catch (EOFException | java.net.SocketException e) {
            return true;
        }
    }

    static byte[] int32(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    static byte[] int16(int v) {
        return new byte[] {(byte) (v >>> 8), (byte) v};
    }

    static byte[] cstring(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[b.length + 1];
        System.arraycopy(b, 0, out, 0, b.length);
        return out;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
