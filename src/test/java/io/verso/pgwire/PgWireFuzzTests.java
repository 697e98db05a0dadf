package io.verso.pgwire;

import static io.verso.pgwire.RawPgClient.cstring;
import static io.verso.pgwire.RawPgClient.int16;
import static io.verso.pgwire.RawPgClient.int32;
import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import io.verso.support.TestSecurity;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A fuzz test of the protocol decoder: conversations a real client would send (startup, password, simple and
 * extended queries, a catalog query, Close, Flush, Sync), mutated at random (bytes flipped, lengths made huge,
 * negative or short, unknown message types, truncation, garbage after the startup packet, pieces repeated),
 * each sent on its own connection whose output is then shut (a half-open connection). Each must end with the
 * server closing it, every message it sent well framed, no internal error (XX000) among them; afterwards a
 * normal client is served. The seed is printed; {@code -Dverso.pgwire.fuzz.seed=N} replays a run.
 */
class PgWireFuzzTests extends IntegrationTest {

    private static final int CONVERSATIONS = 120;

    @Autowired
    PgWireServer server;

    @Test
    void mutatedConversationsGetAnErrorOrACloseAndTheServerGoesOnServing() throws Exception {
        long seed = Long.getLong("verso.pgwire.fuzz.seed", new Random().nextLong());
        System.out.println("PgWireFuzzTests seed: " + seed + " (replay with -Dverso.pgwire.fuzz.seed=" + seed + ")");
        Random random = new Random(seed);
        for (int i = 0; i < CONVERSATIONS; i++) {
            byte[] startup = startup();
            byte[] rest = conversation(random);
            String what;
            byte[] sent;
            if (random.nextInt(4) == 0) {
                byte[] mutated = mutate(random, concat(startup, rest));
                what = "startup mutated";
                sent = mutated;
            } else {
                what = "messages mutated";
                sent = concat(startup, mutate(random, rest));
            }
            List<RawPgClient.Reply> replies = exchange(sent);
            String context = "seed " + seed + ", conversation " + i + " (" + what + ")";
            for (RawPgClient.Reply r : replies) {
                if (r.type() == 'E') {
                    assertThat(r.field('C')).as(context + ": " + r.field('M')).isNotEqualTo("XX000");
                }
            }
        }
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/verso",
                "anyone", TestSecurity.ADMIN_KEY); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT 1 + 1")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(2);
        }
    }

    /**
     * Sends {@code bytes}, shuts the output, and reads what the server sends until it closes the connection:
     * each message well framed (a type and a length of at least 4), the close within the socket timeout.
     */
    private List<RawPgClient.Reply> exchange(byte[] bytes) throws IOException {
        List<RawPgClient.Reply> replies = new ArrayList<>();
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(30_000);
            try {
                socket.getOutputStream().write(bytes);
                socket.getOutputStream().flush();
                socket.shutdownOutput();
            } catch (SocketException e) {
                // The server closed the connection before it had read everything: the answer to a hostile client.
            }
            DataInputStream in = new DataInputStream(socket.getInputStream());
            boolean first = true;
            while (true) {
                int type;
                try {
                    type = in.read();
                } catch (SocketException e) {
                    return replies; // reset by the server after it closed
                }
                if (type < 0) {
                    return replies;
                }
                if (first && type == 'N' && bytes.length >= 8 && (Arrays.equals(Arrays.copyOfRange(bytes, 4, 8),
                        int32(80_877_103)) || Arrays.equals(Arrays.copyOfRange(bytes, 4, 8), int32(80_877_104)))) {
                    // A mutated startup that became an SSL or GSSENC request is answered with one byte.
                    first = false;
                    continue;
                }
                first = false;
                int length;
                byte[] body;
                try {
                    length = in.readInt();
                    assertThat(length).as("length of a '%s' message", (char) type).isBetween(4, 1 << 24);
                    body = new byte[length - 4];
                    in.readFully(body);
                } catch (EOFException | SocketException e) {
                    throw new AssertionError("a '" + (char) type + "' message cut short by the close", e);
                }
                replies.add(new RawPgClient.Reply((char) type, body));
            }
        }
    }

    private static byte[] startup() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(int32(196_608));
        b.writeBytes(cstring("user"));
        b.writeBytes(cstring("fuzz"));
        b.writeBytes(cstring("database"));
        b.writeBytes(cstring("verso"));
        b.write(0);
        return concat(int32(b.size() + 4), b.toByteArray(), message('p', cstring(TestSecurity.ADMIN_KEY)));
    }

    /** A few of the messages a client sends after it is in, in an order one might. */
    private static byte[] conversation(Random random) {
        List<byte[]> messages = new ArrayList<>();
        int count = 1 + random.nextInt(6);
        for (int i = 0; i < count; i++) {
            switch (random.nextInt(6)) {
                case 0 -> messages.add(message('Q', cstring("SELECT 1")));
                case 1 -> messages.add(message('Q', cstring("SELECT upper(schema_name) AS s FROM "
                        + "information_schema.schemata WHERE schema_name LIKE 'p%' OR schema_name IN ('x', 'y') "
                        + "ORDER BY 1 DESC LIMIT 3")));
                case 2 -> {
                    // A catalog query that reads no table: the shared database holds many, each listed would
                    // make a conversation slow.
                    messages.add(message('P', cstring("s" + i), cstring("SELECT schema_name, catalog_name FROM "
                            + "information_schema.schemata WHERE schema_name = $1"), int16(1), int32(PgTypes.TEXT)));
                    messages.add(message('B', cstring(""), cstring("s" + i), int16(0), int16(1), int32(6),
                            "public".getBytes(StandardCharsets.UTF_8), int16(0)));
                    messages.add(message('D', new byte[] {'P'}, cstring("")));
                    messages.add(message('E', cstring(""), int32(0)));
                    messages.add(message('S'));
                }
                case 3 -> {
                    messages.add(message('P', cstring(""), cstring("SELECT $1::int + 1"), int16(0)));
                    messages.add(message('B', cstring(""), cstring(""), int16(1), int16(1), int16(1), int32(4),
                            int32(41), int16(1), int16(1)));
                    messages.add(message('E', cstring(""), int32(1)));
                    messages.add(message('H'));
                    messages.add(message('C', new byte[] {'S'}, cstring("")));
                    messages.add(message('S'));
                }
                case 4 -> messages.add(message('Q', cstring("SET application_name = 'fuzz'; SHOW application_name")));
                default -> messages.add(message('S'));
            }
        }
        if (random.nextBoolean()) {
            messages.add(message('X'));
        }
        return concat(messages.toArray(new byte[0][]));
    }

    /** One to three random changes of the kinds a broken or hostile client makes. */
    private static byte[] mutate(Random random, byte[] bytes) {
        byte[] b = bytes;
        int changes = 1 + random.nextInt(3);
        for (int c = 0; c < changes && b.length > 0; c++) {
            int at = random.nextInt(b.length);
            switch (random.nextInt(7)) {
                case 0 -> b[at] = (byte) random.nextInt(256);
                case 1 -> b = Arrays.copyOf(b, at); // truncated
                case 2 -> { // a length made huge, negative, zero or short
                    int[] lengths = {Integer.MAX_VALUE, 1 << 30, 16 << 20, -1, 0, 3, random.nextInt(64)};
                    b = splice(b, Math.min(at, b.length - 4 < 0 ? 0 : b.length - 4),
                            int32(lengths[random.nextInt(lengths.length)]), 4);
                }
                case 3 -> { // an unknown message type, framed
                    byte[] unknown = message("abgjkmnqrtuvwyz0!".charAt(random.nextInt(17)), new byte[random.nextInt(9)]);
                    b = splice(b, at, unknown, 0);
                }
                case 4 -> { // garbage inserted
                    byte[] junk = new byte[1 + random.nextInt(64)];
                    random.nextBytes(junk);
                    b = splice(b, at, junk, 0);
                }
                case 5 -> { // a piece repeated
                    int length = Math.min(b.length - at, 1 + random.nextInt(32));
                    b = splice(b, at, Arrays.copyOfRange(b, at, at + length), 0);
                }
                default -> { // a NUL terminator removed or added
                    b = splice(b, at, new byte[] {0}, random.nextBoolean() ? 1 : 0);
                }
            }
        }
        return b;
    }

    /** {@code b} with {@code replaced} bytes at {@code at} replaced by {@code with}. */
    private static byte[] splice(byte[] b, int at, byte[] with, int replaced) {
        int end = Math.min(b.length, at + replaced);
        return concat(Arrays.copyOfRange(b, 0, at), with, Arrays.copyOfRange(b, end, b.length));
    }

    private static byte[] message(char type, byte[]... parts) {
        byte[] body = concat(parts);
        return concat(new byte[] {(byte) type}, int32(body.length + 4), body);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            b.writeBytes(part);
        }
        return b.toByteArray();
    }
}
