package dev.mailrun.http.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Connections that never finish their request, the way a slow-loris attack holds them: a third stop
 * inside the request line, a third inside the headers, and a third send the head of a one-click POST
 * to {@code postPath} that announces a 4,000-byte body, and then only its first bytes.
 */
public final class SlowClients implements AutoCloseable {

    private static final String BODY = "List-Unsubscribe=One-Click";
    /** Far more than {@link #trickle()} is ever called in a test, well under the body limit. */
    private static final int DECLARED_BODY = 4_000;

    private final List<Socket> sockets = new ArrayList<>();

    private SlowClients() {}

    public static SlowClients open(InetSocketAddress server, int count, String postPath) throws IOException {
        SlowClients clients = new SlowClients();
        try {
            for (int i = 0; i < count; i++) {
                Socket s = new Socket();
                clients.sockets.add(s);
                s.connect(server, 5_000);
                String start = switch (i % 3) {
                    case 0 -> "GET /u/abc";
                    case 1 -> "GET /u/abc HTTP/1.1\r\nHost: localhost\r\nX-Slow: ";
                    default -> "POST " + postPath + " HTTP/1.1\r\nHost: localhost\r\n"
                            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + DECLARED_BODY
                            + "\r\n\r\n" + BODY;
                };
                OutputStream out = s.getOutputStream();
                out.write(start.getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            clients.close();
            throw e;
        }
        return clients;
    }

    /** One more byte on every connection: a trickle that keeps each one busy but never finishes it. */
    public void trickle() {
        for (Socket s : sockets) {
            try {
                s.getOutputStream().write('x');
                s.getOutputStream().flush();
            } catch (IOException closedByServer) {
                // counted by stillOpen()
            }
        }
    }

    /** How many the server has not closed: a read that times out means the connection is still there. */
    public int stillOpen() {
        int open = 0;
        for (Socket s : sockets) {
            try {
                s.setSoTimeout(1);
                InputStream in = s.getInputStream();
                if (in.read() >= 0) {
                    continue;   // the server answered, so it is no longer half-open
                }
            } catch (SocketTimeoutException stillWaiting) {
                open++;
            } catch (IOException closed) {
                // reset by the server
            }
        }
        return open;
    }

    public int size() {
        return sockets.size();
    }

    @Override
    public void close() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
