package dev.mailrun.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import dev.mailrun.http.endpoint.PublicRoutes;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The limits of {@link HttpLimits} over real sockets: slow clients hold sockets, not threads; stop
 * ends within its budget; oversized requests are refused; slow request heads and bodies are cut off.
 */
class HttpServerLimitsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final UnsubscribeTokens tokens =
            new UnsubscribeTokens(SigningKey.of("0123456789abcdef0123456789abcdef-test"));
    private static final String ONE_CLICK = "List-Unsubscribe=One-Click";

    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void clearSuppressions() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM suppression");
        }
    }

    private static HttpServer start(HttpSettings settings) throws IOException {
        Unsubscriber unsubscriber = new Unsubscriber(db.dataSource(), new SuppressionTable(),
                SettableClock.at("2025-03-01T10:00:00Z"));
        return HttpServer.start(settings, List.of(PublicRoutes.unsubscribe(tokens, unsubscriber, new PublicPage(PageLook.DEFAULTS), "en")));
    }

    private static HttpLimits withTimeouts(Duration head, Duration body) {
        HttpLimits d = HttpLimits.DEFAULTS;
        return new HttpLimits(d.maxThreads(), d.maxConnections(), d.idleTimeout(), head, body, d.maxHeaderBytes(),
                d.maxBodyBytes());
    }

    @Test
    void a_one_click_post_completes_in_under_a_second_while_200_half_open_connections_are_held() throws Exception {
        try (HttpServer server = start(HttpSettings.of("127.0.0.1", 0, Duration.ofSeconds(5)))) {
            String base = "http://127.0.0.1:" + server.port();
            assertThat(get(base + "/u/" + tokens.token(1, 1, "warm@example.com")).statusCode()).isEqualTo(200);

            try (SlowClients slow = SlowClients.open(new InetSocketAddress("127.0.0.1", server.port()), 200,
                    "/u/" + tokens.token(1, 2, "slow@example.com"))) {
                slow.trickle();
                long start = System.nanoTime();
                HttpResponse<String> response = post(base + "/u/" + tokens.token(12, 1, "ann@example.com"), ONE_CLICK);
                long millis = (System.nanoTime() - start) / 1_000_000;
                System.out.println("[http] one-click POST beside 200 half-open connections: " + millis + " ms");

                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(millis).isLessThan(1_000);
                assertThat(suppressed()).containsExactly("ann@example.com");
                assertThat(get(base + "/u/" + tokens.token(12, 2, "bob@example.com")).statusCode()).isEqualTo(200);
                assertThat(slow.stillOpen()).isEqualTo(200);
            }
        }
    }

    @Test
    void stop_completes_within_its_budget_while_200_half_open_connections_are_held() throws Exception {
        Duration budget = Duration.ofSeconds(2);
        HttpServer server = start(HttpSettings.of("127.0.0.1", 0, budget));
        ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
        try (SlowClients slow = SlowClients.open(new InetSocketAddress("127.0.0.1", server.port()), 200,
                "/u/" + tokens.token(1, 2, "slow@example.com"))) {
            // A byte on each every 50 ms: no connection ever goes idle, so none closes by itself.
            trickler.scheduleWithFixedDelay(slow::trickle, 0, 50, TimeUnit.MILLISECONDS);
            Thread.sleep(200);
            long start = System.nanoTime();
            server.stop();
            long millis = (System.nanoTime() - start) / 1_000_000;
            trickler.shutdown();
            trickler.awaitTermination(5, TimeUnit.SECONDS);
            System.out.println("[http] stop with 200 half-open connections: " + millis + " ms (budget " + budget.toMillis() + ")");

            assertThat(millis).isLessThan(budget.toMillis());
            assertThat(slow.stillOpen()).isZero();
            assertThat(suppressed()).isEmpty();
        } finally {
            trickler.shutdownNow();
            server.stop();
        }
    }

    @Test
    void a_request_head_over_the_header_limit_gets_431_and_a_uri_that_long_414() throws Exception {
        try (HttpServer server = start(HttpSettings.of("127.0.0.1", 0, Duration.ofSeconds(2)))) {
            String big = "x".repeat(HttpLimits.DEFAULTS.maxHeaderBytes());
            String response = RawHttp.exchange(server.port(), "GET /u/" + tokens.token(1, 1, "a@example.com")
                    + " HTTP/1.1\r\nHost: localhost\r\nX-Big: " + big + "\r\n\r\n");

            assertThat(RawHttp.status(response)).isEqualTo(431);
            assertThat(RawHttp.status(RawHttp.exchange(server.port(), "GET /u/" + big + " HTTP/1.1\r\nHost: localhost\r\n\r\n")))
                    .isEqualTo(414);
            assertThat(RawHttp.status(RawHttp.exchange(server.port(), "GET /u/abc HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\nX-Small: " + "x".repeat(4000) + "\r\n\r\n"))).isEqualTo(400);
        }
    }

    @Test
    void a_body_over_the_body_limit_gets_413_whether_declared_or_chunked_and_unsubscribes_nobody() throws Exception {
        try (HttpServer server = start(HttpSettings.of("127.0.0.1", 0, Duration.ofSeconds(2)))) {
            String path = "/u/" + tokens.token(12, 1, "big@example.com");
            int tooMany = HttpLimits.DEFAULTS.maxBodyBytes() + 1;
            String declared = RawHttp.exchange(server.port(), "POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + tooMany + "\r\n\r\n" + ONE_CLICK);

            StringBuilder chunked = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = "a".repeat(4096);
            for (int sent = 0; sent < tooMany; sent += chunk.length()) {
                chunked.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
            }
            chunked.append("0\r\n\r\n");
            String streamed = RawHttp.exchange(server.port(), chunked.toString());

            assertThat(RawHttp.status(declared)).isEqualTo(413);
            assertThat(RawHttp.status(streamed)).isEqualTo(413);
            assertThat(suppressed()).isEmpty();
            assertThat(post("http://127.0.0.1:" + server.port() + path, ONE_CLICK).statusCode()).isEqualTo(200);
            assertThat(suppressed()).containsExactly("big@example.com");
        }
    }

    @Test
    void a_body_over_the_body_limit_gets_413_even_on_a_path_whose_token_is_not_valid() throws Exception {
        try (HttpServer server = start(HttpSettings.of("127.0.0.1", 0, Duration.ofSeconds(2)))) {
            String body = "a".repeat(370 * 1024);
            String declared = RawHttp.exchange(server.port(), "POST /u/x HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
            String small = RawHttp.exchange(server.port(), "POST /u/x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + ONE_CLICK.length() + "\r\n\r\n" + ONE_CLICK);

            assertThat(RawHttp.status(declared)).isEqualTo(413);
            assertThat(RawHttp.status(small)).isEqualTo(400);
        }
    }

    @Test
    void a_client_trickling_its_request_head_is_cut_off_at_the_head_timeout() throws Exception {
        HttpLimits limits = withTimeouts(Duration.ofMillis(300), Duration.ofSeconds(10));
        try (HttpServer server = start(new HttpSettings("127.0.0.1", 0, Duration.ofSeconds(2), limits));
             Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", server.port()));
            s.setSoTimeout(50);
            OutputStream out = s.getOutputStream();
            out.write("GET /u/abc HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.US_ASCII));
            // One byte every 50 ms: never idle for the 30 s idle timeout, but never done either.
            boolean closed = false;
            for (int i = 0; i < 100 && !closed; i++) {
                closed = writeOrClosed(out, 'X') || readEndOrClosed(s.getInputStream());
            }

            assertThat(closed).as("closed by the server within 100 trickled bytes").isTrue();
            assertThat(get("http://127.0.0.1:" + server.port() + "/u/" + tokens.token(1, 1, "a@example.com")).statusCode())
                    .isEqualTo(200);
        }
    }

    @Test
    void a_body_trickled_past_the_body_timeout_gets_408_and_unsubscribes_nobody() throws Exception {
        HttpLimits limits = withTimeouts(Duration.ofSeconds(10), Duration.ofMillis(300));
        try (HttpServer server = start(new HttpSettings("127.0.0.1", 0, Duration.ofSeconds(2), limits));
             Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", server.port()));
            s.setSoTimeout(50);
            OutputStream out = s.getOutputStream();
            out.write(("POST /u/" + tokens.token(12, 1, "slow@example.com") + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            StringBuilder answer = new StringBuilder();
            for (int i = 0; i < 100 && answer.length() == 0; i++) {
                if (writeOrClosed(out, 'a')) {
                    break;
                }
                answer.append(readSome(s.getInputStream()));
            }
            s.setSoTimeout(2_000);
            answer.append(RawHttp.readAll(s.getInputStream()));

            assertThat(RawHttp.status(answer.toString())).isEqualTo(408);
            assertThat(answer.toString()).contains("Connection: close");
            assertThat(suppressed()).isEmpty();
        }
    }

    @Test
    void limits_outside_their_range_are_refused_with_the_name_of_the_limit() {
        HttpLimits d = HttpLimits.DEFAULTS;
        assertThatThrownBy(() -> new HttpLimits(3, d.maxConnections(), d.idleTimeout(), d.headTimeout(), d.bodyTimeout(),
                d.maxHeaderBytes(), d.maxBodyBytes())).hasMessage("maxThreads must be at least 4, got 3");
        assertThatThrownBy(() -> new HttpLimits(d.maxThreads(), d.maxConnections(), d.idleTimeout(), Duration.ZERO,
                d.bodyTimeout(), d.maxHeaderBytes(), d.maxBodyBytes())).hasMessage("headTimeout must be positive, got PT0S");
        assertThatThrownBy(() -> new HttpLimits(d.maxThreads(), d.maxConnections(), d.idleTimeout(), d.headTimeout(),
                d.bodyTimeout(), 100, d.maxBodyBytes())).hasMessage("maxHeaderBytes must be at least 1024, got 100");
        assertThatThrownBy(() -> HttpSettings.of("127.0.0.1", 70_000, Duration.ofSeconds(1)))
                .hasMessage("port must be 0-65535, got 70000");
        assertThatThrownBy(() -> HttpSettings.of("127.0.0.1", 0, Duration.ZERO)).hasMessage("stopTimeout must be positive, got PT0S");
    }

    private static boolean writeOrClosed(OutputStream out, int b) {
        try {
            out.write(b);
            out.flush();
            return false;
        } catch (IOException closed) {
            return true;
        }
    }

    /** Waits up to the socket's timeout; true when the server closed the connection. */
    private static boolean readEndOrClosed(InputStream in) {
        try {
            return in.read() < 0;
        } catch (java.net.SocketTimeoutException open) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private static String readSome(InputStream in) {
        byte[] buffer = new byte[4096];
        try {
            int n = in.read(buffer);
            return n <= 0 ? "" : new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
        } catch (IOException quietOrClosed) {
            return "";
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> suppressed() throws Exception {
        List<String> addresses = new java.util.ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT address FROM suppression ORDER BY address")) {
            while (rs.next()) {
                addresses.add(rs.getString(1));
            }
        }
        return addresses;
    }
}
