package dev.mailrun.bench;

import static dev.mailrun.testing.ProxySockets.acceptLoop;
import static dev.mailrun.testing.ProxySockets.closeQuietly;
import static dev.mailrun.testing.ProxySockets.copy;
import static dev.mailrun.testing.ProxySockets.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;

/**
 * A TCP proxy in front of an SMTP server that passes bytes both ways at once and records, on the
 * relay's side of the wire, when each {@code MAIL FROM} command arrives: the moment a relay counts
 * a message against its rate. Client lines inside DATA are not commands and are skipped. Two
 * threads per connection.
 *
 * <p>{@link #main} runs it as a process of its own, as a relay is: inside the sending JVM a
 * garbage-collection pause stops the recorder too, and the messages that reached its socket during
 * the pause are all stamped at its end, bunched closer than they arrived. Times are
 * {@link System#nanoTime()}, which on Linux reads the machine's monotonic clock, so the two
 * processes' times compare.
 */
final class MailFromRecorder implements AutoCloseable, ArrivalRecorder {

    private final ServerSocket server;
    private final int upstreamPort;
    private final long[] times;
    private int count;

    MailFromRecorder(int upstreamPort, int capacity) throws IOException {
        this.upstreamPort = upstreamPort;
        this.times = new long[capacity];
        this.server = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        daemon("mail-from-accept", () -> acceptLoop(server, upstreamPort, this::connected)).start();
    }

    @Override
    public int port() {
        return server.getLocalPort();
    }

    /** Arrival times (System.nanoTime) of MAIL FROM commands so far, sorted; clears the record. */
    @Override
    public synchronized long[] takeTimes() {
        long[] sorted = Arrays.copyOf(times, count);
        Arrays.sort(sorted);
        count = 0;
        return sorted;
    }

    private synchronized void record(long now) {
        if (count < times.length) {
            times[count++] = now;
        }
    }

    private void connected(Socket client, Socket upstream) {
        daemon("mail-from-up", () -> commands(client, upstream)).start();
        daemon("mail-from-down", () -> copy(upstream, client)).start();
    }

    /** Client to relay: forwards each read at once, then looks for MAIL FROM at line starts. */
    private void commands(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        StringBuilder line = new StringBuilder();
        boolean inData = false;
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                long now = System.nanoTime();
                out.write(buffer, 0, n);
                out.flush();
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    if (b != '\n') {
                        if (line.length() < 16) {
                            line.append((char) (b & 0xff));
                        }
                        continue;
                    }
                    String start = line.toString().toUpperCase(java.util.Locale.ROOT);
                    line.setLength(0);
                    if (inData) {
                        inData = !start.equals(".\r") && !start.equals(".");
                    } else if (start.startsWith("MAIL FROM:")) {
                        record(now);
                    } else if (start.startsWith("DATA")) {
                        inData = true;
                    }
                }
            }
        } catch (IOException e) {
            // either side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    /**
     * As a process of its own: {@code UPSTREAM_PORT CAPACITY}. Prints {@code port N} once listening;
     * each line {@code take} on standard input prints the times so far, one per line, then {@code end}.
     */
    public static void main(String[] args) throws Exception {
        try (MailFromRecorder recorder = new MailFromRecorder(Integer.parseInt(args[0]), Integer.parseInt(args[1]));
             java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                     java.nio.charset.StandardCharsets.US_ASCII))) {
            java.io.PrintStream out = new java.io.PrintStream(new java.io.BufferedOutputStream(System.out), false,
                    java.nio.charset.StandardCharsets.US_ASCII);
            out.println("port " + recorder.port());
            out.flush();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.equals("take")) {
                    for (long t : recorder.takeTimes()) {
                        out.println(t);
                    }
                    out.println("end");
                    out.flush();
                }
            }
        }
    }
}
