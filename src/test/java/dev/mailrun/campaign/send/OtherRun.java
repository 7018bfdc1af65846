package dev.mailrun.campaign.send;

import dev.mailrun.campaign.store.PaceTailTable;
import dev.mailrun.campaign.store.RelayShareTable;
import dev.mailrun.db.Transactions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Another worker's run, played by a test: it holds shares of paces ({@code relay_share} rows, as a
 * run renews them), sends messages itself over plain SMTP, and ends as a run does — leaving what it
 * sent in its last second ({@code pace_tail}) and releasing its rows in one transaction.
 */
final class OtherRun {

    private final DataSource ds;
    private final String token;

    OtherRun(DataSource ds, String token) {
        this.ds = ds;
        this.token = token;
    }

    String token() {
        return token;
    }

    /** Holds a share of each of {@code names}: runs joining them wait for its handover. */
    OtherRun holding(String... names) throws Exception {
        Transactions.inTransaction(ds, c -> new RelayShareTable().renewAll(c, List.of(names), token, Duration.ofMinutes(1)));
        return this;
    }

    /**
     * Sends one message to each of {@code recipients}, one after another on one connection, and hangs
     * up without a QUIT: a run's last message is followed at once by its end.
     */
    void send(int port, List<String> recipients) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
             BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))) {
            OutputStream out = socket.getOutputStream();
            reply(in, "220");
            command(out, in, "EHLO other.test", "250");
            for (String to : recipients) {
                command(out, in, "MAIL FROM:<other@sender.example>", "250");
                command(out, in, "RCPT TO:<" + to + ">", "250");
                command(out, in, "DATA", "354");
                command(out, in, "To: <" + to + ">\r\nSubject: the run before\r\n\r\nHello\r\n.", "250");
            }
        }
    }

    /**
     * Ends: leaves {@code sentAt} (System.nanoTime of each send to {@code name}) as its last second's
     * tail and releases its rows of {@code names}, in one transaction, as {@code RelayShare.release} does.
     */
    void end(String name, List<Long> sentAt, String... names) throws Exception {
        Transactions.inTransaction(ds, c -> {
            long now = System.nanoTime();
            long[] agesMillis = sentAt.stream().mapToLong(t -> (now - t) / 1_000_000L).toArray();
            new PaceTailTable().write(c, token, Map.of(name, agesMillis));
            new RelayShareTable().releaseAll(c, Arrays.asList(names), token);
            return null;
        });
    }

    /** Releases its rows of {@code names} without a tail: it sent nothing there. */
    void release(String... names) throws Exception {
        Transactions.inTransaction(ds, c -> {
            new RelayShareTable().releaseAll(c, Arrays.asList(names), token);
            return null;
        });
    }

    private static void command(OutputStream out, BufferedReader in, String line, String expected) throws IOException {
        out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        reply(in, expected);
    }

    /** Reads one reply, all its lines, and checks its code. */
    private static void reply(BufferedReader in, String expected) throws IOException {
        String line;
        do {
            line = in.readLine();
            if (line == null) {
                throw new IOException("the server closed the connection, expected " + expected);
            }
        } while (line.length() > 3 && line.charAt(3) == '-');
        if (!line.startsWith(expected)) {
            throw new IOException("expected " + expected + ", got " + line);
        }
    }
}
