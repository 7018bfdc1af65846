package dev.mailrun.mail.smtp;

import static dev.mailrun.mail.smtp.TestMail.items;
import static dev.mailrun.mail.smtp.TestMail.send;
import static dev.mailrun.mail.smtp.TestMail.settings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.ScriptedSmtpServer.Command;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** A message's envelope written in one round trip (RFC 2920) to relays that offer it, over sockets. */
class SmtpPipeliningTest {

    /**
     * A relay that answers nothing of a message's envelope until MAIL, RCPT and DATA have all
     * arrived: a client that waits for each reply before the next command gets no reply at all and
     * times out, so every message sent here went in one round trip.
     */
    @Test
    void the_envelope_goes_in_one_round_trip_to_a_relay_that_offers_pipelining() throws Exception {
        try (EnvelopeAtOnceRelay relay = new EnvelopeAtOnceRelay()) {
            SmtpSettings settings = settings(relay.port()).withConnections(1)
                    .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(2));

            List<SendResult> results = send(settings, items(3));

            assertThat(results).allMatch(r -> r instanceof SendResult.Sent);
            assertThat(relay.messages).hasSize(3);
            assertThat(relay.connections).isEqualTo(1);
        }
    }

    /**
     * A relay that does not offer PIPELINING and refuses a command that arrives before its reply to
     * the one before went out: one command at a time is what it gets.
     */
    @Test
    void a_relay_without_pipelining_gets_one_command_at_a_time() throws Exception {
        try (EnvelopeAtOnceRelay relay = new EnvelopeAtOnceRelay(false)) {
            List<SendResult> results = send(settings(relay.port()).withConnections(1), items(2));

            assertThat(results).allMatch(r -> r instanceof SendResult.Sent);
            assertThat(relay.messages).hasSize(2);
        }
    }

    /**
     * Every refusal reads as it does one command at a time, and the connection stays in step: the
     * next message goes on the same connection.
     */
    @Test
    void refusals_read_the_same_with_and_without_pipelining() {
        for (String name : List.of("MAIL 452", "MAIL 550", "RCPT 550", "RCPT 450", "DATA 554")) {
            List<List<SendResult>> outcomes = new ArrayList<>();
            for (List<String> extensions : List.of(List.of("8BITMIME"), List.of("PIPELINING", "8BITMIME"))) {
                try (ScriptedSmtpServer server = refusing(name, ScriptedSmtpServer.builder()
                        .extensions(extensions.toArray(String[]::new))).start()) {
                    List<SendResult> results = send(settings(server.port()).withConnections(1), items(2));

                    assertThat(results.get(0)).as(name + " " + extensions).isNotInstanceOf(SendResult.Sent.class);
                    assertThat(results.get(1)).as(name + " " + extensions).isInstanceOf(SendResult.Sent.class);
                    assertThat(server.connectionCount()).as(name + " " + extensions).isEqualTo(1);
                    assertThat(server.messages()).as(name + " " + extensions).hasSize(1);
                    outcomes.add(results);
                }
            }
            assertThat(outcomes.get(1)).as(name).isEqualTo(outcomes.get(0));
        }
    }

    /**
     * A relay that refuses MAIL FROM and closes the session with the RCPT and DATA written ahead still
     * unread: the refusal is reported as given, and the next message goes on a new session instead of
     * into the closed one.
     */
    @Test
    void a_relay_that_closes_after_refusing_mail_from_leaves_the_next_message_a_new_session() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("MAIL", cmd -> cmd.connection() == 1 ? Reply.of(554, "5.7.1 go away").thenDrop() : Reply.ok())
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(1), items(2));

            assertThat(results.get(0)).isInstanceOf(SendResult.Permanent.class);
            assertThat(((SendResult.Permanent) results.get(0)).code()).isEqualTo(554);
            assertThat(results.get(1)).isInstanceOf(SendResult.Sent.class);
            assertThat(server.connectionCount()).isEqualTo(2);
            assertThat(server.messages()).hasSize(1);
        }
    }

    /** A relay refusing the first message at {@code name}'s command with its code. */
    private static ScriptedSmtpServer.Builder refusing(String name, ScriptedSmtpServer.Builder builder) {
        AtomicBoolean refused = new AtomicBoolean();
        Function<Reply, Function<Command, Reply>> once = refusal -> cmd -> refused.compareAndSet(false, true) ? refusal : Reply.ok();
        return switch (name) {
            case "MAIL 452" -> builder.on("MAIL", once.apply(Reply.of(452, "4.3.1 insufficient system storage")));
            case "MAIL 550" -> builder.on("MAIL", once.apply(Reply.of(550, "5.7.1 sender refused")));
            case "RCPT 550" -> builder.on("RCPT", once.apply(Reply.of(550, "5.1.1 <user1@example.org>: no such user")));
            case "RCPT 450" -> builder.on("RCPT", once.apply(Reply.of(450, "4.2.1 mailbox busy, try again in 5 minutes")));
            case "DATA 554" -> builder.on("DATA", cmd -> refused.compareAndSet(false, true)
                    ? Reply.of(554, "5.3.4 message refused") : Reply.of(354, "go ahead"));
            default -> throw new IllegalArgumentException(name);
        };
    }

    /**
     * RFC 2920 has a relay refuse DATA when it refused every recipient; one that accepts it anyway
     * would take the client's next command as the message. The connection is dropped before a final
     * dot instead: nothing is delivered, the refusal still reads as the relay gave it, and the next
     * message goes on a new connection.
     */
    @Test
    void a_relay_that_accepts_data_after_refusing_the_recipient_delivers_nothing() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> cmd.argument().contains("user1@")
                        ? Reply.of(550, "5.1.1 <user1@example.org>: no such user") : Reply.ok())
                .on("DATA", cmd -> Reply.of(354, "go ahead"))
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(1), items(2));

            assertThat(results.get(0)).isEqualTo(new SendResult.Permanent(1, 550,
                    "5.1.1 <user1@example.org>: no such user", true));
            assertThat(results.get(1)).isInstanceOf(SendResult.Sent.class);
            assertThat(server.messages()).hasSize(1).allMatch(m -> m.contains("user2@example.org"));
            assertThat(server.connectionCount()).isEqualTo(2);
            assertThat(server.transcripts().get(0)).doesNotContain("RSET");
        }
    }

    /**
     * A strict relay. Offering PIPELINING, it reads a message's whole envelope before it answers any
     * of it; not offering it, it refuses a command that came before its reply to the one before (it
     * looks 50 ms after reading each: a client writing ahead has written by then).
     */
    private static final class EnvelopeAtOnceRelay implements AutoCloseable {
        private final ServerSocket server;
        private final boolean pipelining;
        final List<String> messages = new CopyOnWriteArrayList<>();
        volatile int connections;

        EnvelopeAtOnceRelay() throws IOException {
            this(true);
        }

        EnvelopeAtOnceRelay(boolean pipelining) throws IOException {
            this.pipelining = pipelining;
            server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
            Thread accept = new Thread(this::serve, "envelope-at-once");
            accept.setDaemon(true);
            accept.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void serve() {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    connections++;
                    socket.setTcpNoDelay(true);
                    converse(socket);
                } catch (IOException e) {
                    // the client went away, or the relay is closing
                }
            }
        }

        private void converse(Socket socket) throws IOException {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            OutputStream out = socket.getOutputStream();
            write(out, "220 at-once ESMTP\r\n");
            List<String> envelope = new ArrayList<>();
            String line;
            while ((line = in.readLine()) != null) {
                String verb = line.length() >= 4 ? line.substring(0, 4).toUpperCase(java.util.Locale.ROOT) : line;
                switch (verb) {
                    case "EHLO" -> write(out, pipelining ? "250-at-once\r\n250-PIPELINING\r\n250 8BITMIME\r\n"
                            : "250-at-once\r\n250 8BITMIME\r\n");
                    case "MAIL", "RCPT" -> {
                        if (pipelining) {
                            envelope.add(verb);
                        } else if (aheadOfReply(in)) {
                            write(out, "503 5.5.0 " + verb + " came before its reply: PIPELINING was not offered\r\n");
                            return;
                        } else {
                            write(out, "250 ok\r\n");
                        }
                    }
                    case "DATA" -> {
                        if (pipelining && !envelope.equals(List.of("MAIL", "RCPT"))) {
                            write(out, "503 5.5.1 out of sequence\r\n");
                            return;
                        }
                        if (!pipelining && aheadOfReply(in)) {
                            write(out, "503 5.5.0 DATA came before its reply: PIPELINING was not offered\r\n");
                            return;
                        }
                        envelope.clear();
                        write(out, pipelining ? "250 2.1.0 ok\r\n250 2.1.5 ok\r\n354 go ahead\r\n" : "354 go ahead\r\n");
                        StringBuilder content = new StringBuilder();
                        while ((line = in.readLine()) != null && !line.equals(".")) {
                            content.append(line).append('\n');
                        }
                        if (line == null) {
                            return;
                        }
                        messages.add(content.toString());
                        write(out, "250 2.0.0 queued\r\n");
                    }
                    case "QUIT" -> {
                        write(out, "221 bye\r\n");
                        return;
                    }
                    default -> write(out, "250 ok\r\n");
                }
            }
        }

        private static boolean aheadOfReply(BufferedReader in) throws IOException {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return in.ready();
        }

        private static void write(OutputStream out, String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
