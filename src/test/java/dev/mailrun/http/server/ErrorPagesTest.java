package dev.mailrun.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import dev.mailrun.http.status.StatusRoutes;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Requests Jetty refuses before any route sees them get mailrun's own minimal page on a listener
 * without a page shell (the admin one): UTF-8, the headers of mailrun's other pages, no echo of the
 * request and nothing of Jetty's own page. The public listener's, in its shell: PublicPagesTest.
 */
class ErrorPagesTest {

    private static final String ECHO = "zz-echo-me-zz";

    private static HttpServer start() throws Exception {
        Route metrics = StatusRoutes.metrics(() -> "metrics");
        return HttpServer.start(List.of(Listener.open("admin", "127.0.0.1", 0, List.of(metrics))), Duration.ofSeconds(2),
                HttpLimits.DEFAULTS);
    }

    @Test
    void malformed_requests_get_mailruns_own_page_with_its_headers_and_no_echo() throws Exception {
        try (HttpServer server = start()) {
            assertThat(RawHttp.status(RawHttp.exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\n\r\n"))).as("the route itself answers").isEqualTo(200);
            for (String request : new String[] {
                    "GET //metrics/" + ECHO + " HTTP/1.1\r\nHost: localhost\r\n\r\n",
                    "GET /%2e%2e/metrics/" + ECHO + " HTTP/1.1\r\nHost: localhost\r\n\r\n",
                    "GET /metrics/%2F" + ECHO + " HTTP/1.1\r\nHost: localhost\r\n\r\n",
                    "GARBAGE " + ECHO + "\r\n\r\n",
                    "GET /" + ECHO + " HTTP/9.9\r\nHost: localhost\r\n\r\n"}) {
                String response = RawHttp.exchange(server.port(), request);
                String head = response.substring(0, Math.max(0, response.indexOf("\r\n\r\n")));
                assertThat(RawHttp.status(response)).as(request).isBetween(400, 599);
                assertThat(head).as(request).containsIgnoringCase("Content-Type: text/html; charset=utf-8")
                        .contains("X-Content-Type-Options: nosniff")
                        .contains("Content-Security-Policy: default-src 'none'")
                        .containsIgnoringCase("Cache-Control: no-store");
                assertThat(response).as(request).doesNotContain(ECHO).doesNotContainIgnoringCase("jetty")
                        .doesNotContain("HTTP ERROR").contains("<meta charset=\"utf-8\">");
                assertThat(head).as("a listener without a page shell: the bare page, " + request)
                        .contains("Content-Security-Policy: " + HtmlResponse.CSP);
            }
        }
    }
}
