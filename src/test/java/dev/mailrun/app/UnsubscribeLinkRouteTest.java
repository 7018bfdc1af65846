package dev.mailrun.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code unsubscribe.base-url} written either way — the public host, or the endpoint's own
 * {@code /u} URL, with or without a trailing slash, or behind a proxy path — gives links that the
 * endpoint started from the same configuration serves: configuration, links and endpoint are the
 * real ones.
 */
class UnsubscribeLinkRouteTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // base-url,                     link before the token,          path prefix a proxy strips
            "https://mail.example.com,       https://mail.example.com/u/,    ''",
            "https://mail.example.com/,      https://mail.example.com/u/,    ''",
            "https://mail.example.com/u,     https://mail.example.com/u/,    ''",
            "https://mail.example.com/u/,    https://mail.example.com/u/,    ''",
            "https://example.com/mail,       https://example.com/mail/u/,    /mail",
            "https://example.com/mail/u/,    https://example.com/mail/u/,    /mail",
    })
    void a_link_built_from_either_form_of_the_base_url_is_served_by_the_endpoint(String baseUrl, String linkPrefix,
                                                                                 String proxyPrefix) throws Exception {
        String address = "reader." + Math.abs(baseUrl.hashCode()) + "@list.example";
        Map<String, String> env = Map.of(
                "MAILRUN_DB_URL", db.url(), "MAILRUN_DB_USER", db.user(), "MAILRUN_DB_PASSWORD", db.password(),
                "MAILRUN_UNSUBSCRIBE_SECRET", "a-test-secret-that-is-long-enough-0123456789",
                "MAILRUN_UNSUBSCRIBE_BASE_URL", baseUrl,
                "MAILRUN_HTTP_PORT", String.valueOf(freePort()));
        try (AppContext ctx = AppContext.load(Optional.empty(), env, SettableClock.at("2026-11-21T10:00:00Z"))) {
            Services services = new Services(ctx, ProductionLinks::of);
            URI link = URI.create(ProductionLinks.of(services).url(12, 34, address));

            assertThat(link.toString()).startsWith(linkPrefix).matches(".*/u/[A-Za-z0-9_-]+");
            try (HttpEndpoint endpoint = HttpEndpoint.start(services)) {
                // What reaches the endpoint: the link's path, less what the proxy in front strips.
                String served = link.getRawPath().substring(proxyPrefix.length());
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + endpoint.port().orElseThrow() + served))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("List-Unsubscribe=One-Click")).build(),
                        HttpResponse.BodyHandlers.ofString());

                assertThat(response.statusCode()).as(served).isEqualTo(200);
            }
        }
        assertThat(suppressionReason(address)).contains("unsubscribed");
    }

    private static Optional<String> suppressionReason(String address) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT reason FROM suppression WHERE address = ?")) {
            ps.setString(1, address);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /** http.port must be a real port (1–65535): take one the system has free right now. */
    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
