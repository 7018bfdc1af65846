package dev.mailrun.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for servers a test stops and starts again on the same port (a relay or a database
 * that goes away and comes back). Taken below the kernel's range of ephemeral ports: a port from
 * that range, free while its server is down, can meanwhile become the local port of an outgoing
 * connection (the sender retrying that very port connects to itself, TCP's simultaneous open), and
 * the server then cannot bind it again ("Address already in use").
 */
public final class ReopenablePorts {

    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LOWEST = 10_000;
    private static final int TRIES = 200;

    private ReopenablePorts() {
    }

    /** A server socket listening on loopback, on a port outside the ephemeral range where the system has one. */
    public static ServerSocket listen(int backlog) throws IOException {
        int below = ephemeralLow();
        if (below > LOWEST) {
            for (int i = 0; i < TRIES; i++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
                ServerSocket s = new ServerSocket();
                s.setReuseAddress(true);
                try {
                    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), backlog);
                    return s;
                } catch (IOException taken) {
                    s.close();
                }
            }
        }
        return new ServerSocket(0, backlog, InetAddress.getLoopbackAddress());
    }

    /** A loopback port nothing listens on now, for a server a test starts there later. */
    public static int free() throws IOException {
        try (ServerSocket s = listen(1)) {
            return s.getLocalPort();
        }
    }

    /** The lowest ephemeral port (Linux); 0 where the range cannot be read. */
    private static int ephemeralLow() {
        try {
            return Integer.parseInt(Files.readString(RANGE).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
