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
import java.util.SplittableRandom;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy in front of an SMTP server that holds back every reply line from the server by a
 * delay — fixed, or drawn uniformly from {@code [min, max]} per line — before passing it on, as a
 * relay far away or under load would. Lines keep their order; client-to-server bytes pass at once.
 * Three threads per connection: client→server copy, server reader, delayed writer.
 */
public final class DelayProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int upstreamPort;
    private final long minNanos;
    private final long maxNanos;
    private final SplittableRandom seeds;

    public DelayProxy(int upstreamPort, long minMillis, long maxMillis, long seed) throws IOException {
        if (minMillis < 0 || maxMillis < minMillis) {
            throw new IllegalArgumentException("delay range must be 0 <= min <= max, got " + minMillis + ".." + maxMillis);
        }
        this.upstreamPort = upstreamPort;
        this.minNanos = TimeUnit.MILLISECONDS.toNanos(minMillis);
        this.maxNanos = TimeUnit.MILLISECONDS.toNanos(maxMillis);
        this.seeds = new SplittableRandom(seed);
        this.server = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        daemon("delay-proxy-accept", () -> acceptLoop(server, upstreamPort, this::connected)).start();
    }

    public static DelayProxy fixed(int upstreamPort, long millis) throws IOException {
        return new DelayProxy(upstreamPort, millis, millis, 1);
    }

    public int port() {
        return server.getLocalPort();
    }

    private void connected(Socket client, Socket upstream) {
        SplittableRandom random;
        synchronized (seeds) {
            random = seeds.split();
        }
        LinkedBlockingQueue<Line> queue = new LinkedBlockingQueue<>();
        daemon("delay-proxy-up", () -> copy(client, upstream)).start();
        daemon("delay-proxy-read", () -> readReplies(upstream, queue, random)).start();
        daemon("delay-proxy-write", () -> writeReplies(client, upstream, queue)).start();
    }

    private record Line(long dueNanos, byte[] bytes) {
        static final Line END = new Line(0, null);
    }

    private void readReplies(Socket upstream, LinkedBlockingQueue<Line> queue, SplittableRandom random) {
        byte[] buffer = new byte[16 * 1024];
        byte[] pending = new byte[0];
        long lastDue = 0;
        try (InputStream in = upstream.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                long now = System.nanoTime();
                byte[] data = concat(pending, buffer, n);
                int lineStart = 0;
                for (int i = 0; i < data.length; i++) {
                    if (data[i] == '\n') {
                        long delay = minNanos == maxNanos ? minNanos : random.nextLong(minNanos, maxNanos + 1);
                        long due = Math.max(now + delay, lastDue);
                        lastDue = due;
                        queue.add(new Line(due, Arrays.copyOfRange(data, lineStart, i + 1)));
                        lineStart = i + 1;
                    }
                }
                pending = Arrays.copyOfRange(data, lineStart, data.length);
            }
        } catch (IOException e) {
            // upstream closed
        } finally {
            queue.add(Line.END);
        }
    }

    private static void writeReplies(Socket client, Socket upstream, LinkedBlockingQueue<Line> queue) {
        try (OutputStream out = client.getOutputStream()) {
            while (true) {
                Line line = queue.take();
                if (line == Line.END) {
                    return;
                }
                for (long left = line.dueNanos() - System.nanoTime(); left > 0; left = line.dueNanos() - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
                out.write(line.bytes());
                out.flush();
            }
        } catch (IOException e) {
            // client closed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    private static byte[] concat(byte[] head, byte[] buffer, int n) {
        byte[] all = Arrays.copyOf(head, head.length + n);
        System.arraycopy(buffer, 0, all, head.length, n);
        return all;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
