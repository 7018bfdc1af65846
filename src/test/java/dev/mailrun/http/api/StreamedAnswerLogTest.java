package dev.mailrun.http.api;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A client that closes a streamed answer (an export) early is an ordinary event: one line at INFO, no
 * stack trace, no ERROR. A stream that breaks on our side is still an error, with its trace.
 */
class StreamedAnswerLogTest {

    private static final byte[] LINE = ("x".repeat(8191) + "\n").getBytes(StandardCharsets.US_ASCII);
    private static final long ENDLESS = 1L << 30;

    private final Logger logger = (Logger) LoggerFactory.getLogger(Answers.class);
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final CountDownLatch answered = new CountDownLatch(1);
    private Server server;

    @BeforeEach
    void capture() {
        events.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        events.start();
        logger.addAppender(events);
    }

    @AfterEach
    void stop() throws Exception {
        logger.detachAppender(events);
        if (server != null) {
            server.stop();
        }
    }

    private int serve(ApiResponse.Streamer streamer) throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                try {
                    Answers.send(request, response, callback, ApiResponse.stream("text/csv", streamer));
                } finally {
                    answered.countDown();
                }
                return true;
            }
        });
        server.start();
        return connector.getLocalPort();
    }

    private static void getAndHangUpEarly(int port) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write("GET /api/v1/campaigns/1/export HTTP/1.1\r\nHost: x\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            long read = 0;
            while (read < 64 * 1024) {
                read += in.read(buffer);
            }
            socket.setSoLinger(true, 0);   // a reset, as a browser that cancels a download sends
        }
    }

    @Test
    void a_client_closing_an_export_stream_is_one_info_line_without_a_stack_trace() throws Exception {
        int port = serve(out -> {
            for (long written = 0; written < ENDLESS; written += LINE.length) {
                out.write(LINE);
            }
        });

        getAndHangUpEarly(port);

        assertThat(answered.await(60, TimeUnit.SECONDS)).as("the handler saw the stream break").isTrue();
        List<ILoggingEvent> logged = events.list;
        assertThat(logged).as("what Answers logged").hasSize(1);
        assertThat(logged.get(0).getLevel().isGreaterOrEqual(Level.WARN)).as(logged.get(0).getFormattedMessage()).isFalse();
        assertThat(logged.get(0).getThrowableProxy()).isNull();
        assertThat(logged.get(0).getFormattedMessage()).contains("the client closed the connection");
    }

    @Test
    void a_stream_that_breaks_on_our_side_is_still_an_error_with_its_trace() throws Exception {
        int port = serve(out -> {
            out.write(LINE);
            throw new SQLException("the database went away");
        });

        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write("GET /api/v1/campaigns/1/export HTTP/1.1\r\nHost: x\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(answered.await(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(events.list).hasSize(1);
        assertThat(events.list.get(0).getLevel()).isEqualTo(Level.ERROR);
        assertThat(events.list.get(0).getThrowableProxy().getMessage()).isEqualTo("the database went away");
    }
}
