package io.verso.pgwire;

import io.verso.catalog.ViewDef;
import io.verso.engine.ExecutionResult;
import io.verso.engine.StatementResult;
import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import io.verso.security.Credentials;
import io.verso.security.VersoPrincipal;
import io.verso.sql.ast.Ident;
import io.verso.sql.ast.Pos;
import io.verso.sql.ast.Statement;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection, from its startup packet ({@link Handshake}) to its Terminate: the simple and the
 * extended query protocol. A Query message is one request; the Parse/Bind/Execute messages up to a Sync are
 * another, run when the Sync arrives ({@link StatementRequests}), so their answers are queued as steps until
 * then. An error anywhere before the Sync discards the rest up to it, as PostgreSQL does, and nothing of the
 * request is written. There are no transaction blocks across requests: a request that opens one and does not
 * end it (pgjdbc's BEGIN with autocommit off) is refused, and the connection then refuses everything
 * (25P02, ReadyForQuery 'E') until COMMIT or ROLLBACK, which both answer ROLLBACK: nothing the client meant to
 * run in that transaction is written on its own.
 */
final class PgConnection implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(PgConnection.class);

    /** The client's socket: the TCP one, then the TLS one over it once the client asked for TLS. */
    private Socket socket;
    private final Handshake handshake;
    /** The client's address: who a request is from for rate limits when security is off. */
    private final String address;
    private final PgWireProperties properties;
    private final Credentials credentials;
    private final StatementRequests requests;
    private WireInput in;
    private WireOutput out;

    private VersoPrincipal principal;
    /** The session's settings by lower-case name, for SHOW. */
    private final Map<String, String> settings = new LinkedHashMap<>();

    /** A parsed statement: named ones live until closed, the unnamed one until the next Parse of it. */
    /** {@code local}: answered by the connection (session statements, catalog queries), not the engine. */
    private record Prepared(String sql, Placeholders placeholders, int[] types, boolean empty, boolean local,
                            boolean writes) {
    }

    /** A bound statement, and how much of its result has been sent. */
    private static final class Portal {
        final Prepared prepared;
        final List<Object> values;
        final int[] formats;
        StatementResult result;
        boolean queued;
        int sent;

        Portal(Prepared prepared, List<Object> values, int[] formats) {
            this.prepared = prepared;
            this.values = values;
            this.formats = formats;
        }
    }

    /** An answer held until the Sync, when the request that fills it has run. */
    private interface Step {
        void write() throws IOException, StepFailed;

        /** Whether it shows the outcome of the Sync's request, so it is not sent when that failed. */
        default boolean ofRequest() {
            return false;
        }
    }

    /** A step that could not be answered (a Describe whose dry run failed). */
    private static final class StepFailed extends Exception {
        final PgError error;

        StepFailed(PgError error) {
            super(error.message(), null, false, false);
            this.error = error;
        }
    }

    /** Held while a message is handled: whoever else writes to the client (a revocation) waits for its turn. */
    private final java.util.concurrent.locks.ReentrantLock turn = new java.util.concurrent.locks.ReentrantLock();
    private volatile boolean ended;

    private final Map<String, Prepared> statements = new HashMap<>();
    private final Map<String, Portal> portals = new HashMap<>();
    private final List<Step> steps = new ArrayList<>();
    private final List<Portal> calls = new ArrayList<>();
    /** The first error of the messages since the last Sync; the rest up to it are discarded. */
    private PgError failed;
    /** A transaction block was asked for and refused: everything is refused until it is ended. */
    private boolean aborted;
    /** The Sync's request once run, until its answers are sent. */
    private ExecutionResult executed;

    PgConnection(Socket socket, javax.net.ssl.SSLContext tls, PgWireProperties properties, Credentials credentials,
                 StatementRequests requests) {
        this.socket = socket;
        this.handshake = new Handshake(socket, tls, properties, credentials);
        this.address = socket.getInetAddress().getHostAddress();
        this.properties = properties;
        this.credentials = credentials;
        this.requests = requests;
    }

    @Override
    public void run() {
        try {
            converse();
        } finally {
            closeCleanly();
        }
    }

    /**
     * Closes after the client has had the last message: the sending side first, then what the client still
     * sends is read and dropped for a moment, as closing with unread input would reset the connection and
     * could lose the error that explains why it ends.
     */
    private void closeCleanly() {
        Socket s = handshake.socket();
        try (s) {
            if (!handshake.secured() && !s.isClosed() && !s.isOutputShutdown()) { // a TLS socket's close says goodbye itself
                s.shutdownOutput();
                s.setSoTimeout(500);
                java.io.InputStream rest = s.getInputStream();
                byte[] drain = new byte[8192];
                for (int read = 0, total = 0; read >= 0 && total < 1 << 20; total += read) {
                    read = rest.read(drain);
                }
            }
        } catch (IOException ignored) {
            // Closed either way.
        }
    }

    private void converse() {
        try {
            socket.setSoTimeout((int) properties.startupTimeout().toMillis());
            socket.setKeepAlive(true);
            socket.setTcpNoDelay(true);
            Optional<VersoPrincipal> who = handshake.run();
            socket = handshake.socket();
            if (who.isEmpty()) {
                return;
            }
            principal = who.get();
            in = handshake.in();
            out = handshake.out();
            settings.putAll(handshake.settings());
            ready();
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, properties.idleTimeout().toMillis()));
            serve();
        } catch (SocketTimeoutException e) {
            fatalQuietly(principal == null
                    ? PgError.fatal("08P01", "the connection did not start up within " + properties.startupTimeout()
                    + " (verso.pgwire.startup-timeout)", null)
                    : PgError.fatal("57P05", "terminating connection after " + properties.idleTimeout()
                    + " without a message (verso.pgwire.idle-timeout)", null));
        } catch (ProtocolException e) {
            fatalQuietly(PgError.fatal("08P01", e.getMessage(), null));
        } catch (EOFException | SocketException e) {
            // The client went away.
        } catch (IOException e) {
            log.debug("pgwire connection ended: {}", e.toString());
        } catch (RuntimeException e) {
            log.error("pgwire connection failed", e);
            fatalQuietly(PgError.fatal("XX000", "internal error", ErrorCode.INTERNAL_ERROR));
        }
    }

    // ---- Messages ---------------------------------------------------------------------------------

    private void serve() throws IOException, ProtocolException {
        while (true) {
            WireInput.Message message = in.message();
            turn.lock();
            try {
                if (ended || !handle(message)) {
                    return;
                }
            } finally {
                turn.unlock();
            }
        }
    }

    /**
     * Ends the connection, telling the client why, if its credential no longer holds (a revoked key, an expired
     * token) while it waits for a message: checked every {@code verso.feed.check-interval}, as open streams are.
     * A connection in the middle of a message is left to check for itself before its next request.
     */
    boolean endIfRevoked() {
        VersoPrincipal p = principal;
        if (p == null || ended || credentials.valid(p) || !turn.tryLock()) {
            return false;
        }
        try {
            ended = true;
            fatalQuietly(PgError.fatal("28000", Credentials.invalidReason(p) + "; the connection is closed",
                    ErrorCode.UNAUTHENTICATED));
            socket.close();
        } catch (IOException ignored) {
            // Closed either way.
        } finally {
            turn.unlock();
        }
        return true;
    }

    /** Handles one message; false when the connection ends. */
    private boolean handle(WireInput.Message message) throws IOException, ProtocolException {
        char type = message.type();
        if (type == 'X') {
            return false;
        }
        if (!stillValid()) {
            return false; // nothing sent after a key's revocation or a token's expiry is run
        }
        if (failed != null && type != 'S') {
            return true; // discarded up to the Sync after an error
        }
        try {
            switch (type) {
                case 'Q' -> {
                    if (!query(message.body().cstring())) {
                        return false;
                    }
                }
                case 'P' -> parse(message.body());
                case 'B' -> bind(message.body());
                case 'D' -> describe(message.body());
                case 'E' -> execute(message.body());
                case 'C' -> close(message.body());
                case 'H' -> flush();
                case 'S' -> {
                    if (!sync()) {
                        return false;
                    }
                }
                case 'd', 'c', 'f' -> {
                    // COPY data outside COPY: ignored, as PostgreSQL does.
                }
                default -> throw new ProtocolException("unknown message type '" + type + "' (" + (int) type + ")");
            }
        } catch (IllegalArgumentException e) {
            failed = PgError.error("22023", e.getMessage());
        }
        return true;
    }

    /** Whether the connection's credential still holds; if not, it is told why and closed. */
    private boolean stillValid() throws IOException {
        if (credentials.valid(principal)) {
            return true;
        }
        fatal(PgError.fatal("28000", Credentials.invalidReason(principal) + "; the connection is closed",
                ErrorCode.UNAUTHENTICATED));
        return false;
    }

    /** Runs a Query message; false when the connection ends (its credential no longer holds). */
    private boolean query(String sql) throws IOException, ProtocolException {
        if (aborted) {
            if (SessionStatements.endsTransaction(sql)) {
                aborted = false;
                ResultMessages.complete(out, "ROLLBACK");
            } else {
                abortedError().write(out);
            }
            ready();
            return true;
        }
        Optional<CopyIn> copy;
        try {
            copy = CopyIn.of(sql);
        } catch (IllegalArgumentException e) {
            failed = PgError.error("0A000", e.getMessage());
            copy = Optional.empty();
        }
        if (copy.isPresent()) {
            if (!copyIn(copy.get())) {
                return false;
            }
            ready();
            return true;
        }
        Optional<StatementResult> local = failed != null ? Optional.empty() : localAnswer(sql, List.of());
        if (failed != null) {
            failed.write(out);
        } else if (local.isPresent()) {
            writeWhole(local.get(), new int[0]);
        } else if (isBlank(sql)) {
            out.begin('I').end();
        } else {
            try {
                ExecutionResult result = requests.run(principal, address, List.of(new StatementRequests.Call(sql, List.of())));
                for (StatementResult r : result.results()) {
                    writeWhole(r, new int[0]);
                }
                lastCommit(result);
            } catch (StatementRequests.Failed f) {
                if (f.error.code() == ErrorCode.EMPTY_STATEMENT) {
                    out.begin('I').end();
                } else {
                    aborted = f.error.code() == ErrorCode.TRANSACTION_NOT_ENDED;
                    f.pgError().write(out);
                }
            }
        }
        failed = null;
        ready();
        return true;
    }

    /**
     * COPY FROM STDIN: the table checked first (DESCRIBE, for the caller), then CopyInResponse, the client's
     * CopyData up to CopyDone, and its rows written as one INSERT request: one commit, whose number is the
     * receipt ({@code verso.last_commit}) beside a notice of what it wrote. Data beyond
     * {@code verso.pgwire.max-message-bytes} is read to its end and refused (54000), so nothing is written.
     * False when the connection ends: the credential no longer held when the data was complete (the check
     * before each message cannot reach a connection in the middle of a COPY), so nothing is written.
     */
    private boolean copyIn(CopyIn copy) throws IOException, ProtocolException {
        List<String> names = copy.columnNames();
        try {
            // The table must be there for the caller before any data is taken; its columns when none are named.
            StatementResult.Rows described = (StatementResult.Rows) requests.run(principal, address, List.of(
                    new StatementRequests.Call("DESCRIBE " + copy.table(), List.of()))).results().get(0);
            if (names.isEmpty()) {
                names = described.rows().stream().filter(row -> "COLUMN".equals(row.get(0)))
                        .map(row -> String.valueOf(row.get(1))).toList();
            }
        } catch (StatementRequests.Failed f) {
            f.pgError().write(out);
            return true;
        }
        out.begin('G').byte1(0).int16(copy.columns().size());
        for (int i = 0; i < copy.columns().size(); i++) {
            out.int16(0);
        }
        out.end();
        out.flush();
        java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
        long limit = properties.maxMessageBytes().toBytes();
        boolean tooLarge = false;
        while (true) {
            WireInput.Message message = in.message();
            switch (message.type()) {
                case 'd' -> {
                    byte[] chunk = message.body().bytes(message.body().remaining());
                    tooLarge |= data.size() + (long) chunk.length > limit;
                    if (!tooLarge) {
                        data.writeBytes(chunk);
                    }
                }
                case 'c' -> {
                    if (!stillValid()) {
                        return false;
                    }
                    if (tooLarge) {
                        PgError.error("54000", "the COPY data is larger than " + limit
                                + " bytes (verso.pgwire.max-message-bytes); nothing was written").write(out);
                    } else {
                        writeCopied(copy, names, data.toByteArray());
                    }
                    return true;
                }
                case 'f' -> {
                    PgError.error("57014", "COPY from stdin failed: " + message.body().cstring()).write(out);
                    return true;
                }
                case 'H', 'S' -> {
                    // Ignored during COPY, as PostgreSQL does.
                }
                default -> throw new ProtocolException("unexpected message type '" + message.type()
                        + "' during COPY FROM STDIN");
            }
        }
    }

    private void writeCopied(CopyIn copy, List<String> names, byte[] data) throws IOException {
        List<List<Object>> rows = copy.rows(data);
        if (rows.isEmpty()) {
            ResultMessages.complete(out, "COPY 0");
            return;
        }
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).size() != names.size()) {
                PgError.error("22P04", "COPY row " + (i + 1) + " has " + rows.get(i).size() + " values, not "
                        + names.size() + " (" + String.join(", ", names) + "); nothing was written").write(out);
                return;
            }
        }
        try {
            ExecutionResult result = requests.run(principal, address, List.of(copy.insert(names, rows)), data.length);
            StatementResult.Written w = (StatementResult.Written) result.results().get(0);
            out.begin('N').byte1('S').cstring("NOTICE").byte1('V').cstring("NOTICE").byte1('C').cstring("00000")
                    .byte1('M').cstring("COPY wrote " + w.rows() + " rows to " + w.table() + " in commit "
                            + result.commit() + ": " + w.versions() + " versions, " + w.current() + " current, "
                            + w.lost() + " lost on arrival").byte1(0).end();
            ResultMessages.complete(out, "COPY " + rows.size());
            lastCommit(result);
        } catch (StatementRequests.Failed f) {
            f.pgError().write(out);
        }
    }

    /**
     * The connection's own answer to a session statement or a catalog query ({@code values} its parameters by
     * number), or empty: the engine's to answer. A refusal is left in {@link #failed}.
     */
    private Optional<StatementResult> localAnswer(String sql, List<Object> values) {
        try {
            Optional<StatementResult> session = SessionStatements.answer(sql, settings);
            return session.isPresent() ? session : CatalogQueries.answer(sql, values, catalog);
        } catch (IllegalArgumentException e) {
            failed = PgError.error(e.getMessage().startsWith("unrecognized") ? "42704" : "22023", e.getMessage());
        } catch (StatementRequests.Failed f) {
            failed = f.pgError();
        }
        return Optional.empty();
    }

    /** The catalog as the connection's principal may see it: SHOW TABLES, and DESCRIBE of what it lists. */
    private final CatalogQueries.Catalog catalog = new CatalogQueries.Catalog() {
        @Override
        public String database() {
            return SessionStatements.database(settings);
        }

        @Override
        public List<String> tables() throws StatementRequests.Failed {
            StatementResult listed = requests.run(principal, address,
                    List.of(new StatementRequests.Call("SHOW TABLES", List.of()))).results().get(0);
            return ((StatementResult.Rows) listed).rows().stream().map(row -> String.valueOf(row.get(0))).toList();
        }

        @Override
        public List<StatementResult> describe(List<String> tables) throws StatementRequests.Failed {
            // Built, not printed: the names come from SHOW TABLES and never pass through statement text. As many
            // per request as a request may hold (verso.max-statements), so every visible table can be listed.
            Pos pos = Pos.pointer("");
            List<StatementResult> described = new ArrayList<>();
            for (int from = 0; from < tables.size(); from += requests.maxStatements()) {
                List<String> some = tables.subList(from, Math.min(tables.size(), from + requests.maxStatements()));
                List<Statement> describes = some.stream()
                        .<Statement>map(t -> new Statement.Describe(new Ident(t, pos), pos)).toList();
                long bytes = some.stream().mapToLong(t -> "DESCRIBE ;".length() + t.length()).sum();
                described.addAll(requests.run(principal, address, describes, bytes).results());
            }
            return described;
        }

        @Override
        public List<CatalogQueries.View> views() throws StatementRequests.Failed {
            List<CatalogQueries.View> readable = new ArrayList<>();
            for (ViewDef view : requests.views()) {
                // A read of no rows, for the caller: it answers the view's columns, or that the caller may not
                // read it. The name comes from the catalog and is quoted; the text holds nothing else.
                String read = "SELECT * FROM \"" + view.name().replace("\"", "\"\"") + "\" LIMIT 0";
                try {
                    StatementResult rows = requests.run(principal, address,
                            List.of(new StatementRequests.Call(read, List.of()))).results().get(0);
                    readable.add(new CatalogQueries.View(view.name(), view.query(),
                            ((StatementResult.Rows) rows).columns()));
                } catch (StatementRequests.Failed f) {
                    // Not readable by this caller (or no longer readable at all: a table it reads was dropped)
                    // is not listed; the service failing fails the listing.
                    ErrorCode.Category category = f.error.code().category();
                    if (category != ErrorCode.Category.FORBIDDEN && category != ErrorCode.Category.NOT_FOUND
                            && category != ErrorCode.Category.BAD_INPUT) {
                        throw f;
                    }
                }
            }
            return readable;
        }
    };

    private void parse(WireInput.Payload body) throws ProtocolException {
        String name = body.cstring();
        String sql = body.cstring();
        int[] types = new int[body.count(4)];
        for (int i = 0; i < types.length; i++) {
            types[i] = body.int32();
        }
        if (!name.isEmpty() && statements.containsKey(name)) {
            failed = PgError.error("42P05", "prepared statement \"" + name + "\" already exists");
            return;
        }
        Prepared prepared;
        if (isBlank(sql)) {
            prepared = new Prepared(sql, Placeholders.of(""), types, true, false, false);
        } else if (aborted && SessionStatements.endsTransaction(sql) || CatalogQueries.recognizes(sql)
                || SessionStatements.answer(sql, new HashMap<>(settings)).isPresent()) {
            prepared = new Prepared(sql, Placeholders.of(sql), types, false, true, false);
        } else {
            Placeholders placeholders = Placeholders.of(sql);
            try {
                var script = requests.parse(placeholders.text());
                if (script.statements().size() != 1) {
                    failed = PgError.error("42601", "cannot insert multiple commands into a prepared statement: "
                            + "send each statement in its own Parse (one Sync still makes them one request)");
                    return;
                }
                prepared = new Prepared(sql, placeholders, types, false, false,
                        script.statements().get(0).writes());
            } catch (VersoException e) {
                int position = e instanceof VersoException.UserError u && u.line() > 0
                        ? StatementRequests.offset(placeholders.text(), u.line(), u.column()) + 1 : 0;
                failed = PgError.of(e, position);
                return;
            }
        }
        statements.put(name, prepared);
        steps.add(() -> out.begin('1').end());
    }

    private void bind(WireInput.Payload body) throws ProtocolException {
        String portalName = body.cstring();
        String statementName = body.cstring();
        int[] paramFormats = new int[body.count(2)];
        for (int i = 0; i < paramFormats.length; i++) {
            paramFormats[i] = body.int16();
        }
        int count = body.count(4);
        List<byte[]> raw = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = body.int32();
            raw.add(length < 0 ? null : body.bytes(length));
        }
        int[] resultFormats = new int[body.count(2)];
        for (int i = 0; i < resultFormats.length; i++) {
            resultFormats[i] = body.int16();
        }
        Prepared prepared = statements.get(statementName);
        if (prepared == null) {
            failed = PgError.error("26000", "prepared statement \"" + statementName + "\" does not exist");
            return;
        }
        int needed = Math.max(prepared.placeholders().count(), prepared.types().length);
        if (count != needed) {
            failed = PgError.error("08P01", "bind message supplies " + count + " parameters, but prepared statement \""
                    + statementName + "\" requires " + needed);
            return;
        }
        List<Object> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int type = i < prepared.types().length ? prepared.types()[i] : PgTypes.UNSPECIFIED;
            values.add(PgTypes.parameter(raw.get(i), ResultMessages.format(paramFormats, i) == 1, type));
        }
        portals.put(portalName, new Portal(prepared, values, resultFormats));
        steps.add(() -> out.begin('2').end());
    }

    private void describe(WireInput.Payload body) throws ProtocolException {
        int kind = body.byte1();
        String name = body.cstring();
        if (kind == 'S') {
            Prepared prepared = statements.get(name);
            if (prepared == null) {
                failed = PgError.error("26000", "prepared statement \"" + name + "\" does not exist");
                return;
            }
            Portal probe = new Portal(prepared, Arrays.asList(new Object[prepared.placeholders().count()]), new int[0]);
            steps.add(new Step() {
                @Override
                public void write() throws IOException, StepFailed {
                    int count = Math.max(prepared.placeholders().count(), prepared.types().length);
                    out.begin('t').int16(count);
                    for (int i = 0; i < count; i++) {
                        int type = i < prepared.types().length ? prepared.types()[i] : PgTypes.UNSPECIFIED;
                        out.int32(type == PgTypes.UNSPECIFIED ? PgTypes.TEXT : type);
                    }
                    out.end();
                    Portal executed = calls.stream().filter(p -> p.prepared == prepared && p.result != null)
                            .findFirst().orElse(probe);
                    describeRows(executed);
                }

                @Override
                public boolean ofRequest() {
                    return calls.stream().anyMatch(p -> p.prepared == prepared);
                }
            });
        } else if (kind == 'P') {
            Portal portal = portals.get(name);
            if (portal == null) {
                failed = PgError.error("34000", "portal \"" + name + "\" does not exist");
                return;
            }
            steps.add(new Step() {
                @Override
                public void write() throws IOException, StepFailed {
                    describeRows(portal);
                }

                @Override
                public boolean ofRequest() {
                    return portal.queued;
                }
            });
        } else {
            throw new ProtocolException("Describe of '" + (char) kind + "': it describes 'S' or 'P'");
        }
    }

    /**
     * The RowDescription (or NoData) of a portal: from its result once executed; before that, a read is run
     * alone with its parameters (the dry run of a Describe with no Execute after it), a write has no rows.
     */
    private void describeRows(Portal portal) throws IOException, StepFailed {
        Prepared prepared = portal.prepared;
        if (portal.result == null && !prepared.empty() && (prepared.local() || !prepared.writes())) {
            try {
                portal.result = prepared.local() ? describedLocally(portal)
                        : requests.run(principal, address, List.of(call(portal))).results().get(0);
            } catch (StatementRequests.Failed f) {
                throw new StepFailed(f.pgError());
            } catch (IllegalArgumentException e) {
                throw new StepFailed(PgError.error("22023", e.getMessage()));
            }
        }
        if (portal.result instanceof StatementResult.Rows rows) {
            ResultMessages.rowDescription(out, rows.columns(), portal.formats);
        } else {
            out.begin('n').end();
        }
    }

    /** A local statement's result without its effect (a SET applied to a copy of the settings). */
    private StatementResult describedLocally(Portal portal) throws StatementRequests.Failed {
        String sql = portal.prepared.sql();
        Optional<StatementResult> session = SessionStatements.answer(sql, new HashMap<>(settings));
        return session.isPresent() ? session.get()
                : CatalogQueries.answer(sql, portal.values, catalog).orElse(null);
    }

    private void execute(WireInput.Payload body) throws ProtocolException {
        String name = body.cstring();
        int maxRows = body.int32();
        Portal portal = portals.get(name);
        if (portal == null) {
            failed = PgError.error("34000", "portal \"" + name + "\" does not exist");
            return;
        }
        if (portal.prepared.empty()) {
            steps.add(() -> out.begin('I').end());
            return;
        }
        if (aborted) {
            if (!SessionStatements.endsTransaction(portal.prepared.sql())) {
                failed = abortedError();
                return;
            }
            aborted = false;
            steps.add(() -> ResultMessages.complete(out, "ROLLBACK"));
            return;
        }
        if (portal.result == null && !portal.queued) {
            if (portal.prepared.local()) {
                portal.result = localAnswer(portal.prepared.sql(), portal.values).orElse(null);
                if (failed != null) {
                    return;
                }
            } else {
                portal.queued = true;
                calls.add(portal);
            }
        }
        boolean ofRequest = portal.queued;
        steps.add(new Step() {
            @Override
            public void write() throws IOException {
                writeRows(portal, maxRows);
            }

            @Override
            public boolean ofRequest() {
                return ofRequest;
            }
        });
    }

    private void close(WireInput.Payload body) throws ProtocolException {
        int kind = body.byte1();
        String name = body.cstring();
        if (kind == 'S') {
            statements.remove(name);
        } else if (kind == 'P') {
            portals.remove(name);
        } else {
            throw new ProtocolException("Close of '" + (char) kind + "': it closes 'S' or 'P'");
        }
        steps.add(() -> out.begin('3').end());
    }

    /** Sends the answers that do not wait for the Sync's request. */
    private void flush() throws IOException {
        int sent = 0;
        try {
            for (Step step : steps) {
                if (step.ofRequest()) {
                    break;
                }
                step.write();
                sent++;
            }
        } catch (StepFailed e) {
            failed = e.error;
            sent++;
        }
        steps.subList(0, sent).clear();
        out.flush();
    }

    /** Runs the request of the messages since the last Sync and sends their answers; false as {@link #query}. */
    private boolean sync() throws IOException {
        if (failed == null && !calls.isEmpty()) {
            try {
                ExecutionResult result = requests.run(principal, address, calls.stream().map(PgConnection::call).toList());
                for (int i = 0; i < calls.size(); i++) {
                    calls.get(i).result = result.results().get(i);
                }
                executed = result;
            } catch (StatementRequests.Failed f) {
                aborted = f.error.code() == ErrorCode.TRANSACTION_NOT_ENDED;
                failed = f.pgError();
            }
        }
        ExecutionResult ran = executed;
        executed = null;
        try {
            for (Step step : steps) {
                if (failed != null && step.ofRequest()) {
                    break;
                }
                step.write();
            }
        } catch (StepFailed e) {
            failed = e.error;
        }
        if (failed != null) {
            failed.write(out);
        } else if (ran != null) {
            lastCommit(ran);
        }
        steps.clear();
        for (Portal portal : calls) {
            portal.queued = false;
        }
        calls.clear();
        portals.remove(""); // the unnamed portal ends with its request
        failed = null;
        ready();
        return true;
    }

    private static StatementRequests.Call call(Portal portal) {
        return new StatementRequests.Call(portal.prepared.placeholders().text(),
                portal.prepared.placeholders().bind(portal.values));
    }

    // ---- Results ----------------------------------------------------------------------------------

    private void writeWhole(StatementResult result, int[] formats) throws IOException {
        if (result instanceof StatementResult.Rows rows) {
            ResultMessages.rowDescription(out, rows.columns(), formats);
            ResultMessages.dataRows(out, rows, 0, rows.rows().size(), formats);
            ResultMessages.complete(out, ResultMessages.tag(rows, rows.rows().size()));
        } else {
            ResultMessages.complete(out, ResultMessages.tag(result, 0));
        }
    }

    /** Up to {@code maxRows} (0: all) more rows of a portal, then PortalSuspended or CommandComplete. */
    private void writeRows(Portal portal, int maxRows) throws IOException {
        if (!(portal.result instanceof StatementResult.Rows rows)) {
            ResultMessages.complete(out, ResultMessages.tag(portal.result, 0));
            return;
        }
        int total = rows.rows().size();
        int end = maxRows > 0 ? (int) Math.min(total, (long) portal.sent + maxRows) : total;
        ResultMessages.dataRows(out, rows, portal.sent, end, portal.formats);
        int sent = end - portal.sent;
        portal.sent = end;
        if (maxRows > 0 && sent == maxRows) {
            out.begin('s').end(); // as PostgreSQL: suspended at the limit, even when no row is left
        } else if (end < total) {
            out.begin('s').end();
        } else {
            ResultMessages.complete(out, ResultMessages.tag(rows, sent));
        }
    }

    /**
     * {@code verso.last_commit}: the commit the request made, else the commit its last read was served at,
     * else the latest commit it saw; a client pins a later read with {@code AS OF COMMIT} that value.
     */
    private void lastCommit(ExecutionResult result) throws IOException {
        Long commit = result.commit();
        for (int i = result.results().size() - 1; commit == null && i >= 0; i--) {
            if (result.results().get(i) instanceof StatementResult.Rows rows && rows.asOfCommit() != null) {
                commit = rows.asOfCommit();
            }
        }
        String value = Long.toString(commit != null ? commit : result.readCommit());
        settings.put(SessionStatements.LAST_COMMIT, value);
        parameterStatus(SessionStatements.LAST_COMMIT, value);
    }

    private void parameterStatus(String name, String value) throws IOException {
        out.begin('S').cstring(name).cstring(value).end();
    }

    private void ready() throws IOException {
        out.begin('Z').byte1(aborted ? 'E' : 'I').end();
        out.flush();
    }

    private static PgError abortedError() {
        return PgError.error("25P02", "current transaction is aborted, commands ignored until end of transaction "
                + "block: a transaction must begin and end within one Query message or one Sync; send ROLLBACK");
    }

    private void fatal(PgError error) throws IOException {
        error.write(out);
        out.flush();
    }

    private void fatalQuietly(PgError error) {
        WireOutput to = out != null ? out : handshake.out();
        if (to == null) {
            return;
        }
        try {
            error.write(to);
            to.flush();
        } catch (IOException ignored) {
            // The client is gone already.
        }
    }

    /** Nothing but blanks, semicolons and comments. */
    private static boolean isBlank(String sql) {
        String rest = sql.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("--[^\\n]*", " ");
        return rest.replace(';', ' ').isBlank();
    }
}
