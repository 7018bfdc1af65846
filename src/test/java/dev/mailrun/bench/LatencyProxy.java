package dev.mailrun.bench;

import static dev.mailrun.testing.ProxySockets.acceptLoop;
import static dev.mailrun.testing.ProxySockets.closeQuietly;
import static dev.mailrun.testing.ProxySockets.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy that puts a network between mailrun and an SMTP server: every byte takes half the
 * round trip to cross, in both directions, as on a link with that round-trip time (bandwidth
 * unlimited). Unlike {@link DelayProxy}, which holds back only the server's reply lines, commands
 * and the message body are delayed too, and so is the greeting after the connect. Two threads per
 * direction: a reader stamping each chunk with when it is due, a writer passing it on then.
 */
public final class LatencyProxy implements AutoCloseable {

    private final ServerSocket server;
    private final long oneWayNanos;

    public LatencyProxy(int upstreamPort, long roundTripMillis) throws IOException {
        if (roundTripMillis < 0) {
            throw new IllegalArgumentException("round trip must be >= 0 ms, got " + roundTripMillis);
        }
        this.oneWayNanos = TimeUnit.MILLISECONDS.toNanos(roundTripMillis) / 2;
        this.server = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        daemon("latency-proxy-accept", () -> acceptLoop(server, upstreamPort, this::connected)).start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void connected(Socket client, Socket upstream) {
        try {
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(upstream);
            return;
        }
        pipe("up", client, upstream);
        pipe("down", upstream, client);
    }

    private record Chunk(long dueNanos, byte[] bytes) {
        static final Chunk END = new Chunk(0, null);
    }

    private void pipe(String name, Socket from, Socket to) {
        LinkedBlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        daemon("latency-proxy-read-" + name, () -> read(from, queue)).start();
        daemon("latency-proxy-write-" + name, () -> write(to, from, queue)).start();
    }

    private void read(Socket from, LinkedBlockingQueue<Chunk> queue) {
        byte[] buffer = new byte[64 * 1024];
        try {
            InputStream in = from.getInputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                queue.add(new Chunk(System.nanoTime() + oneWayNanos, Arrays.copyOf(buffer, n)));
            }
        } catch (IOException e) {
            // closed
        } finally {
            queue.add(Chunk.END);
        }
    }

    private static void write(Socket to, Socket from, LinkedBlockingQueue<Chunk> queue) {
        try {
            OutputStream out = to.getOutputStream();
            while (true) {
                Chunk chunk = queue.take();
                if (chunk == Chunk.END) {
                    // The other side closed: close this one once everything before it was delivered.
                    to.shutdownOutput();
                    return;
                }
                for (long left = chunk.dueNanos() - System.nanoTime(); left > 0; left = chunk.dueNanos() - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
                out.write(chunk.bytes());
                out.flush();
            }
        } catch (IOException e) {
            closeQuietly(to);
            closeQuietly(from);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
