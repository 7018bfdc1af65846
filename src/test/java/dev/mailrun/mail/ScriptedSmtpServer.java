package dev.mailrun.mail;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A small SMTP server for fault tests: replies are scripted per command, and a reply can also drop
 * the connection, never come, or come late. Listens on an ephemeral loopback port.
 *
 * <pre>{@code
 * try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
 *         .on("RCPT", cmd -> cmd.argument().contains("gone@") ? Reply.of(550, "5.1.1 no such user") : Reply.ok())
 *         .onMessage(cmd -> cmd.messageInConnection() == 1 ? Reply.of(421, "4.3.2 shutting down").thenDrop() : Reply.ok())
 *         .start()) {
 *     // connect to localhost:server.port()
 *     assertThat(server.messages()).hasSize(2);
 * }
 * }</pre>
 *
 * <p>Defaults: greeting {@code 220}; EHLO lists {@link Builder#extensions}; MAIL, RCPT, RSET, NOOP
 * get {@code 250}; DATA gets {@code 354}, then the message is read to the lone dot and answered by
 * the {@code onMessage} script ({@code 250} by default); QUIT gets {@code 221} and closes; AUTH
 * PLAIN (with or without an initial response) is answered by the script for {@code "AUTH"}
 * ({@code 235} by default); BDAT chunks (RFC 3030, when {@code CHUNKING} is among the extensions)
 * are read by size, each answered {@code 250}, the LAST one by the {@code onMessage} script; any
 * other command gets {@code 502}.
 *
 * <p>A script sees a {@link Command}: verb, argument, which connection (1-based, in accept order)
 * and which message on that connection (1-based, counting DATA commands and BDAT sequences) it belongs to. Every line
 * received is recorded per connection ({@link #transcripts()}), and the content of every message
 * answered with 2xx is kept ({@link #messages()}).
 */
public final class ScriptedSmtpServer implements AutoCloseable {

    /** One client command as the script sees it. */
    public record Command(String verb, String argument, int connection, int messageInConnection) {
    }

    /** What the server does in answer to a command. */
    public record Reply(int code, String text, Duration delay, Action action) {

        public enum Action {
            /** Write the reply and carry on. */
            ANSWER,
            /** Write the reply, then close the connection (as a server does after 421). */
            ANSWER_THEN_DROP,
            /** Close the connection without a word. */
            DROP,
            /** Never answer; keep the connection open until the client gives up. */
            SILENCE,
            /** Write the reply, then stop reading: a client's writes fill the socket's buffers and block. */
            ANSWER_THEN_STALL
        }

        public Reply {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(action, "action");
        }

        public static Reply of(int code, String text) {
            return new Reply(code, text, Duration.ZERO, Action.ANSWER);
        }

        public static Reply ok() {
            return of(250, "2.0.0 OK");
        }

        public static Reply drop() {
            return new Reply(0, "", Duration.ZERO, Action.DROP);
        }

        public static Reply silence() {
            return new Reply(0, "", Duration.ZERO, Action.SILENCE);
        }

        /** This reply, then the connection is closed. */
        public Reply thenDrop() {
            return new Reply(code, text, delay, Action.ANSWER_THEN_DROP);
        }

        /** This reply, then nothing more is read from the connection until the server closes. */
        public Reply thenStall() {
            return new Reply(code, text, delay, Action.ANSWER_THEN_STALL);
        }

        /** This reply, written after {@code wait}: a slow server. */
        public Reply after(Duration wait) {
            return new Reply(code, text, wait, action);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Configures the scripts; every script not given keeps its default. */
    public static final class Builder {
        private final Map<String, Function<Command, Reply>> scripts = new HashMap<>();
        private Function<Command, Reply> greeting = cmd -> Reply.of(220, "scripted ESMTP ready");
        private Function<Command, Reply> message = cmd -> Reply.of(250, "2.0.0 queued");
        private List<String> extensions = List.of("PIPELINING", "8BITMIME", "AUTH PLAIN");
        private int port;

        private Builder() {
        }

        /** The reply to a connection before any command (verb {@code "CONNECT"}). */
        public Builder greeting(Function<Command, Reply> script) {
            this.greeting = Objects.requireNonNull(script);
            return this;
        }

        /** The reply to a command verb such as MAIL, RCPT, DATA, EHLO, AUTH, RSET, NOOP, STARTTLS. */
        public Builder on(String verb, Function<Command, Reply> script) {
            scripts.put(verb.toUpperCase(Locale.ROOT), Objects.requireNonNull(script));
            return this;
        }

        /** The reply after the message content (verb {@code "MESSAGE"}, argument: the content). */
        public Builder onMessage(Function<Command, Reply> script) {
            this.message = Objects.requireNonNull(script);
            return this;
        }

        /** The EHLO extension lines, e.g. {@code "STARTTLS"}, {@code "AUTH PLAIN LOGIN"}. */
        public Builder extensions(String... lines) {
            this.extensions = List.of(lines);
            return this;
        }

        /** Listens on this loopback port instead of an ephemeral one (a relay that comes up where one was down). */
        public Builder port(int value) {
            this.port = value;
            return this;
        }

        public ScriptedSmtpServer start() {
            try {
                return new ScriptedSmtpServer(this);
            } catch (IOException e) {
                throw new IllegalStateException("cannot open a server socket", e);
            }
        }
    }

    private final Builder script;
    private final ServerSocket serverSocket;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "scripted-smtp");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<List<String>> transcripts = new CopyOnWriteArrayList<>();
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private final List<Integer> messageConnections = new CopyOnWriteArrayList<>();

    private ScriptedSmtpServer(Builder script) throws IOException {
        this.script = script;
        this.serverSocket = new ServerSocket();
        serverSocket.setReuseAddress(true);
        serverSocket.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), script.port), 50);
        threads.execute(this::acceptLoop);
    }

    public int port() {
        return serverSocket.getLocalPort();
    }

    /** Connections accepted so far. */
    public int connectionCount() {
        return transcripts.size();
    }

    /** Every line received, per connection, in accept order. */
    public List<List<String>> transcripts() {
        List<List<String>> copy = new ArrayList<>();
        transcripts.forEach(lines -> copy.add(List.copyOf(lines)));
        return copy;
    }

    /** The content of each message answered with 2xx, in the order accepted. */
    public List<String> messages() {
        return List.copyOf(messages);
    }

    /** For each accepted message, the (1-based) connection it came over. */
    public List<Integer> messageConnections() {
        return List.copyOf(messageConnections);
    }

    @Override
    public void close() {
        try {
            serverSocket.close();
        } catch (IOException e) {
            // closing anyway
        }
        sockets.forEach(ScriptedSmtpServer::closeQuietly);
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!serverSocket.isClosed()) {
            try {
                Socket socket = serverSocket.accept();
                // Each reply goes out at once, as a relay's answers to pipelined commands do: with
                // Nagle's algorithm the second reply would wait for the client's delayed ACK of the first.
                socket.setTcpNoDelay(true);
                sockets.add(socket);
                List<String> transcript = Collections.synchronizedList(new ArrayList<>());
                transcripts.add(transcript);
                int connection = transcripts.size();
                threads.execute(() -> converse(socket, connection, transcript));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void converse(Socket socket, int connection, List<String> transcript) {
        try (socket) {
            Lines in = new Lines(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            int message = 0;
            java.io.ByteArrayOutputStream chunks = null;
            // As a real relay: DATA without an accepted MAIL or RCPT is refused (RFC 5321 3.3, RFC 2920 3.1).
            boolean mailAccepted = false;
            int recipientsAccepted = 0;
            if (!answer(out, script.greeting.apply(new Command("CONNECT", "", connection, 0)), null)) {
                return;
            }
            String line;
            while ((line = in.readLine()) != null) {
                transcript.add(line);
                int space = line.indexOf(' ');
                String verb = (space < 0 ? line : line.substring(0, space)).toUpperCase(Locale.ROOT);
                String argument = space < 0 ? "" : line.substring(space + 1);
                if (verb.equals("DATA") || verb.equals("BDAT") && chunks == null) {
                    message++;
                }
                Command command = new Command(verb, argument, connection, message);
                Function<Command, Reply> custom = script.scripts.get(verb);
                boolean keepGoing = switch (verb) {
                    case "EHLO" -> answer(out, custom != null ? custom.apply(command) : null, script.extensions);
                    case "AUTH" -> {
                        if (argument.trim().indexOf(' ') < 0) {
                            write(out, "334 \r\n");
                            String response = in.readLine();
                            transcript.add(response);
                        }
                        yield answer(out, custom != null ? custom.apply(command) : Reply.of(235, "2.7.0 accepted"), null);
                    }
                    case "DATA" -> {
                        Reply reply = custom != null ? custom.apply(command)
                                : !mailAccepted ? Reply.of(503, "5.5.1 Error: need MAIL command")
                                : recipientsAccepted == 0 ? Reply.of(554, "5.5.1 Error: no valid recipients")
                                : Reply.of(354, "end with <CRLF>.<CRLF>");
                        mailAccepted = false;
                        recipientsAccepted = 0;
                        if (!answer(out, reply, null)) {
                            yield false;
                        }
                        if (reply.code() != 354) {
                            yield true;
                        }
                        String content = readContent(in);
                        if (content == null) {
                            yield false; // the client went away before the final dot: as a relay, nothing was received
                        }
                        Reply after = script.message.apply(new Command("MESSAGE", content, connection, message));
                        if (after.code() >= 200 && after.code() < 300 && after.action() != Reply.Action.DROP
                                && after.action() != Reply.Action.SILENCE) {
                            messages.add(content);
                            messageConnections.add(connection);
                        }
                        yield answer(out, after, null);
                    }
                    case "BDAT" -> {
                        // RFC 3030: "BDAT <size> [LAST]", then exactly <size> octets; every chunk is answered.
                        String[] parts = argument.trim().split("\\s+");
                        int size = Integer.parseInt(parts[0]);
                        boolean last = parts.length > 1 && parts[1].equalsIgnoreCase("LAST");
                        if (chunks == null) {
                            chunks = new java.io.ByteArrayOutputStream();
                        }
                        chunks.write(in.bytes(size));
                        if (!last) {
                            yield answer(out, Reply.of(250, "2.0.0 " + size + " octets received"), null);
                        }
                        String content = chunks.toString(StandardCharsets.UTF_8);
                        chunks = null;
                        Reply after = script.message.apply(new Command("MESSAGE", content, connection, message));
                        if (after.code() >= 200 && after.code() < 300 && after.action() != Reply.Action.DROP
                                && after.action() != Reply.Action.SILENCE) {
                            messages.add(content);
                            messageConnections.add(connection);
                        }
                        yield answer(out, after, null);
                    }
                    case "QUIT" -> {
                        answer(out, custom != null ? custom.apply(command) : Reply.of(221, "2.0.0 bye"), null);
                        yield false;
                    }
                    default -> {
                        Reply reply = custom != null ? custom.apply(command) : defaultReply(verb);
                        boolean accepted = reply.code() >= 200 && reply.code() < 300;
                        switch (verb) {
                            case "MAIL" -> {
                                mailAccepted = accepted;
                                recipientsAccepted = 0;
                            }
                            case "RCPT" -> recipientsAccepted += accepted && mailAccepted ? 1 : 0;
                            case "RSET", "HELO" -> {
                                mailAccepted = false;
                                recipientsAccepted = 0;
                            }
                            default -> { }
                        }
                        yield answer(out, reply, null);
                    }
                };
                if (!keepGoing) {
                    return;
                }
            }
        } catch (SocketException e) {
            // the client went away; that is part of many scripts
        } catch (IOException e) {
            // as above
        }
    }

    private static Reply defaultReply(String verb) {
        return switch (verb) {
            case "HELO", "MAIL", "RCPT", "RSET", "NOOP" -> Reply.ok();
            default -> Reply.of(502, "5.5.1 command not implemented");
        };
    }

    /** Writes the reply (for EHLO with extension lines); false when the connection must end. */
    private boolean answer(OutputStream out, Reply reply, List<String> ehloExtensions) throws IOException {
        if (reply == null) {
            reply = Reply.of(250, "scripted");
        }
        if (!reply.delay().isZero()) {
            try {
                Thread.sleep(reply.delay().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        switch (reply.action()) {
            case DROP:
                return false;
            case SILENCE:
                waitUntilClosed();
                return false;
            default:
                break;
        }
        StringBuilder text = new StringBuilder();
        if (ehloExtensions != null && reply.code() == 250) {
            text.append("250-").append(reply.text()).append("\r\n");
            for (int i = 0; i < ehloExtensions.size(); i++) {
                text.append(i == ehloExtensions.size() - 1 ? "250 " : "250-").append(ehloExtensions.get(i)).append("\r\n");
            }
            if (ehloExtensions.isEmpty()) {
                text.setLength(0);
                text.append("250 ").append(reply.text()).append("\r\n");
            }
        } else {
            text.append(reply.code()).append(' ').append(reply.text()).append("\r\n");
        }
        write(out, text.toString());
        if (reply.action() == Reply.Action.ANSWER_THEN_STALL) {
            waitUntilClosed();
            return false;
        }
        return reply.action() == Reply.Action.ANSWER;
    }

    /** Neither reads nor writes until {@link #close} interrupts the conversation's thread. */
    private static void waitUntilClosed() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /**
     * The client's side of the conversation as lines (CRLF-terminated, read as UTF-8) and, for BDAT,
     * as an exact number of octets: one byte stream, so that a chunk's bytes are never taken for
     * characters.
     */
    private static final class Lines {
        private final java.io.InputStream in;

        Lines(java.io.InputStream raw) {
            this.in = new java.io.BufferedInputStream(raw);
        }

        String readLine() throws IOException {
            java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                if (b == '\n') {
                    byte[] bytes = line.toByteArray();
                    int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                    return new String(bytes, 0, length, StandardCharsets.UTF_8);
                }
                line.write(b);
            }
            return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
        }

        byte[] bytes(int count) throws IOException {
            byte[] bytes = in.readNBytes(count);
            if (bytes.length < count) {
                throw new java.io.EOFException("the client sent " + bytes.length + " of " + count + " octets");
            }
            return bytes;
        }
    }

    private static String readContent(Lines in) throws IOException {
        StringBuilder content = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null && !line.equals(".")) {
            content.append(line.startsWith("..") ? line.substring(1) : line).append("\r\n");
        }
        return line == null ? null : content.toString();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
