package io.verso.pgwire;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Framing of what the server sends: typed messages, buffered until {@link #flush}. */
final class WireOutput {

    private final OutputStream out;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream(256);
    private char type;

    WireOutput(OutputStream out) {
        this.out = new BufferedOutputStream(out, 64 * 1024);
    }

    WireOutput begin(char type) {
        this.type = type;
        body.reset();
        return this;
    }

    WireOutput int32(int v) {
        body.write(v >>> 24);
        body.write(v >>> 16);
        body.write(v >>> 8);
        body.write(v);
        return this;
    }

    WireOutput int16(int v) {
        body.write(v >>> 8);
        body.write(v);
        return this;
    }

    WireOutput byte1(int v) {
        body.write(v);
        return this;
    }

    WireOutput cstring(String s) {
        body.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        body.write(0);
        return this;
    }

    /** A value: its length, then its bytes; null is length -1. */
    WireOutput value(byte[] v) {
        if (v == null) {
            return int32(-1);
        }
        int32(v.length);
        body.writeBytes(v);
        return this;
    }

    void end() throws IOException {
        out.write(type);
        int length = body.size() + 4;
        out.write(length >>> 24);
        out.write(length >>> 16);
        out.write(length >>> 8);
        out.write(length);
        body.writeTo(out);
    }

    /** A lone byte outside any message: the answer to SSLRequest and GSSENCRequest. */
    void raw(int b) throws IOException {
        out.write(b);
        out.flush();
    }

    void flush() throws IOException {
        out.flush();
    }
}
