package dev.mailrun.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.http.endpoint.PublicRoutes;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.StatusCounts;
import dev.mailrun.testing.TestDatabase;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad input at the endpoint, from a fixed seed (printed; {@code -Dmailrun.fault.seed=N} for another):
 * random bytes, random bytes behind a plausible request line, every kind of valid request cut off at a
 * random byte, and slow writers that send a request a few bytes at a time, some to the end and some
 * not. Complete valid POSTs go only to the first addresses, cut-off ones only to the others; afterwards
 * exactly the first addresses are suppressed, no recipient row changed, no answer was a 500, and the
 * server still answers.
 */
class HttpServerFuzzTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final long SEED = Long.getLong("mailrun.fault.seed", 20261121L);
    private static final int RECIPIENTS = 40;
    private static final int VALID = 10;
    private static final String ONE_CLICK = "List-Unsubscribe=One-Click";

    private final UnsubscribeTokens tokens = new UnsubscribeTokens(SigningKey.of("0123456789abcdef0123456789abcdef-fuzz"));

    @Test
    void random_bytes_truncated_requests_and_slow_writers_change_nothing_but_what_valid_requests_ask() throws Exception {
        System.out.println("[http-fuzz] seed=" + SEED);
        Random r = new Random(SEED);
        long campaign = insertCampaign();
        List<String> before = recipientRows();
        Unsubscriber unsubscriber = new Unsubscriber(db.dataSource(), new SuppressionTable(), SettableClock.at("2026-11-21T12:00:00Z"));
        Set<String> expected = new TreeSet<>();
        List<Integer> statuses = new ArrayList<>();
        List<String> warnings;

        try (HttpServer server = HttpServer.start(HttpSettings.of("127.0.0.1", 0, Duration.ofSeconds(2)),
                List.of(PublicRoutes.unsubscribe(tokens, unsubscriber, new PublicPage(PageLook.DEFAULTS), "en")));
             Warnings captured = new Warnings()) {
            int port = server.port();
            ExecutorService slowWriters = Executors.newFixedThreadPool(8);
            List<Future<Integer>> slow = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                int recipient = r.nextInt(RECIPIENTS);
                boolean valid = recipient < VALID;
                byte[] request = request(r.nextInt(5), campaign, recipient);
                switch (r.nextInt(6)) {
                    case 0 -> statuses.add(RawHttp.status(RawHttp.exchange(port, randomBytes(r, 600), 2_000)));
                    case 1 -> statuses.add(RawHttp.status(RawHttp.exchange(port, junkBehindARequestLine(r), 2_000)));
                    case 2 -> statuses.add(RawHttp.status(RawHttp.exchange(port,
                            Arrays.copyOf(request, r.nextInt(lastNeededByte(request) + 1)), 2_000)));
                    case 3 -> {
                        byte[] cut = Arrays.copyOf(request, valid ? request.length : r.nextInt(lastNeededByte(request) + 1));
                        long pieceSeed = r.nextLong();
                        slow.add(slowWriters.submit(() -> slowExchange(port, cut, new Random(pieceSeed))));
                        if (valid && isPost(request)) {
                            expected.add(address(recipient).toLowerCase());
                        }
                    }
                    default -> {
                        if (valid) {
                            int status = RawHttp.status(RawHttp.exchange(port, request, 2_000));
                            assertThat(status).as("seed %d: a complete valid request", SEED).isEqualTo(200);
                            if (isPost(request)) {
                                expected.add(address(recipient).toLowerCase());
                            }
                        } else {
                            statuses.add(RawHttp.status(RawHttp.exchange(port,
                                    Arrays.copyOf(request, lastNeededByte(request) - r.nextInt(3)), 2_000)));
                        }
                    }
                }
            }
            for (Future<Integer> f : slow) {
                statuses.add(f.get());
            }
            slowWriters.shutdown();

            String still = RawHttp.exchange(port, "GET /u/" + tokens.token(campaign, 1, address(1))
                    + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            assertThat(RawHttp.status(still)).as("seed %d: the server still answers", SEED).isEqualTo(200);
            warnings = captured.all();
        }

        System.out.println("[http-fuzz] answers by status: " + countByStatus(statuses) + ", warnings " + warnings.size());
        assertThat(statuses).as("seed %d: no request made the server fail", SEED).doesNotContain(500);
        assertThat(suppressed(campaign)).as("seed %d", SEED).isEqualTo(expected);
        assertThat(recipientRows()).as("seed %d: recipients", SEED).isEqualTo(before);
        assertThat(warnings).as("seed %d", SEED).isEmpty();
    }

    private static String address(int recipient) {
        return "R" + recipient + "@Fuzz.example";
    }

    /** GET, HEAD, and a one-click POST urlencoded, multipart or chunked. */
    private byte[] request(int kind, long campaign, int recipient) {
        String target = "/u/" + tokens.token(campaign, recipient + 1, address(recipient)) + " HTTP/1.1\r\nHost: localhost\r\n";
        String multipart = "--b1\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\nOne-Click\r\n--b1--\r\n";
        String text = switch (kind) {
            case 0 -> "GET " + target + "\r\n";
            case 1 -> "HEAD " + target + "\r\n";
            case 2 -> "POST " + target + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                    + ONE_CLICK.length() + "\r\n\r\n" + ONE_CLICK;
            case 3 -> "POST " + target + "Content-Type: multipart/form-data; boundary=b1\r\nContent-Length: "
                    + multipart.length() + "\r\n\r\n" + multipart;
            default -> "POST " + target + "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + Integer.toHexString(ONE_CLICK.length()) + "\r\n" + ONE_CLICK + "\r\n0\r\n\r\n";
        };
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Where the request's last needed byte is: the last byte of its head or body, for a chunked body
     * the last byte of its data. A cut at or before it leaves the request incomplete. (Jetty forgives
     * a chunked body whose data all arrived but whose final framing, {@code \r\n0\r\n\r\n}, was cut
     * off in places: the client did send the whole body, and such a cut may count as complete.)
     */
    private static int lastNeededByte(byte[] request) {
        String text = new String(request, StandardCharsets.US_ASCII);
        return text.contains("chunked") ? text.lastIndexOf("\r\n0\r\n\r\n") - 1 : request.length - 1;
    }

    private static boolean isPost(byte[] request) {
        return request[0] == 'P';
    }

    private static byte[] randomBytes(Random r, int max) {
        byte[] bytes = new byte[r.nextInt(max + 1)];
        r.nextBytes(bytes);
        return bytes;
    }

    /** A request line with a forged token, then random bytes: they reach the header parser and the handler. */
    private static byte[] junkBehindARequestLine(Random r) {
        String[] methods = {"GET", "POST", "HEAD", "PUT", "OPTIONS", "DELETE", "G\0T"};
        String line = methods[r.nextInt(methods.length)] + " /u/" + Long.toString(r.nextLong() & Long.MAX_VALUE, 36)
                + " HTTP/1.1\r\nHost: localhost\r\n";
        byte[] head = line.getBytes(StandardCharsets.ISO_8859_1);
        byte[] junk = randomBytes(r, 300);
        byte[] all = Arrays.copyOf(head, head.length + junk.length);
        System.arraycopy(junk, 0, all, head.length, junk.length);
        return all;
    }

    /** Writes the request 1-7 bytes at a time, 1-3 ms apart; returns the answer's status (0: none). */
    private static int slowExchange(int port, byte[] request, Random r) throws IOException, InterruptedException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(2_000);
            OutputStream out = s.getOutputStream();
            for (int at = 0; at < request.length; ) {
                int n = Math.min(request.length - at, 1 + r.nextInt(7));
                out.write(request, at, n);
                out.flush();
                at += n;
                Thread.sleep(1 + r.nextInt(3));
            }
            s.shutdownOutput();
            return RawHttp.status(RawHttp.readAll(s.getInputStream()));
        }
    }

    private static String countByStatus(List<Integer> statuses) {
        java.util.Map<Integer, Integer> counts = new java.util.TreeMap<>();
        statuses.forEach(s -> counts.merge(s, 1, Integer::sum));
        return counts.toString();
    }

    private static long insertCampaign() throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            long id;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO campaign (name, template, from_address, status,"
                    + " created_at, updated_at) VALUES ('Fuzz', 'welcome', 'news@sender.example', 'running',"
                    + " UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))", Statement.RETURN_GENERATED_KEYS)) {
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    id = keys.getLong(1);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO recipient (campaign_id, email, status, updated_at)"
                    + " VALUES (?, ?, 'pending', UTC_TIMESTAMP(3))")) {
                for (int i = 0; i < RECIPIENTS; i++) {
                    ps.setLong(1, id);
                    ps.setString(2, address(i));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            StatusCounts.inserted(c, id, RECIPIENTS);
            return id;
        }
    }

    private static List<String> recipientRows() throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, email, status, attempts, next_attempt_at, last_error, updated_at"
                     + " FROM recipient ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getLong(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getInt(4) + " "
                        + rs.getString(5) + " " + rs.getString(6) + " " + rs.getString(7));
            }
        }
        return rows;
    }

    private static Set<String> suppressed(long campaign) throws Exception {
        Set<String> addresses = new TreeSet<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT address, reason, source FROM suppression")) {
            while (rs.next()) {
                assertThat(rs.getString(2) + " " + rs.getString(3)).isEqualTo("unsubscribed unsubscribe:campaign=" + campaign);
                addresses.add(rs.getString(1));
            }
        }
        return addresses;
    }
}
