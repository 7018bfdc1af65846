package dev.mailrun.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-process SMTP server that answers 250 to everything and throws the data away: the fallback
 * sink when the system's fast sink is not installed. One thread per connection.
 */
public final class NullSmtpSink implements AutoCloseable {

    private static final byte[] GREETING = "220 sink ESMTP\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EHLO = "250-sink\r\n250 8BITMIME\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OK = "250 ok\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] GO_AHEAD = "354 go ahead\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BYE = "221 bye\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final AtomicLong messages = new AtomicLong();

    public NullSmtpSink() throws IOException {
        server = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "null-sink-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public long messages() {
        return messages.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread t = new Thread(() -> serve(socket), "null-sink-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            socket.setTcpNoDelay(true);
            LineReader lines = new LineReader(in);
            out.write(GREETING);
            out.flush();
            byte[] line;
            while ((line = lines.next()) != null) {
                String verb = verb(line);
                switch (verb) {
                    case "EHLO" -> out.write(EHLO);
                    case "DATA" -> {
                        out.write(GO_AHEAD);
                        out.flush();
                        byte[] data;
                        while ((data = lines.next()) != null && !(data.length == 1 && data[0] == '.')) {
                            // discard
                        }
                        messages.incrementAndGet();
                        out.write(OK);
                    }
                    case "QUIT" -> {
                        out.write(BYE);
                        out.flush();
                        return;
                    }
                    default -> out.write(OK);
                }
                out.flush();
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    private static String verb(byte[] line) {
        int n = Math.min(4, line.length);
        return new String(line, 0, n, StandardCharsets.US_ASCII).toUpperCase(java.util.Locale.ROOT);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    /** Lines without their CR LF, from a buffer refilled in large reads. */
    static final class LineReader {
        private final InputStream in;
        private final byte[] buffer = new byte[64 * 1024];
        private int start;
        private int end;

        LineReader(InputStream in) {
            this.in = in;
        }

        byte[] next() throws IOException {
            java.io.ByteArrayOutputStream partial = null;
            while (true) {
                for (int i = start; i < end; i++) {
                    if (buffer[i] == '\n') {
                        int stop = i > start && buffer[i - 1] == '\r' ? i - 1 : i;
                        byte[] line;
                        if (partial == null) {
                            line = java.util.Arrays.copyOfRange(buffer, start, stop);
                        } else {
                            partial.write(buffer, start, i - start);
                            byte[] all = partial.toByteArray();
                            int len = all.length > 0 && all[all.length - 1] == '\r' ? all.length - 1 : all.length;
                            line = java.util.Arrays.copyOf(all, len);
                        }
                        start = i + 1;
                        return line;
                    }
                }
                if (start < end) {
                    if (partial == null) {
                        partial = new java.io.ByteArrayOutputStream();
                    }
                    partial.write(buffer, start, end - start);
                }
                start = 0;
                end = in.read(buffer);
                if (end < 0) {
                    end = 0;
                    return null;
                }
            }
        }
    }
}
