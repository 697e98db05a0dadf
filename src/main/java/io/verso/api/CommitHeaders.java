package io.verso.api;

import io.verso.engine.ClientCommit;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * The two headers of read-your-writes (docs/replicas.md): a request's {@code Verso-Min-Commit}, the latest commit
 * its caller has seen, and a response's {@code Verso-Commit}, the latest this request made or read
 * ({@link ClientCommit}). Read and written the same way by the filter chain and by the {@link FrontDoor}.
 */
public final class CommitHeaders {

    public static final String MIN_COMMIT = "Verso-Min-Commit";
    public static final String COMMIT = "Verso-Commit";
    /** What {@link #minCommit} answers for a header that is not a commit sequence. */
    public static final long INVALID = -2;

    private CommitHeaders() {
    }

    /** The request's Verso-Min-Commit: -1 when it does not say, {@link #INVALID} when it is not a commit sequence. */
    public static long minCommit(HttpServletRequest request) {
        String header = request.getHeader(MIN_COMMIT);
        if (header == null || header.isBlank()) {
            return -1;
        }
        try {
            long commit = Long.parseLong(header.trim());
            return commit < 0 ? INVALID : commit;
        } catch (NumberFormatException e) {
            return INVALID;
        }
    }

    /** The response with Verso-Commit added just before its body starts, when the request has made or read a commit. */
    public static HttpServletResponse stamped(HttpServletResponse response) {
        return new Stamped(response);
    }

    private static final class Stamped extends HttpServletResponseWrapper {
        private boolean stamped;

        Stamped(HttpServletResponse response) {
            super(response);
        }

        private void stamp() {
            if (!stamped && !isCommitted()) {
                stamped = true;
                long seen = ClientCommit.seen();
                if (seen > 0) {
                    setHeader(COMMIT, Long.toString(seen));
                }
            }
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            stamp();
            return super.getOutputStream();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            stamp();
            return super.getWriter();
        }

        @Override
        public void flushBuffer() throws IOException {
            stamp();
            super.flushBuffer();
        }
    }
}
