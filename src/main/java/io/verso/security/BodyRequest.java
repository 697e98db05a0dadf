package io.verso.security;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.springframework.web.util.WebUtils;

/**
 * A request whose body a filter has already read (bounded by verso.max-request-bytes), to be read again
 * from memory: the input guard (which checks its text), the idempotency filter (which hashes it) and the
 * size filter (chunked bodies) all use it, and each takes the bytes an earlier one read ({@link #read}),
 * so a body is read from the connection once and copied once more, by the controller's converter.
 */
public final class BodyRequest extends HttpServletRequestWrapper {
    private final byte[] body;

    private BodyRequest(HttpServletRequest request, byte[] body) {
        super(request);
        this.body = body;
    }

    /**
     * The body of {@code request}: the bytes an earlier filter read, else read now, into an array of the
     * announced length when there is one. Null when it is larger than {@code maxBytes}.
     */
    public static byte[] read(HttpServletRequest request, long maxBytes) throws IOException {
        BodyRequest read = WebUtils.getNativeRequest(request, BodyRequest.class);
        if (read != null) {
            return read.body.length > maxBytes ? null : read.body;
        }
        long length = request.getContentLengthLong();
        InputStream in = request.getInputStream();
        if (length >= 0 && length <= maxBytes) {
            byte[] body = new byte[(int) length];
            int n = in.readNBytes(body, 0, body.length);
            return n == body.length ? body : Arrays.copyOf(body, n);
        }
        byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        return body.length > maxBytes ? null : body;
    }

    /** {@code request} reading {@code body} (which {@link #read} returned for it) from memory. */
    public static HttpServletRequest with(HttpServletRequest request, byte[] body) {
        BodyRequest read = WebUtils.getNativeRequest(request, BodyRequest.class);
        return read != null && read.body == body ? request : new BodyRequest(request, body);
    }

    @Override
    public ServletInputStream getInputStream() {
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        return new ServletInputStream() {
            @Override
            public boolean isFinished() {
                return in.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new UnsupportedOperationException("synchronous reads only");
            }

            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return in.read(b, off, len);
            }

            // Readers take the rest in one copy (InputStream's defaults go through 8 KiB chunks), and
            // Spring's check for an empty body marks and resets rather than wrapping the stream.
            @Override
            public byte[] readAllBytes() {
                return in.readAllBytes();
            }

            @Override
            public byte[] readNBytes(int len) {
                byte[] bytes = new byte[Math.min(len, in.available())];
                in.read(bytes, 0, bytes.length);
                return bytes;
            }

            @Override
            public int available() {
                return in.available();
            }

            @Override
            public boolean markSupported() {
                return true;
            }

            @Override
            public synchronized void mark(int limit) {
                in.mark(limit);
            }

            @Override
            public synchronized void reset() {
                in.reset();
            }
        };
    }

    @Override
    public BufferedReader getReader() {
        return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
    }

    @Override
    public int getContentLength() {
        return body.length;
    }

    @Override
    public long getContentLengthLong() {
        return body.length;
    }
}
