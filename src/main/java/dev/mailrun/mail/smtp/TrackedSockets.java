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

    /**
     * True when the last socket made is open and nothing has come on it: a read of 1 ms times out.
     * False when the peer closed it (end of stream), sent something unasked (a 421 on an idle
     * session), or the socket failed. Called between messages only, on a socket no one reads: a byte
     * read here is lost to the session, which is then discarded anyway. The socket's own read
     * timeout is put back.
     */
    boolean quiet() {
        Socket socket = last;
        if (socket == null || socket.isClosed() || !socket.isConnected() || socket.isInputShutdown()) {
            return false;
        }
        int timeout;
        try {
            timeout = socket.getSoTimeout();
        } catch (IOException e) {
            return false;
        }
        try {
            socket.setSoTimeout(1);
            // End of stream, or a byte nobody asked for: either way the session is over.
            socket.getInputStream().read();
            return false;
        } catch (java.net.SocketTimeoutException e) {
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        } finally {
            try {
                socket.setSoTimeout(timeout);
            } catch (IOException e) {
                // A socket whose timeout cannot be set back is closed: the next use fails and reconnects.
                closeNow();
            }
        }
    }

    private static IOException unconnectedOnly() {
        // The mail API asks for an unconnected socket and connects it with its own timeout.
        return new IOException("only unconnected sockets are made here");
    }
}
