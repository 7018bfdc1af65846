package dev.mailrun.http.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.HttpServer;
import dev.mailrun.http.server.Listener;
import dev.mailrun.http.server.PageLook;
import dev.mailrun.http.server.PublicPage;
import dev.mailrun.http.server.RawHttp;
import dev.mailrun.http.server.Warnings;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The unsubscribe route over real sockets, on a real database. */
class UnsubscribeHandlerTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final UnsubscribeTokens tokens =
            new UnsubscribeTokens(SigningKey.of("0123456789abcdef0123456789abcdef-test"));
    private static final PublicPage shell = new PublicPage(PageLook.DEFAULTS);
    private static HttpServer server;
    private static String base;
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @BeforeAll
    static void start() throws Exception {
        Unsubscriber unsubscriber = new Unsubscriber(db.dataSource(), new SuppressionTable(),
                SettableClock.at("2025-03-01T10:00:00Z"));
        server = HttpServer.start(List.of(Listener.open("public", "127.0.0.1", 0, List.of(PublicRoutes.unsubscribe(tokens, unsubscriber, shell, "en")))),
                Duration.ofSeconds(2), HttpLimits.DEFAULTS);
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void clearSuppressions() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM suppression");
        }
    }

    @Test
    void get_shows_a_confirmation_page_with_a_post_button_and_does_not_unsubscribe() throws Exception {
        HttpResponse<String> response = get("/u/" + tokens.token(12, 1, "Ann@Example.com"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(response.headers().firstValue("Content-Security-Policy")).hasValue(shell.contentSecurityPolicy());
        assertThat(response.body()).contains("Ann@Example.com").contains("<form method=\"post\"")
                .contains("<input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">");
        assertThat(response.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(suppressionCount()).isZero();
    }

    @Test
    void a_one_click_post_suppresses_the_address_with_the_campaign_as_source() throws Exception {
        HttpResponse<String> response = post("/u/" + tokens.token(12, 1, "Ann@Example.com"),
                "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("will receive no more mail");
        assertThat(response.headers().firstValue("Content-Security-Policy")).hasValue(shell.contentSecurityPolicy());
        assertThat(response.headers().firstValue("Location")).isEmpty();
        assertThat(suppression("ann@example.com")).isEqualTo("unsubscribed unsubscribe:campaign=12");
    }

    @Test
    void a_multipart_one_click_post_is_accepted_too() throws Exception {
        String body = "--b1\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\nOne-Click\r\n--b1--\r\n";
        HttpResponse<String> response = post("/u/" + tokens.token(5, 9, "carl@example.net"),
                "multipart/form-data; boundary=b1", body);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(suppression("carl@example.net")).isEqualTo("unsubscribed unsubscribe:campaign=5");
    }

    @Test
    void a_second_post_answers_200_and_leaves_one_suppression_row() throws Exception {
        String path = "/u/" + tokens.token(12, 1, "dee@example.com");
        post(path, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click");
        HttpResponse<String> again = post(path, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click");

        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(suppressionCount()).isEqualTo(1);
    }

    @Test
    void a_tampered_token_gets_400_and_changes_nothing() throws Exception {
        String token = tokens.token(12, 1, "eve@example.com");
        String tampered = token.substring(0, 10) + (token.charAt(10) == 'x' ? 'y' : 'x') + token.substring(11);

        assertThat(post("/u/" + tampered, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click").statusCode())
                .isEqualTo(400);
        assertThat(get("/u/" + tampered).statusCode()).isEqualTo(400);
        assertThat(suppressionCount()).isZero();
    }

    @Test
    void unknown_paths_get_404_and_other_methods_get_405() throws Exception {
        assertThat(get("/").statusCode()).isEqualTo(404);
        assertThat(get("/u/").statusCode()).isEqualTo(404);
        assertThat(get("/favicon.ico").statusCode()).isEqualTo(404);
        assertThat(get("/u/abc/def").statusCode()).isEqualTo(404);
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(base + "/u/" + tokens.token(1, 1, "f@example.com")))
                .PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(put.headers().firstValue("Allow")).hasValue("GET, HEAD, POST");
        assertThat(suppressionCount()).isZero();
    }

    @Test
    void head_answers_like_get_without_a_body_and_without_a_warning() throws Exception {
        String path = "/u/" + tokens.token(12, 1, "Ann@Example.com");
        HttpResponse<String> get = get(path);
        HttpResponse<String> head;
        String pipelined;
        List<String> warnings;
        try (Warnings captured = new Warnings()) {
            head = http.send(HttpRequest.newBuilder(URI.create(base + path)).method("HEAD", HttpRequest.BodyPublishers.noBody())
                    .build(), HttpResponse.BodyHandlers.ofString());
            // A HEAD answer with body bytes would show as garbage in front of the second response.
            pipelined = RawHttp.exchange(server.port(), "HEAD " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "GET /nothing HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/u/bad-token")).method("HEAD",
                    HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(400);
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/elsewhere")).method("HEAD",
                    HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
            warnings = captured.all();
        }

        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        for (String name : List.of("Content-Type", "Content-Length", "Cache-Control", "X-Content-Type-Options",
                "Referrer-Policy", "Content-Security-Policy")) {
            assertThat(head.headers().allValues(name)).as(name).isNotEmpty().isEqualTo(get.headers().allValues(name));
        }
        assertThat(head.headers().firstValue("Content-Length")).hasValue(Integer.toString(get.body().getBytes(StandardCharsets.UTF_8).length));
        String first = pipelined.substring(0, pipelined.indexOf("\r\n\r\n") + 4);
        assertThat(first).startsWith("HTTP/1.1 200 ");
        assertThat(pipelined.substring(first.length())).startsWith("HTTP/1.1 404 ");
        assertThat(warnings).isEmpty();
        assertThat(suppressionCount()).isZero();
    }

    @Test
    void markup_in_the_signed_address_is_escaped_on_the_page() throws Exception {
        HttpResponse<String> response = get("/u/" + tokens.token(1, 1, "<script>alert(1)</script>@example.com"));

        assertThat(response.body()).doesNotContain("<script>").contains("&lt;script&gt;");
    }

    @Test
    void a_signed_token_for_an_invalid_address_gets_400_on_post() throws Exception {
        HttpResponse<String> response = post("/u/" + tokens.token(1, 1, "not an address"),
                "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(suppressionCount()).isZero();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String contentType, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int suppressionCount() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM suppression")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static String suppression(String address) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT reason, source FROM suppression WHERE address = ?")) {
            ps.setString(1, address);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) + " " + rs.getString(2) : null;
            }
        }
    }
}
