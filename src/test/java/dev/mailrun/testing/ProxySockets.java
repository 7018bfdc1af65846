package dev.mailrun.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.BiConsumer;

/**
 * What the tests' and benchmarks' TCP proxies on loopback share: daemon threads, an accept loop,
 * plain copying, quiet closing.
 */
public final class ProxySockets {

    private ProxySockets() {}

    public static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * Accepts clients until the server closes, connects each to the upstream port on loopback (no
     * Nagle delay either side) and hands both sockets to {@code connected}.
     */
    public static void acceptLoop(ServerSocket server, int upstreamPort, BiConsumer<Socket, Socket> connected) {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                connected.accept(client, upstream);
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Copies bytes from one socket to the other as they come, until either side closes; then closes both. */
    public static void copy(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // either side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    public static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
