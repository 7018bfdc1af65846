package dev.mailrun.testing;

import static dev.mailrun.testing.ProxySockets.acceptLoop;
import static dev.mailrun.testing.ProxySockets.closeQuietly;
import static dev.mailrun.testing.ProxySockets.copy;
import static dev.mailrun.testing.ProxySockets.daemon;

import java.io.IOException;
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
        // A port the kernel never gives an outgoing connection: restore() must be able to bind it again.
        this.server = ReopenablePorts.listen(50);
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

    /** Closes every connection and goes on accepting new ones: the server ended its sessions. */
    public synchronized void dropConnections() {
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
        daemon("proxy-accept", () -> acceptLoop(listening, upstreamPort, (client, upstream) -> {
            sockets.add(client);
            sockets.add(upstream);
            daemon("proxy-up", () -> copy(client, upstream)).start();
            daemon("proxy-down", () -> copy(upstream, client)).start();
        })).start();
    }

    @Override
    public void close() throws IOException {
        cut();
    }
}
