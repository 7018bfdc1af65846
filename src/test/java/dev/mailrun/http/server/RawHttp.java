package dev.mailrun.http.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** Bytes over a plain socket, for requests no HTTP client would send. */
public final class RawHttp {

    private RawHttp() {}

    /**
     * Sends {@code request}, half-closes, and returns everything the server sent until it closed the
     * connection or went quiet for {@code quietMillis}.
     */
    public static String exchange(int port, byte[] request, int quietMillis) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(quietMillis);
            try {
                s.getOutputStream().write(request);
                s.getOutputStream().flush();
                s.shutdownOutput();
            } catch (IOException closedWhileWriting) {
                // the server answered and closed before it had everything; read what it said
            }
            return readAll(s.getInputStream());
        }
    }

    public static String exchange(int port, String request) throws IOException {
        return exchange(port, request.getBytes(StandardCharsets.ISO_8859_1), 5_000);
    }

    public static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException quiet) {
            // no more for now
        } catch (IOException reset) {
            // the server reset the connection; what came before it stands
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** The status code of the first response in {@code response}, or 0 when there is none. */
    public static int status(String response) {
        if (!response.startsWith("HTTP/1.1 ") || response.length() < 12) {
            return 0;
        }
        return Integer.parseInt(response.substring(9, 12));
    }
}
