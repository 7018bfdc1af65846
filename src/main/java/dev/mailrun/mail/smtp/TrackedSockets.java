package dev.mailrun.mail.smtp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * The socket factory of one connection, given to the mail API as {@code mail.smtp.socketFactory}:
 * the mail API creates the plain socket with it in every TLS mode (it layers TLS on top for
 * STARTTLS and implicit TLS), so the connection can close the socket from another thread.
 *
 * <p>Why: a message that is still waiting for the relay when the run's deadline comes must end
 * then, not when a 30 s read timeout runs out; and the read timeout is fixed when the socket is
 * made, so bounding it by the deadline would mean reconnecting as the deadline nears (several round
 * trips each, on every connection of every run at short ticks). Closing the socket at the deadline
 * bounds every message without reconnecting. Sockets are made with TCP_NODELAY: SMTP commands are
 * small writes each waiting for a reply, which Nagle's algorithm would hold back behind a delayed
 * ACK.
 */
final class TrackedSockets extends SocketFactory {

    private volatile Socket last;

    @Override
    public Socket createSocket() throws SocketException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        last = socket;
        return socket;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        throw unconnectedOnly();
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        throw unconnectedOnly();
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        throw unconnectedOnly();
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        throw unconnectedOnly();
    }

    /** Closes the last socket made, if any: a read or write blocked on it fails at once. */
    void closeNow() {
        Socket socket = last;
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException | RuntimeException e) {
                // Closing is all that is wanted; a socket that fails to close is closed enough.
            }
        }
    }

    private static IOException unconnectedOnly() {
        // The mail API asks for an unconnected socket and connects it with its own timeout.
        return new IOException("only unconnected sockets are made here");
    }
}
