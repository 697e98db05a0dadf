package io.verso.pgwire;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Framing of what a client sends: the untyped startup packets and typed messages, each read whole
 * into memory only once its announced length is known to be within bounds.
 */
final class WireInput {

    /** PostgreSQL's own bound for a startup packet (MAX_STARTUP_PACKET_LENGTH). */
    static final int MAX_STARTUP_BYTES = 10_000;

    private final DataInputStream in;
    private final int maxMessageBytes;

    WireInput(InputStream in, int maxMessageBytes) {
        this.in = new DataInputStream(new java.io.BufferedInputStream(in, 16 * 1024));
        this.maxMessageBytes = maxMessageBytes;
    }

    /** A startup packet: its code (protocol version or request code) and the rest. */
    record Startup(int code, Payload body) {
    }

    /** A typed message. */
    record Message(char type, Payload body) {
    }

    Startup startup() throws IOException, ProtocolException {
        int length = in.readInt();
        int code = in.readInt();
        if (length < 8 || length > MAX_STARTUP_BYTES) {
            throw new ProtocolException("invalid startup packet length " + length);
        }
        return new Startup(code, new Payload(bytes(length - 8)));
    }

    Message message() throws IOException, ProtocolException {
        int type = in.read();
        if (type < 0) {
            throw new java.io.EOFException();
        }
        int length = in.readInt();
        if (length < 4 || length - 4 > maxMessageBytes) {
            throw new ProtocolException("invalid length " + length + " of a message of type '" + (char) type
                    + "' (at most " + maxMessageBytes + " bytes, verso.pgwire.max-message-bytes)");
        }
        return new Message((char) type, new Payload(bytes(length - 4)));
    }

    private byte[] bytes(int n) throws IOException {
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    /** The fields of one message, read in order; running past its end is a protocol violation. */
    static final class Payload {
        private final byte[] bytes;
        private int at;

        Payload(byte[] bytes) {
            this.bytes = bytes;
        }

        String cstring() throws ProtocolException {
            int end = at;
            while (end < bytes.length && bytes[end] != 0) {
                end++;
            }
            if (end == bytes.length) {
                throw new ProtocolException("a string field is not terminated");
            }
            String s = new String(bytes, at, end - at, StandardCharsets.UTF_8);
            at = end + 1;
            return s;
        }

        int int16() throws ProtocolException {
            need(2);
            int v = (short) (((bytes[at] & 0xff) << 8) | (bytes[at + 1] & 0xff));
            at += 2;
            return v;
        }

        /**
         * A count (Int16) of the items that follow, each at least {@code width} bytes: one that is negative or
         * that the message cannot hold breaks the protocol, before anything is made of its size.
         */
        int count(int width) throws ProtocolException {
            int n = int16();
            if (n < 0) {
                throw new ProtocolException("a negative count " + n);
            }
            need(n * width);
            return n;
        }

        int int32() throws ProtocolException {
            need(4);
            int v = ((bytes[at] & 0xff) << 24) | ((bytes[at + 1] & 0xff) << 16) | ((bytes[at + 2] & 0xff) << 8)
                    | (bytes[at + 3] & 0xff);
            at += 4;
            return v;
        }

        int byte1() throws ProtocolException {
            need(1);
            return bytes[at++] & 0xff;
        }

        byte[] bytes(int n) throws ProtocolException {
            if (n < 0) {
                throw new ProtocolException("a negative field length");
            }
            need(n);
            byte[] b = java.util.Arrays.copyOfRange(bytes, at, at + n);
            at += n;
            return b;
        }

        boolean done() {
            return at >= bytes.length;
        }

        int remaining() {
            return bytes.length - at;
        }

        private void need(int n) throws ProtocolException {
            if (bytes.length - at < n) {
                throw new ProtocolException("a message is shorter than its fields");
            }
        }
    }
}
