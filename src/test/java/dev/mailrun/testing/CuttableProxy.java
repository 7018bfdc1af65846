package dev.mailrun.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on loopback in front of a server, which a test can cut (every connection closed, new
 * ones refused) and restore on the same port: the server as seen through it goes away and comes back.
 */
public final class CuttableProxy implements AutoCloseable {

    private final int upstreamPort;
    private final int port;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;

    public CuttableProxy(int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.port = server.getLocalPort();
        accept(server);
    }

    public int port() {
        return port;
    }

    /** Closes every connection and stops accepting. */
    public synchronized void cut() throws IOException {
        server.close();
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        sockets.clear();
    }

    /** Accepts again, on the same port. */
    public synchronized void restore() throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        server = s;
        accept(s);
    }

    private void accept(ServerSocket listening) {
        daemon("proxy-accept", () -> {
            while (!listening.isClosed()) {
                try {
                    Socket client = listening.accept();
                    Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                    sockets.add(client);
                    sockets.add(upstream);
                    daemon("proxy-up", () -> copy(client, upstream));
                    daemon("proxy-down", () -> copy(upstream, client));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    private static void copy(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
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

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        cut();
    }
}
